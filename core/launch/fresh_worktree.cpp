#include "core/launch/fresh_worktree.h"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/util/tree_removal.h"

namespace reviewer::launch {
namespace {

// The clone is the host's, made by git: no deeper than this, as the removal's own bound.
constexpr int kMaxDepth = 256;

util::Refusal cannot(const std::string& shown, const std::string& what, int err) {
  return util::refusal("cleanup-failed", "cannot give the job a fresh worktree: '" + shown +
                                             "': " + what + ": " + std::strerror(err));
}

util::Status copy_file(int from_dir, int to_dir, const std::string& name, const struct stat& st,
                       const std::string& shown) {
  util::UniqueFd in(::openat(from_dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!in.valid()) {
    return cannot(shown, "open", errno);
  }
  util::UniqueFd out(::openat(to_dir, name.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                              st.st_mode & 07777));
  if (!out.valid()) {
    return cannot(shown, "create", errno);
  }
  for (off_t left = st.st_size; left > 0;) {
    const ssize_t n =
        ::copy_file_range(in.get(), nullptr, out.get(), nullptr, static_cast<std::size_t>(left), 0);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return cannot(shown, "copy", n < 0 ? errno : EIO);
    }
    left -= n;
  }
  // The mode again (the umask narrowed it) and the clone's modification time, as a checkout
  // leaves them, so git's index still matches the files.
  const timespec times[2] = {st.st_atim, st.st_mtim};
  if (::fchmod(out.get(), st.st_mode & 07777) != 0 || ::futimens(out.get(), times) != 0) {
    return cannot(shown, "set mode and times", errno);
  }
  return util::ok_status();
}

util::Status copy_tree(int from, int to, const std::string& shown, int depth) {
  if (depth > kMaxDepth) {
    return cannot(shown, "nested deeper than 256 directories", ELOOP);
  }
  auto names = util::list_directory(from, shown);
  if (!names) {
    return names.error();
  }
  for (const auto& name : *names) {
    const std::string path = shown + "/" + name;
    struct stat st {};
    if (::fstatat(from, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return cannot(path, "stat", errno);
    }
    if (S_ISREG(st.st_mode)) {
      if (auto copied = copy_file(from, to, name, st, path); !copied) {
        return copied;
      }
    } else if (S_ISLNK(st.st_mode)) {
      std::vector<char> target(static_cast<std::size_t>(st.st_size) + 1);
      const ssize_t n = ::readlinkat(from, name.c_str(), target.data(), target.size());
      if (n < 0 || static_cast<std::size_t>(n) >= target.size()) {
        return cannot(path, "read link", n < 0 ? errno : ENAMETOOLONG);
      }
      if (::symlinkat(std::string(target.data(), static_cast<std::size_t>(n)).c_str(), to,
                      name.c_str()) != 0) {
        return cannot(path, "make link", errno);
      }
    } else if (S_ISDIR(st.st_mode)) {
      if (::mkdirat(to, name.c_str(), 0700) != 0) {
        return cannot(path, "make directory", errno);
      }
      util::UniqueFd sub_from = util::open_directory(from, name.c_str());
      util::UniqueFd sub_to = util::open_directory(to, name.c_str());
      if (!sub_from.valid() || !sub_to.valid()) {
        return cannot(path, "open directory", errno);
      }
      if (auto copied = copy_tree(sub_from.get(), sub_to.get(), path, depth + 1); !copied) {
        return copied;
      }
      // After its entries, which change a directory's times.
      const timespec times[2] = {st.st_atim, st.st_mtim};
      if (::fchmod(sub_to.get(), st.st_mode & 07777) != 0 || ::futimens(sub_to.get(), times) != 0) {
        return cannot(path, "set mode and times", errno);
      }
    } else {
      return cannot(path, "not a file, directory or link in the clone", EINVAL);
    }
  }
  return util::ok_status();
}

}  // namespace

util::Result<std::optional<FreshWorktree>> FreshWorktree::open(const std::string& pristine,
                                                               const std::string& worktree) {
  util::UniqueFd from = util::open_directory(AT_FDCWD, pristine.c_str());
  if (!from.valid()) {
    if (errno == ENOENT) {
      return std::optional<FreshWorktree>();
    }
    return cannot(pristine, "open", errno);
  }
  util::UniqueFd to = util::open_directory(AT_FDCWD, worktree.c_str());
  if (!to.valid()) {
    return cannot(worktree, "open", errno);
  }
  return std::optional<FreshWorktree>(FreshWorktree(std::move(from), std::move(to), worktree));
}

util::Status FreshWorktree::refresh() const {
  auto names = util::list_directory(worktree_.get(), worktree_path_);
  if (!names) {
    return names.error();
  }
  for (const auto& name : *names) {
    if (auto removed = util::remove_entry(worktree_.get(), name, worktree_path_ + "/" + name);
        !removed) {
      return removed;
    }
  }
  return copy_tree(pristine_.get(), worktree_.get(), worktree_path_, 0);
}

}  // namespace reviewer::launch
