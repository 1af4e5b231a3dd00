#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/expr/evaluator.h"
#include "core/expr/value.h"
#include "core/plan/plan.h"

namespace reviewer::launch {

// What one finished step gives later expressions (`steps.<id>`).
struct StepRecord {
  std::string outcome;     // success, failure, skipped (before continue-on-error)
  std::string conclusion;  // the same, except a tolerated failure is success
  std::vector<workflow::Entry> outputs;
  // The remote action a plugin stood in for ("actions/setup-node"), empty for `run:` and local
  // actions: its outputs are only those the plugin wrote (a closed object, expr/value.h).
  std::string plugin_action;
};

// What one finished job gives the jobs that need it (`needs.<id>`).
struct JobRecord {
  std::string result;  // success, failure, skipped, cancelled
  std::vector<workflow::Entry> outputs;
};

// The status functions and hashFiles as the runner answers them where an expression stands:
// for a step, success() is "no earlier step of the job failed"; for a job, "every job it
// depends on succeeded".
class StatusRuntime final : public expr::Runtime {
 public:
  StatusRuntime(bool success, bool failure, bool cancelled, std::string workspace)
      : success_(success),
        failure_(failure),
        cancelled_(cancelled),
        workspace_(std::move(workspace)) {}
  util::Result<expr::Value> call(const std::string& name,
                                 const std::vector<expr::Value>& args) override;

 private:
  bool success_;
  bool failure_;
  bool cancelled_;
  std::string workspace_;
};

// The contexts a job's `if:` reads: the plan's, with `needs` of its direct needs.
expr::Object job_condition_contexts(const plan::PlannedJob& job,
                                    const std::map<std::string, JobRecord>& finished);

// The contexts a step's values read: the plan's, with `needs`, `steps` (every earlier step with
// an id), `job.status`, `env` (workflow, job, what earlier steps wrote to GITHUB_ENV, then
// `step_env`) and `runner.temp`.
struct StepScene {
  const plan::PlannedJob& job;
  const std::map<std::string, JobRecord>& finished;
  const std::map<std::string, StepRecord>& steps;
  const std::vector<workflow::Entry>& github_env;
  bool job_failed = false;  // inside a composite action: a step of the action failed
  std::string runner_temp;
  // Inside a local composite action: its contexts (`inputs`, `github.action_path`) in place of
  // the job's, and the env of the steps that called it (outermost first), below the step's own.
  const expr::Object* contexts = nullptr;
  const std::vector<workflow::Entry>* caller_env = nullptr;
};
expr::Object step_contexts(const StepScene& scene, const std::vector<workflow::Entry>& step_env);

}  // namespace reviewer::launch
