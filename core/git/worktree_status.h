#pragma once

// Internal to core/git (takes libgit2 types).

#include <cstdint>
#include <string>
#include <vector>

#include "core/git/index_entries.h"
#include "core/git/repository.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// One path that differs from a clean checkout of HEAD.
struct PathChange {
  std::string path;  // relative to the worktree; a directory ends in '/'
  std::string what;  // "modified", "deleted", "type changed", "mode changed", ...
};

struct WorktreeStatus {
  // Tracked paths whose index entry differs from HEAD's tree (replace refs are never consulted)
  // or whose worktree file differs from what checkout writes for the index entry.
  std::vector<PathChange> changed;
  // Paths on disk that the index does not track (untracked or ignored alike), outermost only:
  // an untracked directory is one entry ending in '/', its contents are not listed.
  std::vector<std::string> created;
  // The worktree's device, and by index position the inode of each tracked path on it whose
  // ctime is before `content_check_after_ns` (0 for any other): tracked_xattrs_since takes the
  // pinned attributes of these.
  std::uint64_t dev = 0;
  std::vector<std::uint64_t> settled_inos;
};

// The clean-clone status of `worktree`, computed without running anything: HEAD's tree against
// the index, then one walk of the worktree (openat/fstatat, never following links, `.git` at the
// root skipped) against the index. A tracked file is read only when its stat data differs from
// the index, when it is racily clean, or when its ctime is at or after `content_check_after_ns`
// (nanoseconds since the epoch; the baseline's pin time, so a file rewritten since the first job
// is always compared byte for byte with the checkout output, whatever the index claims).
util::Result<WorktreeStatus> worktree_status(git_repository* repo, const IndexEntries& index,
                                             const std::string& worktree,
                                             std::int64_t content_check_after_ns);

}  // namespace reviewer::git::detail
