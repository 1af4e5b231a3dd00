#include "core/git/directory_link.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

// As deep as the shape walk goes.
constexpr int kMaxLevels = 256;

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Whether `fd`, a directory beneath the worktree `root_fd`, is the worktree's `.git` or inside
// it: its parents are walked up to the worktree (which RESOLVE_BENEATH guarantees is reached).
std::optional<bool> inside_git(int root_fd, util::UniqueFd fd) {
  struct stat root {
  }, git{};
  if (::fstat(root_fd, &root) != 0) {
    return std::nullopt;
  }
  const bool has_git = ::fstatat(root_fd, ".git", &git, AT_SYMLINK_NOFOLLOW) == 0;
  for (int level = 0; level <= kMaxLevels; ++level) {
    struct stat here {};
    if (::fstat(fd.get(), &here) != 0) {
      return std::nullopt;
    }
    if (same_file(here, root)) {
      return false;
    }
    if (has_git && same_file(here, git)) {
      return true;
    }
    fd = util::UniqueFd(::openat(fd.get(), "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The worktree's own path in this mount namespace ("/workspace" in the sandbox, where every step
// that makes a link runs), as the kernel names the open directory.
std::optional<std::string> root_path(int root_fd) {
  char buf[4096];
  const std::string proc = "/proc/self/fd/" + std::to_string(root_fd);
  const ssize_t n = ::readlink(proc.c_str(), buf, sizeof buf - 1);
  if (n <= 1 || buf[0] != '/') {
    return std::nullopt;
  }
  return std::string(buf, static_cast<std::size_t>(n));
}

}  // namespace

std::optional<std::string> directory_link_escape(int root_fd, const std::string& rel) {
  char target[4096];
  const ssize_t n = ::readlinkat(root_fd, rel.c_str(), target, sizeof target - 1);
  if (n < 0) {
    return std::string("whose target cannot be read: ") + std::strerror(errno);
  }
  // What to resolve beneath the worktree: the link itself, or, for an absolute target that names
  // the worktree's own path, the rest of it from the worktree's root.
  std::string path = rel;
  if (n > 0 && target[0] == '/') {
    const std::string absolute(target, static_cast<std::size_t>(n));
    const auto root = root_path(root_fd);
    if (!root || !(absolute == *root || absolute.starts_with(*root + "/"))) {
      return std::string("with an absolute target, which leaves the worktree");
    }
    path = absolute.size() <= root->size() + 1 ? "." : absolute.substr(root->size() + 1);
  }
  open_how how{};
  how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  util::UniqueFd fd(
      static_cast<int>(::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof how)));
  if (!fd.valid()) {
    if (errno == EXDEV) {
      return std::string("outside the worktree");
    }
    return std::string("that cannot be resolved inside the worktree: ") + std::strerror(errno);
  }
  const auto in_git = inside_git(root_fd, std::move(fd));
  if (!in_git) {
    return std::string("whose place in the worktree cannot be told: ") + std::strerror(errno);
  }
  if (*in_git) {
    return std::string("into .git");
  }
  return std::nullopt;
}

}  // namespace reviewer::git
