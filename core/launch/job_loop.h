#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exec/log_sink.h"
#include "core/exec/step_runner.h"
#include "core/launch/fresh_worktree.h"
#include "core/launch/job_scratch.h"
#include "core/launch/worktree_guard.h"
#include "core/plan/plan.h"
#include "core/report/refusal.h"

namespace reviewer::deps {
class Provisioner;
}  // namespace reviewer::deps

namespace reviewer::launch {

// How a job or a step ended.
enum class RunStatus { kOk, kFailed, kNotRun };

// "ok", "failed", "not-run": the reports' words.
std::string_view to_string(RunStatus status);

struct StepReport {
  std::string job;
  std::uint32_t index = 0;
  std::string name;
  std::string action;
  std::string decision;  // "skip" or "run"
  RunStatus status = RunStatus::kNotRun;
  int exit_code = -1;
  double seconds = 0;
  std::string message;
  // The step's `if:` and what it was ("matrix.os == 'x' is false"); empty without one.
  std::string condition = {};
  // "3", or "3.2" for the second step of the local action the third step calls.
  std::string number = {};
};

struct JobReport {
  std::string id;
  RunStatus status = RunStatus::kNotRun;
  std::vector<std::string> killed;  // leftovers killed when the job ended
};

struct BuildOutcome {
  enum class Verdict { kOk, kFailed, kRefused };
  Verdict verdict = Verdict::kOk;
  std::string summary;  // for the final line: the failure or the refusal
  std::optional<report::Refusal> refusal;
  std::vector<JobReport> jobs;
  std::vector<StepReport> steps;
};

struct LoopContext {
  std::string workspace;    // the worktree every step runs in
  std::string review_root;  // a fresh directory for per-job HOME, TMPDIR, caches, step files
  std::vector<std::string> runtime_path;
  // Each job's package managers (deps/provision/provisioner.h); nullptr: none is provisioned.
  deps::Provisioner* provisioner = nullptr;
  // When set, every job after the first gets a fresh copy of the pristine clone as its worktree
  // (fresh_worktree.h); the launcher made the first job's before planning.
  const FreshWorktree* fresh_worktree = nullptr;
};

// Runs the plan's jobs in order with CI's gating: a job runs if every job it needs succeeded
// (or it says `if: always()`); within a job a step runs if nothing before it failed (or the plan
// marks it `always`). Each step goes to the plugin the plan names; its processes go to `runner`
// (the supervisor, or a fake in tests). Each job gets fresh directories and the worktree guard
// before it and after it; whatever a job leaves running is killed before the next starts, and
// what it left outside the worktree is cleared from `scratch` (failing that refuses the rest:
// cleanup-failed). The loop's own lines go to `log`.
BuildOutcome run_plan(const plan::Plan& plan, exec::StepRunner& runner, WorktreeGuard& guard,
                      JobScratch& scratch, exec::LogSink& log, const LoopContext& ctx);

// The guard's check before the first job (WorktreeGuard::check_first_job_ahead), made now with
// the HOME and fetch depth run_plan gives the plan's first job, so that run_plan's first
// before_job is answered at once. The launcher makes it while it waits for the runtimes.
void check_first_job_ahead(const plan::Plan& plan, WorktreeGuard& guard,
                           const std::string& review_root);

}  // namespace reviewer::launch
