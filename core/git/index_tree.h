#pragma once

// Internal to core/git (takes libgit2 types).

#include <git2.h>

namespace reviewer::git::detail {

// The id of the tree `git write-tree` would write for `index`, without writing or reading any
// object. False when the index holds something a tree cannot say as the HEAD comparison reads
// it: an unmerged entry, an empty path component, or a mode other than a regular file (either
// permission), a symlink or a submodule. Equal to HEAD's tree id, it proves what comparing each
// entry with HEAD's tree would: same paths, ids and modes.
bool index_tree_id(git_index* index, git_oid* out);

}  // namespace reviewer::git::detail
