#pragma once

#include <map>
#include <string>

#include "core/report/refusal.h"

namespace reviewer::git {

// What one walk of the worktree found.
struct ShapeScan {
  // `symlinked-lockfile`, `symlinked-directory` and `worktree-unreadable` refusals, with the path
  // relative to the worktree as location.
  report::Refusals refusals;
  // Worktree-relative path -> lower-case hex SHA-256 of every lockfile outside `.git/` and
  // `node_modules/` directories (filled only when asked). A lockfile that is not a regular file
  // maps to "not-a-regular-file".
  std::map<std::string, std::string> lockfile_sha256;
};

// Walks the whole worktree, `.git` included, with openat/fstatat and AT_SYMLINK_NOFOLLOW: a
// symlink is never entered. A symlink named like a lockfile or a resolver declaration is a
// `symlinked-lockfile`; any other symlink whose target is a directory is a
// `symlinked-directory` (the target's type is the only thing read through the link). Bounded to
// 256 levels of directories; deeper is `worktree-unreadable`.
ShapeScan scan_worktree_shape(const std::string& worktree, bool hash_lockfiles);

}  // namespace reviewer::git
