#pragma once

#include <optional>
#include <string>

#include "core/contract/assignment.h"
#include "core/launch/fresh_worktree.h"
#include "core/launch/git_worktree_guard.h"
#include "core/launch/image_info.h"
#include "core/launch/job_scratch.h"
#include "core/plan/plan.h"
#include "core/plugins/registry.h"
#include "core/report/refusal.h"
#include "core/resolve/runtime_table.h"

namespace reviewer::launch {

// What a build makes before its first step, in this order: the first job's fresh worktree, the
// worktree's shape check, the plan (read from the worktree as hostile input), the job scratch with
// its baselines, the runtime resolution, and the worktree guard with the first job's checks made
// ahead. Made while the runtimes answer (image_info.h); it prints nothing and waits for nothing,
// so the launcher can say a runtime mismatch before whatever ended the build here.
class BuildPreparation {
 public:
  // Where the build ended before any step, if it did; each is said its own way (launcher.cpp).
  enum class End {
    kNone,          // every part is made: the build may start
    kNoWorktree,    // the fresh worktree could not be made (the launcher's own failure)
    kShapeRefused,  // a symlinked directory or lockfile in the worktree
    kPlanRefused,   // the workflow could not be read, or its plan was refused
    kNoScratch,     // the job scratch could not be made (the launcher's own failure)
    kUnresolved,    // the worktree's runtime declarations refused against this image
  };

  // Prepares the build of `assignment` in `workspace`, stopping at the first part that ends it.
  // Each step's plugin comes from `plugins`; `runtimes` is asked about bun too once the plan is
  // known to reach it.
  BuildPreparation(const std::string& workspace, const contract::Assignment& assignment,
                   const plugins::Registry& plugins, const ImageInfo& image,
                   const resolve::RuntimeTable& matrix, PendingRuntimeCheck& runtimes);
  BuildPreparation(const BuildPreparation&) = delete;
  BuildPreparation& operator=(const BuildPreparation&) = delete;

  // Where the build ended; kNone when it may start.
  End end() const { return end_; }
  // Why the build ended; empty when it did not.
  const report::Refusals& why() const { return why_; }
  // The workflow's bytes as the planner read them; empty when they could not be read.
  const std::string& workflow_text() const { return text_; }
  // The plan; set unless the build ended at kPlanRefused or before.
  const plan::Plan& plan() const { return *plan_; }
  // The job scratch; set unless the build ended at kNoScratch or before.
  JobScratch& scratch() { return *scratch_; }
  // The worktree guard, its first job's checks made; set when end() is kNone.
  GitWorktreeGuard& guard() { return *guard_; }
  // The first job's fresh worktree; nullptr when the host mounted no pristine clone.
  const FreshWorktree* fresh_worktree() const { return fresh_ ? &*fresh_ : nullptr; }

 private:
  bool open_worktree(const std::string& workspace);
  bool check_shape(const std::string& workspace);
  bool make_plan(const std::string& workspace, const contract::Assignment& assignment,
                 const plugins::Registry& plugins);
  bool make_scratch();
  bool resolve_runtimes(const std::string& workspace, const ImageInfo& image,
                        const resolve::RuntimeTable& matrix);
  // Records why the build ends; false, for the caller to return.
  bool stop(End end, const report::Refusals& why);

  End end_ = End::kNone;
  report::Refusals why_;
  std::optional<FreshWorktree> fresh_;
  std::string text_;
  std::optional<plan::Plan> plan_;
  std::optional<JobScratch> scratch_;
  std::optional<GitWorktreeGuard> guard_;
};

}  // namespace reviewer::launch
