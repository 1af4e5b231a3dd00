#pragma once

// Internal to core/git (takes libgit2 types).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/git/git_handles.h"

namespace reviewer::git::detail {

// The entries of an index file, read without libgit2: its reader hashes the whole file with
// SHA-1DC, allocates and validates every entry and fills a hash map before the first one can be
// used, which was a third of the clean-clone check on 100,000 files (issue 15).
// Entries' paths point into `bytes` (v2, v3) or `v4_paths`, which moving this never moves.
struct ParsedIndex {
  std::unique_ptr<const std::string> bytes;  // the file
  std::unique_ptr<std::string> v4_paths;     // v4 paths, each NUL-terminated
  std::vector<git_index_entry> entries;
};

// The index libgit2 1.5's `git_index_read` builds from `bytes`, entry for entry and in its order,
// or nullopt whenever this reader cannot be sure it is: a file libgit2 refuses (bad header,
// truncated entry, checksum mismatch, invalid path, mandatory extension, corrupt TREE) and
// anything it accepts that this reader does not model (an optional extension other than TREE,
// a path component that git's HFS or NTFS protection could reject). The caller then asks
// libgit2, so every verdict stays libgit2's.
std::optional<ParsedIndex> parse_index_file(std::string bytes);

}  // namespace reviewer::git::detail
