#include "core/resolve/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/file_read.h"

namespace reviewer::resolve {
namespace {

util::Refusal declaration_error(const std::string& name, std::string message) {
  return util::refusal("invalid-declaration", std::move(message), util::SourceLocation{name});
}

}  // namespace

util::Result<util::UniqueFd> open_worktree(const std::string& path) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    return util::refusal("invalid-declaration",
                         "cannot open the worktree " + quote(path) + ": " + std::strerror(errno));
  }
  return fd;
}

util::Result<std::optional<std::string>> read_worktree_file(int dir, const std::string& name,
                                                            std::size_t max_bytes) {
  auto text = util::read_regular_file(dir, name, {max_bytes});
  if (text) {
    return std::optional<std::string>(std::move(*text));
  }
  const util::Refusal& e = text.error();
  if (util::file_fault(e) == util::FileFault::kMissing) {
    return std::optional<std::string>();
  }
  if (util::file_fault(e) == util::FileFault::kSymlink) {
    return declaration_error(name, name +
                                       " is a symlink; declaration files must be regular "
                                       "files in the worktree, not links");
  }
  if (util::file_fault(e) == util::FileFault::kNotRegular) {
    return declaration_error(name, name + " is not a regular file");
  }
  if (util::file_fault(e) == util::FileFault::kTooLarge) {
    return declaration_error(name, name + " " + e.message + " for this file");
  }
  if (util::file_fault(e) == util::FileFault::kReadFailed) {
    return declaration_error(name, "cannot read " + name + ": " + e.message);
  }
  return declaration_error(name, "cannot open " + name + ": " + e.message);
}

util::Result<std::string> read_bounded_file(const std::string& path, std::size_t max_bytes,
                                            const std::string& code, bool follow_link) {
  auto text = util::read_regular_file(AT_FDCWD, path, {max_bytes, follow_link});
  if (text) {
    return text;
  }
  const util::Refusal& e = text.error();
  if (util::file_fault(e) == util::FileFault::kSymlink) {
    return util::refusal(code,
                         quote(path) + " is a symlink; it must be a regular file, not a link");
  }
  if (util::file_fault(e) == util::FileFault::kNotRegular) {
    return util::refusal(code, quote(path) + " is not a regular file");
  }
  if (util::file_fault(e) == util::FileFault::kTooLarge) {
    return util::refusal(code, quote(path) + " " + e.message);
  }
  if (util::file_fault(e) == util::FileFault::kReadFailed) {
    return util::refusal(code, "cannot read " + quote(path) + ": " + e.message);
  }
  return util::refusal(code, "cannot open " + quote(path) + ": " + e.message);
}

}  // namespace reviewer::resolve
