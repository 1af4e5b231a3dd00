#include "core/git/index_entries.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

// The index file's bytes, or nullopt for anything but a regular file read whole (libgit2 then
// gives its own answer for a missing index, a link or a FIFO).
std::optional<std::string> index_bytes(const std::string& git_dir) {
  const std::string path = git_dir + "/index";
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return std::nullopt;
    }
    done += static_cast<size_t>(n);
  }
  char extra = 0;
  if (::read(fd.get(), &extra, 1) != 0) {  // grew while read: libgit2 decides
    return std::nullopt;
  }
  return bytes;
}

// core.ignorecase makes libgit2 re-sort the entries case-insensitively; that order is not
// modelled. nullopt when the configuration cannot say.
std::optional<bool> ignores_case(git_repository* repo) {
  git_config* raw = nullptr;
  if (git_repository_config(&raw, repo) != 0) {
    return std::nullopt;
  }
  ConfigPtr cfg(raw);
  int value = 0;
  const int rc = git_config_get_bool(&value, cfg.get(), "core.ignorecase");
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return false;
  }
  if (rc != 0) {
    return std::nullopt;
  }
  return value != 0;
}

}  // namespace

util::Result<IndexEntries> IndexEntries::read(git_repository* repo, const std::string& git_dir,
                                              std::string_view rule) {
  IndexEntries out;
  if (ignores_case(repo) == std::optional<bool>(false)) {
    if (auto bytes = index_bytes(git_dir)) {
      if (auto parsed = parse_index_file(std::move(*bytes))) {
        out.parsed_ = std::move(*parsed);
        out.entries_ = out.parsed_.entries.data();
        out.size_ = out.parsed_.entries.size();
        return out;
      }
    }
  }
  git_index* raw = nullptr;
  if (git_repository_index(&raw, repo) != 0) {
    return last_error(rule, "cannot read the index");
  }
  out.libgit2_.reset(raw);
  const size_t n = git_index_entrycount(raw);
  out.copied_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.copied_.push_back(*git_index_get_byindex(raw, i));
  }
  out.entries_ = out.copied_.data();
  out.size_ = n;
  return out;
}

}  // namespace reviewer::git::detail
