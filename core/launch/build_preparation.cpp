#include "core/launch/build_preparation.h"

#include <algorithm>

#include "core/contract/view_layout.h"
#include "core/git/worktree_shape.h"
#include "core/launch/job_loop.h"
#include "core/launch/runtime_resolution.h"
#include "core/plan/planner.h"
#include "core/plan/repository_files.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::launch {

BuildPreparation::BuildPreparation(const std::string& workspace,
                                   const contract::Assignment& assignment,
                                   const plugins::Registry& plugins, const ImageInfo& image,
                                   const resolve::RuntimeTable& matrix,
                                   PendingRuntimeCheck& runtimes) {
  if (!open_worktree(workspace) || !check_shape(workspace) ||
      !make_plan(workspace, assignment, plugins)) {
    return;
  }
  // bun is on a step's PATH only after oven-sh/setup-bun, whose every accepted step pins it: it
  // is asked only once the plan is known to reach it.
  if (std::any_of(plan_->pins.begin(), plan_->pins.end(),
                  [](const plugins::RuntimePin& pin) { return pin.runtime == "bun"; })) {
    runtimes.also(only_runtime(image, "bun"));
  }
  if (!make_scratch() || !resolve_runtimes(workspace, image, matrix)) {
    return;
  }
  // The first job's worktree checks take about as long as the runtimes' answer: made while it
  // comes, with no step run yet. The job loop reports what they find, after a runtime mismatch.
  guard_.emplace(workspace);
  check_first_job_ahead(*plan_, *guard_, scratch_->build_dir());
}

// Every job's worktree is a fresh copy of the host's pristine clone when the host mounted one
// (fresh_worktree.h): the first copy is made before anything of the worktree is read.
bool BuildPreparation::open_worktree(const std::string& workspace) {
  auto fresh = FreshWorktree::open(contract::kPristineMount, workspace);
  if (fresh && *fresh) {
    if (auto copied = (*fresh)->refresh(); !copied) {
      fresh = copied.refusals();
    }
  }
  if (!fresh) {
    return stop(End::kNoWorktree, fresh.refusals());
  }
  fresh_ = std::move(*fresh);
  return true;
}

// Symlinked directories and lockfiles are refused before anything in the worktree is read, so
// not even the workflow file can be reached through a link out of it.
bool BuildPreparation::check_shape(const std::string& workspace) {
  if (auto shape = git::scan_worktree_shape(workspace); !shape) {
    return stop(End::kShapeRefused, shape.refusals());
  }
  return true;
}

bool BuildPreparation::make_plan(const std::string& workspace,
                                 const contract::Assignment& assignment,
                                 const plugins::Registry& plugins) {
  // Local actions are read from the same worktree, link by link, as hostile input.
  const plan::WorktreeFiles files(workspace);
  const plan::PlanRequest request = contract::plan_request(assignment, &files);
  // Read once, here: the excerpts under each refusal come from the same bytes the planner read.
  // Link by link, as GitHub reads it from the tree: a directory link on its path (which the
  // shape check accepts when it stays in the worktree) is not a workflow directory on CI.
  auto text = yaml::name_read_error(files.read(assignment.workflow, yaml::Bounds{}.max_bytes + 1),
                                    assignment.workflow);
  auto planned =
      text ? plan::plan_text(*text, request, plugins) : util::Result<plan::Plan>(text.refusals());
  if (text) {
    text_ = std::move(*text);
  }
  if (!planned) {
    return stop(End::kPlanRefused, planned.refusals());
  }
  plan_ = std::move(*planned);
  return true;
}

// Before any step runs: the baselines of the sandbox's writable tmpfs mounts, its POSIX shared
// memory and message queues (podman mounts both; the run model too) and its System V IPC
// objects, where a job could leave state for the next one.
bool BuildPreparation::make_scratch() {
  auto scratch = JobScratch::create("/tmp", {"/var/tmp", "/run", "/dev/shm", "/dev/mqueue"}, true);
  if (!scratch) {
    return stop(End::kNoScratch, scratch.refusals());
  }
  scratch_ = std::move(*scratch);
  return true;
}

bool BuildPreparation::resolve_runtimes(const std::string& workspace, const ImageInfo& image,
                                        const resolve::RuntimeTable& matrix) {
  if (auto r = check_runtime_resolution(workspace, *plan_, image, matrix); !r) {
    return stop(End::kUnresolved, r.refusals());
  }
  return true;
}

bool BuildPreparation::stop(End end, const report::Refusals& why) {
  end_ = end;
  why_ = why;
  return false;
}

}  // namespace reviewer::launch
