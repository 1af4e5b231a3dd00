#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/git/git_dir_pin.h"
#include "core/git/tracked_xattrs.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

// The launcher's git and worktree guards (docs/git-guards.md). Everything here reads the
// repository through libgit2 and the worktree through *at syscalls: the git program is never
// run, no configured driver, hook or fsmonitor is ever executed, and no symlink is followed.
namespace reviewer::git {

// The shape of the history reachable from HEAD.
struct HistoryShape {
  bool shallow = false;
  std::int64_t commit_count = 0;  // commits reachable from HEAD, stopping at shallow roots
  std::int64_t tag_count = 0;     // references under refs/tags/
};

// What the first job saw; later jobs must see the same.
struct Baseline {
  std::string head;      // the commit HEAD resolves to (hex)
  std::string head_ref;  // what HEAD points at ("refs/heads/main"), empty when detached
  // Remote name -> url values (several values joined by '\n'), read from the configuration
  // as written (url.*.insteadOf is never applied).
  std::map<std::string, std::string> remote_urls;
  std::map<std::string, std::vector<std::string>> remote_fetch;  // remote name -> refspecs
  std::map<std::string, std::string> lockfile_sha256;  // worktree-relative path -> sha256 hex
  // When the baseline was pinned (CLOCK_REALTIME_COARSE, ns): a tracked file whose ctime is at
  // or after this is compared byte for byte, so a rewritten index cannot hide a change.
  std::int64_t pinned_at_ns = 0;
  detail::GitDirPin git_dir;  // info/ and every path below the git directory
  detail::XattrPin xattrs;    // user extended attributes of tracked paths (none in a clone)
  detail::SettledInodes xattr_inodes;  // which inodes those were read from
};

// Pins HEAD, remotes and lockfile hashes at the first job. `home` is the job's fresh HOME (the
// only place global and XDG configuration is read from). Fails when the repository cannot be
// opened or HEAD cannot be resolved.
util::Result<Baseline> pin_baseline(const std::string& worktree, const std::string& home);

// Every pre-job check: redirects of the common directory or object store (when there are any,
// only these and the worktree shape are reported: nothing else would describe the clone), the
// configuration baseline (with the job's fresh `home`), hooks, index flags, clean-clone status,
// HEAD and remotes against `baseline`, history shape for `fetch_depth` (1 or 0) and worktree
// shape. Ok when the worktree may be built.
util::Status check_before_job(const std::string& worktree, const std::string& home,
                              const Baseline& baseline, int fetch_depth);

// The clean-clone part of check_before_job alone: redirects (which stop it), index flags,
// status (untracked, ignored, modified paths), HEAD and remotes against `baseline`. What the
// benchmark times.
util::Status check_clean_clone(const std::string& worktree, const std::string& home,
                               const Baseline& baseline);

// After a job: symlinked lockfiles and directories, and lockfile content changes against
// `baseline` (changed or deleted lockfiles; hashed without following links). A lockfile the job
// created is not one: it is untracked, and remove_created_paths removes it before the next job.
util::Status check_after_job(const std::string& worktree, const Baseline& baseline);

// Removes untracked and ignored paths (everything on disk the index does not track, `.git`
// aside). Never follows links, never touches tracked files; fails when the index cannot be read
// or a path cannot be removed.
util::Status remove_created_paths(const std::string& worktree);

// The history shape of the repository at `worktree` (counts every reachable commit).
util::Result<HistoryShape> history_shape(const std::string& worktree);

}  // namespace reviewer::git
