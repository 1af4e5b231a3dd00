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
  // Symlinked lockfiles and directories, lockfile content changes; every refusal found.
  virtual util::Status after_job() = 0;
  virtual std::optional<plugins::HistoryShape> history_shape() = 0;
};

}  // namespace reviewer::launch
