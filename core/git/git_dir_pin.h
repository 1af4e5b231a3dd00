#pragma once

// Internal to core/git.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// What the first job saw of the clone's git directory beyond HEAD, config, remotes and hooks
// (pinned elsewhere): every entry of `info/` with its content's SHA-256 (a non-regular entry
// by its kind), and the path of every entry below the git directory (at most kMaxGitDirEntries,
// 32 levels deep).
struct GitDirPin {
  std::map<std::string, std::string> info;
  std::set<std::string> entries;        // "objects/pack/x.pack"; a directory's own path included
  std::vector<std::string> unreadable;  // directories below the git directory it cannot list
  bool truncated = false;               // more entries, or deeper, than the walk takes
};

inline constexpr std::size_t kMaxGitDirEntries = 200000;

// Reads the pin without following a link or blocking on a FIFO.
GitDirPin pin_git_dir(const std::string& worktree);

// `git-dir-changed` for each entry of `info/` created, changed or removed since `pin` (git reads
// info/attributes for checkout and status, info/exclude for status: a job could make the next
// job's tracked files look clean), and for each new path anywhere below the git directory but
// objects/ (a new directory stands for what it holds), except those git writes that only name
// commits (FETCH_HEAD, ORIG_HEAD, COMMIT_EDITMSG) and those a more specific guard judges
// (config.worktree, commondir, gitdir, shallow, packed-refs, info/grafts, hooks/,
// refs/replace/). A new file deep inside (`logs/x`, a loose object, `refs/stash`) is state one
// job hands the next; on GitHub the next job gets a fresh clone. A directory that cannot be
// listed, or a git directory larger than the walk takes, is refused too.
util::Status check_git_dir(const std::string& worktree, const GitDirPin& pin);

// `git-dir-changed` for each new path under objects/ (a loose object, a pack) since `pin`. An
// object nothing refers to still hands state to the next job, which can list objects/. Every
// change that refers to new objects (HEAD, a ref, a replace ref, the index) has its own rule and
// is reported by it; callers ask for this only when nothing else was refused, so the report
// names the cause rather than its objects.
util::Status check_git_objects(const std::string& worktree, const GitDirPin& pin);

// The path (".git/info/attributes") of a FIFO, socket or device anywhere below the git
// directory, or empty: libgit2 would block on or misread it, so no guard lets it open the
// repository then.
std::string special_file(const std::string& worktree);

}  // namespace reviewer::git::detail
