#pragma once

// Internal to core/git (takes libgit2 types).

#include "core/git/index_entries.h"

namespace reviewer::git::detail {

// The id of the tree `git write-tree` would write for `index`, without writing or reading any
// object. False when the index holds something a tree cannot say as the HEAD comparison reads
// it: an unmerged entry, an empty path component, or a mode other than a regular file (either
// permission), a symlink or a submodule. Equal to HEAD's tree id, it proves what comparing each
// entry with HEAD's tree would: same paths, ids and modes.
bool index_tree_id(const IndexEntries& index, git_oid* out);

}  // namespace reviewer::git::detail
