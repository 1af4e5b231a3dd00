#pragma once

// Internal to core/git (takes libgit2 types).

#include "core/git/index_entries.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// One `git-index-flags` refusal per index entry carrying the assume-unchanged (VALID) bit or the
// skip-worktree extended bit: git status would not look at those worktree files.
util::Status check_index_flags(const IndexEntries& index);

}  // namespace reviewer::git::detail
