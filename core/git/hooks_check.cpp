#include "core/git/hooks_check.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/git/rules.h"
#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

report::Refusal hook_refusal(const std::string& path, const std::string& what) {
  return {std::string(kRuleHooks),
          what + "; a clone's hooks directory holds only the template's *.sample files",
          util::SourceLocation{path, 0, 0}};
}

}  // namespace

util::Status check_hooks(const std::string& hooks_dir) {
  struct stat st {};
  if (::lstat(hooks_dir.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return util::ok_status();
    }
    return hook_refusal(hooks_dir,
                        std::string("cannot inspect the hooks directory: ") + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return hook_refusal(hooks_dir, S_ISLNK(st.st_mode) ? "the hooks directory is a symlink"
                                                       : "the hooks directory is not a directory");
  }
  util::UniqueFd fd(::open(hooks_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  DIR* dir = fd.valid() ? ::fdopendir(fd.get()) : nullptr;
  if (dir == nullptr) {
    return hook_refusal(hooks_dir,
                        std::string("cannot list the hooks directory: ") + std::strerror(errno));
  }
  const int dir_fd = fd.release();
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  report::Refusals out;
  for (const auto& name : names) {
    const std::string path = hooks_dir + "/" + name;
    struct stat es {};
    if (::fstatat(dir_fd, name.c_str(), &es, AT_SYMLINK_NOFOLLOW) != 0) {
      out.push_back(hook_refusal(path, "cannot inspect hook entry"));
      continue;
    }
    const bool sample = name.size() > 7 && name.ends_with(".sample");
    if (!S_ISREG(es.st_mode)) {
      out.push_back(hook_refusal(path, S_ISLNK(es.st_mode) ? "hook entry is a symlink"
                                                           : "hook entry is not a regular file"));
    } else if (!sample) {
      out.push_back(hook_refusal(path, "hook '" + name + "' would run"));
    }
  }
  ::closedir(dir);
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git
