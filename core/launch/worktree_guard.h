#pragma once

#include <optional>
#include <string>

#include "core/plugins/invoke.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::launch {

// The git and worktree checks around each job, behind an interface so the job loop can be
// tested without repositories; the launcher uses the libgit2 implementation (core/git).
class WorktreeGuard {
 public:
  virtual ~WorktreeGuard() = default;
  // Removes what earlier jobs created, then runs every pre-job check with the job's fresh HOME;
  // every refusal found.
  virtual util::Status before_job(const std::string& home, int fetch_depth, bool first) = 0;
  // The first job's before_job, made ahead of its turn; the first before_job with the same HOME
  // and fetch depth is then answered from it. Only for a caller that knows nothing can change
  // the worktree in between: the launcher asks before any step has run. None by default.
  virtual void check_first_job_ahead(const std::string& /*home*/, int /*fetch_depth*/) {}
  // Symlinked lockfiles and directories, lockfile content changes; every refusal found.
  virtual util::Status after_job() = 0;
  virtual std::optional<plugins::HistoryShape> history_shape() = 0;
};

}  // namespace reviewer::launch
