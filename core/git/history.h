#pragma once

// Internal to core/git (takes libgit2 types).

#include <cstdint>
#include <string>

#include "core/git/git_handles.h"
#include "core/git/guards.h"
#include "core/report/refusal.h"

namespace reviewer::git::detail {

// The history shape of `repo`, counting commits reachable from HEAD up to `max_commits` (the
// walk stops at the shallow roots listed in $GIT_DIR/shallow, whose parents a shallow clone
// lacks; libgit2 1.5 does not graft them itself).
util::Result<HistoryShape> read_history_shape(git_repository* repo, const std::string& worktree,
                                              std::int64_t max_commits);

// `history-shape` refusals: depth 1 wants a shallow history of exactly one commit and no tags,
// depth 0 a full (not shallow) history; any other depth is refused. At any depth, a
// `$GIT_DIR/info/grafts` entry and every ref under `refs/replace/` are refused (git would rewrite
// parents or objects by them; see check_replace_refs).
util::Status check_history_shape(git_repository* repo, const std::string& worktree,
                                 int fetch_depth);

}  // namespace reviewer::git::detail
