#pragma once

#include <map>
#include <string>

#include "core/util/result.h"

namespace reviewer::git {

// Walks the whole worktree, `.git` included, with openat/fstatat and AT_SYMLINK_NOFOLLOW: a
// symlink is never entered. A symlink named like a lockfile or a resolver declaration is a
// `symlinked-lockfile`; any other symlink whose target is a directory is a
// `symlinked-directory` when it is inside `.git` or leads out of the worktree or into `.git`
// (directory_link.h; the target's type, and resolving it beneath the worktree, is all that is
// done through the link). Bounded to
// 256 levels of directories; deeper is `worktree-unreadable`. Each refusal has the path relative
// to the worktree as location.
// When `lockfile_sha256` is given, the same walk fills it, refused or not: worktree-relative
// path -> lower-case hex SHA-256 of every lockfile outside `.git/` and `node_modules/`
// directories (a lockfile that is not a regular file maps to "not-a-regular-file").
util::Status scan_worktree_shape(const std::string& worktree,
                                 std::map<std::string, std::string>* lockfile_sha256 = nullptr);

}  // namespace reviewer::git
