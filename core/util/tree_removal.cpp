#include "core/util/tree_removal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/util/unique_fd.h"

namespace reviewer::util {
namespace {

// Deeper trees are refused rather than recursed into: the stack and the descriptors stay bounded
// whatever a job built.
constexpr int kMaxDepth = 256;

Refusal cleanup_error(const std::string& shown, const std::string& what, int err) {
  return refusal("cleanup-failed",
                 "cannot remove '" + shown + "': " + what + ": " + std::strerror(err));
}

// A job may have taken write permission from its own directory; the launcher is its owner and
// can give it back. Never applied to a directory the launcher does not own (/tmp itself).
int unlink_in(int dir_fd, const char* name, int flags) {
  if (::unlinkat(dir_fd, name, flags) == 0 || errno == ENOENT) {
    return 0;
  }
  if (errno != EACCES && errno != EPERM) {
    return -1;
  }
  struct stat dir {};
  if (::fstat(dir_fd, &dir) != 0 || dir.st_uid != ::geteuid() || ::fchmod(dir_fd, 0700) != 0) {
    return -1;
  }
  return ::unlinkat(dir_fd, name, flags) == 0 || errno == ENOENT ? 0 : -1;
}

Status remove_tree(int parent, const char* name, const std::string& shown, int depth) {
  if (depth > kMaxDepth) {
    return cleanup_error(shown, "nested deeper than 256 directories", ELOOP);
  }
  // No process of the job is left when this runs, so the directory cannot be swapped for a link
  // between the caller's lstat and this chmod.
  UniqueFd fd = open_directory(parent, name);
  if (!fd.valid() && errno == EACCES && ::fchmodat(parent, name, 0700, 0) == 0) {
    fd = open_directory(parent, name);
  }
  if (!fd.valid()) {
    return cleanup_error(shown, "open", errno);
  }
  ::fchmod(fd.get(), 0700);  // best effort; unlink_in reports what still fails
  auto names = list_directory(fd.get(), shown);
  if (!names) {
    return names.error();
  }
  const UniqueFd dir_fd = std::move(fd);
  for (const auto& n : *names) {
    const std::string child = shown + "/" + n;
    struct stat st {};
    if (::fstatat(dir_fd.get(), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) {
        continue;
      }
      return cleanup_error(child, "inspect", errno);
    }
    if (S_ISDIR(st.st_mode)) {
      if (auto s = remove_tree(dir_fd.get(), n.c_str(), child, depth + 1); !s) {
        return s;
      }
    } else if (unlink_in(dir_fd.get(), n.c_str(), 0) != 0) {
      return cleanup_error(child, "unlink", errno);
    }
  }
  if (unlink_in(parent, name, AT_REMOVEDIR) != 0) {
    return cleanup_error(shown, "rmdir", errno);
  }
  return ok_status();
}

}  // namespace

Result<std::vector<std::string>> list_directory(int dir_fd, const std::string& shown) {
  // readdir needs a DIR of its own; the duplicate shares the offset, hence the rewind.
  const int dup = ::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
  DIR* dir = dup < 0 ? nullptr : ::fdopendir(dup);
  if (dir == nullptr) {
    const int err = errno;
    if (dup >= 0) {
      ::close(dup);
    }
    return refusal("cleanup-failed", "cannot list '" + shown + "': " + std::strerror(err));
  }
  struct DirCloser {
    DIR* d;
    ~DirCloser() { ::closedir(d); }
  } closer{dir};
  ::rewinddir(dir);
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view n = e->d_name;
    if (n != "." && n != "..") {
      names.emplace_back(n);
    }
    errno = 0;
  }
  if (errno != 0) {
    return refusal("cleanup-failed", "cannot list '" + shown + "': " + std::strerror(errno));
  }
  return names;
}

Status remove_entry(int parent_fd, const std::string& name, const std::string& shown) {
  struct stat st {};
  if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) {
      return ok_status();
    }
    return cleanup_error(shown, "inspect", errno);
  }
  if (S_ISDIR(st.st_mode)) {
    return remove_tree(parent_fd, name.c_str(), shown, 0);
  }
  if (unlink_in(parent_fd, name.c_str(), 0) != 0) {
    return cleanup_error(shown, "unlink", errno);
  }
  return ok_status();
}

}  // namespace reviewer::util
