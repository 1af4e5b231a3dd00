#pragma once

// Internal to core/git (takes libgit2 types).

#include <string>

#include "core/git/git_handles.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// `history-shape` refusals for every ref under `refs/replace/`, one per ref name (the first 20,
// the rest counted), located at its loose file or at `packed-refs`. Loose entries are found by
// walking `<worktree>/.git/refs/replace` without following links, so an entry of any type
// counts (a symlink, bytes no reader can parse); packed ones, and any behind a symlinked
// directory, through libgit2's reference iterator. A `refs/replace` that is not a real
// directory is refused itself. An empty `refs/replace` directory is accepted.
util::Status check_replace_refs(git_repository* repo, const std::string& worktree);

}  // namespace reviewer::git::detail
