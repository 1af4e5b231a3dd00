#pragma once

#include <string>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git {

// `git-redirect` refusals for entries in `<worktree>/.git` that make git or libgit2 read the
// common directory or objects from outside the clone: a `commondir` entry; an `objects` or
// `objects/info` that is a symlink or not a directory; an `alternates` or `http-alternates`
// entry in `objects/info`. An entry of any type counts (a symlink too); contents are never read.
// Looks only through openat/fstatat relative to the `.git` descriptor and never follows a link.
// A `.git` that is missing or not a real directory yields nothing here: opening the repository
// refuses it as `git-repository`.
util::Status check_redirects(const std::string& worktree);

}  // namespace reviewer::git
