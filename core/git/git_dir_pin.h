#pragma once

// Internal to core/git.

#include <map>
#include <set>
#include <string>

#include "core/report/refusal.h"

namespace reviewer::git::detail {

// What the first job saw of the clone's git directory beyond HEAD, config, remotes and hooks
// (pinned elsewhere): every entry of `info/` with its content's SHA-256 (a non-regular entry
// by its kind), and the names at the top of the git directory.
struct GitDirPin {
  std::map<std::string, std::string> info;
  std::set<std::string> top_level;
};

// Reads the pin without following a link or blocking on a FIFO.
GitDirPin pin_git_dir(const std::string& worktree);

// `git-dir-changed` for each entry of `info/` created, changed or removed since `pin` (git reads
// info/attributes for checkout and status, info/exclude for status: a job could make the next
// job's tracked files look clean), and for each new top-level name, except those git writes
// that only name commits (FETCH_HEAD, ORIG_HEAD, COMMIT_EDITMSG) and those a more specific
// guard judges (config.worktree, commondir, gitdir, shallow, packed-refs, info/grafts). On
// GitHub the next job gets a fresh clone.
report::Refusals check_git_dir(const std::string& worktree, const GitDirPin& pin);

// The path (".git/info/attributes") of a FIFO, socket or device at the top of the git directory
// or in info/, or empty: libgit2 would block on or misread it, so no guard lets it open the
// repository then.
std::string special_file(const std::string& worktree);

}  // namespace reviewer::git::detail
