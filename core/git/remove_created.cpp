// remove_created_paths (declared in guards.h): deletes what earlier jobs left in the worktree.

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string_view>

#include "core/git/guards.h"
#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/git/worktree_status.h"
#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

constexpr int kMaxDepth = 256;
constexpr std::string_view kRuleCleanup = kRuleCleanupFailed;

util::Error cleanup_error(const std::string& path, const std::string& what) {
  return util::make_error(std::string(kRuleCleanup),
                          "cannot remove '" + path + "': " + what + ": " + std::strerror(errno));
}

util::UniqueFd open_dir_at(int parent, const char* name) {
  return util::UniqueFd(::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// unlinkat, retrying once after making the parent writable (a job may chmod its own output).
int unlink_in(int dir_fd, const char* name, int flags) {
  if (::unlinkat(dir_fd, name, flags) == 0) {
    return 0;
  }
  if (errno != EACCES && errno != EPERM) {
    return -1;
  }
  if (::fchmod(dir_fd, 0700) != 0) {
    return -1;
  }
  return ::unlinkat(dir_fd, name, flags);
}

util::Status remove_tree(int parent, const char* name, const std::string& rel, int depth) {
  if (depth > kMaxDepth) {
    errno = ELOOP;
    return cleanup_error(rel, "nested too deep");
  }
  util::UniqueFd fd = open_dir_at(parent, name);
  if (!fd.valid() && (errno == EACCES) && ::fchmodat(parent, name, 0700, 0) == 0) {
    fd = open_dir_at(parent, name);
  }
  if (!fd.valid()) {
    return cleanup_error(rel, "open");
  }
  ::fchmod(fd.get(), 0700);  // best effort: a job may have made its directory read-only
  DIR* dir = ::fdopendir(fd.get());
  if (dir == nullptr) {
    return cleanup_error(rel, "list");
  }
  const int dir_fd = fd.release();
  struct DirCloser {
    DIR* d;
    ~DirCloser() { ::closedir(d); }
  } closer{dir};
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view n = e->d_name;
    if (n == "." || n == "..") {
      continue;
    }
    const std::string child = rel + "/" + std::string(n);
    struct stat st {};
    if (::fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return cleanup_error(child, "inspect");
    }
    if (S_ISDIR(st.st_mode)) {
      if (auto s = remove_tree(dir_fd, e->d_name, child, depth + 1); !s) {
        return s;
      }
    } else if (unlink_in(dir_fd, e->d_name, 0) != 0) {
      return cleanup_error(child, "unlink");
    }
  }
  if (unlink_in(parent, name, AT_REMOVEDIR) != 0) {
    return cleanup_error(rel, "rmdir");
  }
  return util::ok_status();
}

// Removes worktree-relative `rel` (a trailing '/' marks a directory), walking its parents
// without following links.
util::Status remove_one(int root_fd, std::string rel) {
  if (!rel.empty() && rel.back() == '/') {
    rel.pop_back();
  }
  util::UniqueFd parent(::dup(root_fd));
  size_t start = 0;
  for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', start)) {
    const std::string part = rel.substr(start, slash - start);
    util::UniqueFd next = open_dir_at(parent.get(), part.c_str());
    if (!next.valid()) {
      return cleanup_error(rel, "open parent '" + part + "'");
    }
    parent = std::move(next);
    start = slash + 1;
  }
  const std::string name = rel.substr(start);
  struct stat st {};
  if (::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) {
      return util::ok_status();
    }
    return cleanup_error(rel, "inspect");
  }
  if (S_ISDIR(st.st_mode)) {
    return remove_tree(parent.get(), name.c_str(), rel, 0);
  }
  if (unlink_in(parent.get(), name.c_str(), 0) != 0) {
    return cleanup_error(rel, "unlink");
  }
  return util::ok_status();
}

}  // namespace

util::Status remove_created_paths(const std::string& worktree) {
  auto repo = detail::open_worktree(worktree, "");
  if (!repo) {
    return repo.error();
  }
  git_index* raw = nullptr;
  if (git_repository_index(&raw, repo->get()) != 0) {
    return detail::last_error(kRuleCleanup, "cannot read the index");
  }
  detail::IndexPtr index(raw);
  // Contents are never compared here (only existence matters), hence the far-future pin.
  auto status = detail::worktree_status(repo->get(), index.get(), worktree,
                                        std::numeric_limits<std::int64_t>::max());
  if (!status) {
    return status.error();
  }
  util::UniqueFd root(::open(worktree.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!root.valid()) {
    return cleanup_error(worktree, "open");
  }
  for (const auto& rel : status->created) {
    if (auto s = remove_one(root.get(), rel); !s) {
      return s;
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::git
