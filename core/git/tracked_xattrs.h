#pragma once

// Internal to core/git. guards.h holds the pin, so libgit2's index is only declared here, not
// included: nothing outside core/git sees libgit2's headers.

#include <map>
#include <string>

#include "core/report/refusal.h"
#include "core/util/result.h"

struct git_index;

namespace reviewer::git::detail {

// The user extended attributes (`user.*`) of every tracked path: path -> name -> SHA-256 of the
// value. Paths without any are left out. Read through the parent directory's descriptor (opened
// without following links) and /proc/self/fd, never following the entry itself nor opening it,
// so a FIFO cannot block the read. Git carries no extended attributes, so a clone has none that
// git wrote; a job that sets one hands state to the next.
using XattrPin = std::map<std::string, std::map<std::string, std::string>>;
XattrPin tracked_xattrs(git_index* index, const std::string& worktree);

// `tracked-xattr` for each user extended attribute of a tracked path set, changed or removed
// since `pin` (the first job's).
util::Status compare_xattrs(const XattrPin& now, const XattrPin& pin);

}  // namespace reviewer::git::detail
