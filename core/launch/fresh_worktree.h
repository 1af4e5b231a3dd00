#pragma once

#include <optional>
#include <string>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {

// On GitHub every job starts on a fresh runner with a fresh checkout. The jobs of a needs closure
// share one sandbox here, so a job could hand the next state through anything a worktree holds:
// files in `.git/`, extended attributes, modification times (17 bytes in the nanoseconds of
// tracked files' mtimes were read back by the next job). Rather than close that family case by
// case, each job gets a new copy of the host's pristine clone: the worktree is emptied and the
// clone copied into it, directories, regular files (content, permission bits, modification
// times) and symbolic links, never following a link. The worktree guards still check every job
// as a second line.
class FreshWorktree {
 public:
  // The pristine clone at `pristine` and the worktree at `worktree`; nullopt when the host
  // mounted no pristine clone (a launcher run by hand, a run model given the clone itself as its
  // worktree), and then the jobs share the worktree as before. `cleanup-failed` when either
  // cannot be opened as a directory.
  static util::Result<std::optional<FreshWorktree>> open(const std::string& pristine,
                                                         const std::string& worktree);

  // Makes the worktree a new copy of the pristine clone. `cleanup-failed` naming the path that
  // could not be removed or copied (an entry of the clone that is none of the three kinds, too).
  util::Status refresh() const;

 private:
  FreshWorktree(util::UniqueFd pristine, util::UniqueFd worktree, std::string worktree_path)
      : pristine_(std::move(pristine)),
        worktree_(std::move(worktree)),
        worktree_path_(std::move(worktree_path)) {}

  util::UniqueFd pristine_;
  util::UniqueFd worktree_;
  std::string worktree_path_;
};

}  // namespace reviewer::launch
