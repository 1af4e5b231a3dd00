#include "core/git/worktree_shape.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "core/git/directory_link.h"
#include "core/git/lockfiles.h"
#include "core/git/rules.h"
#include "core/report/refusal.h"
#include "core/util/sha256.h"
#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

constexpr int kMaxDepth = 256;

class ShapeWalker {
 public:
  ShapeWalker(std::string root, std::map<std::string, std::string>* hashes)
      : root_(std::move(root)), hashes_(hashes) {}

  util::Status run() {
    util::UniqueFd fd(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) {
      refuse(
          kRuleWorktreeUnreadable, root_,
          std::string("cannot open the worktree without following links: ") + std::strerror(errno));
      return util::status_of(std::move(refusals_));
    }
    root_fd_ = util::UniqueFd(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0));
    walk(std::move(fd), "", 0, false);
    return util::status_of(std::move(refusals_));
  }

 private:
  void refuse(std::string_view rule, const std::string& where, std::string message) {
    refusals_.push_back({std::string(rule), std::move(message), util::SourceLocation{where, 0, 0}});
  }

  void symlink_found(int dir_fd, const char* name, const std::string& rel) {
    if (is_pinned_input_name(name)) {
      refuse(kRuleSymlinkedLockfile, rel,
             "'" + rel +
                 "' is a symlink; lockfiles and version declarations must be regular files "
                 "inside the worktree");
      return;
    }
    struct stat target {};
    // The type of the target is all that is read through the link.
    if (::fstatat(dir_fd, name, &target, 0) != 0 || !S_ISDIR(target.st_mode)) {
      return;
    }
    if (rel == ".git" || rel.starts_with(".git/")) {
      refuse(kRuleSymlinkedDirectory, rel,
             "'" + rel + "' is a symlink to a directory; .git may hold no directory symlinks");
      return;
    }
    if (auto escape = directory_link_escape(root_fd_.get(), rel)) {
      refuse(kRuleSymlinkedDirectory, rel,
             "'" + rel + "' is a symlink to a directory " + *escape +
                 "; a directory symlink must lead to a directory of the worktree outside .git");
    }
  }

  void lockfile_found(int dir_fd, const char* name, const std::string& rel) {
    struct stat st {};
    if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
      (*hashes_)[rel] = "not-a-regular-file";
      return;
    }
    auto digest = util::sha256_file(root_ + "/" + rel);
    (*hashes_)[rel] = digest ? *digest : "unreadable";
  }

  // `rel` is "" for the root or "a/b/" for a subdirectory.
  void walk(util::UniqueFd fd, const std::string& rel, int depth, bool skip_hash) {
    if (depth > kMaxDepth) {
      refuse(kRuleWorktreeUnreadable, rel,
             "'" + rel + "' is nested deeper than " + std::to_string(kMaxDepth) + " directories");
      return;
    }
    const int dir_fd = fd.get();
    DIR* dir = ::fdopendir(dir_fd);
    if (dir == nullptr) {
      refuse(kRuleWorktreeUnreadable, rel.empty() ? "." : rel,
             std::string("cannot list directory: ") + std::strerror(errno));
      return;
    }
    fd.release();
    while (const dirent* e = ::readdir(dir)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == "..") {
        continue;
      }
      const std::string child = rel + std::string(name);
      unsigned char type = e->d_type;
      if (type == DT_UNKNOWN) {
        struct stat st {};
        if (::fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
          continue;
        }
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
      }
      if (type == DT_LNK) {
        symlink_found(dir_fd, e->d_name, child);
      } else if (type == DT_DIR) {
        util::UniqueFd sub(
            ::openat(dir_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!sub.valid()) {
          refuse(kRuleWorktreeUnreadable, child,
                 std::string("cannot open directory without following links: ") +
                     std::strerror(errno));
          continue;
        }
        const bool skip = skip_hash || (depth == 0 && name == ".git") || name == "node_modules";
        walk(std::move(sub), child + "/", depth + 1, skip);
      } else if (hashes_ != nullptr && !skip_hash && is_lockfile_name(name)) {
        lockfile_found(dir_fd, e->d_name, child);
      }
    }
    ::closedir(dir);
  }

  std::string root_;
  util::UniqueFd root_fd_;  // the worktree, for resolving directory links beneath it
  std::map<std::string, std::string>* hashes_;  // nullptr: not asked for
  report::Refusals refusals_;
};

}  // namespace

util::Status scan_worktree_shape(const std::string& worktree,
                                 std::map<std::string, std::string>* lockfile_sha256) {
  return ShapeWalker(worktree, lockfile_sha256).run();
}

}  // namespace reviewer::git
