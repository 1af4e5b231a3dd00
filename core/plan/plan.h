#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expr/value.h"
#include "core/plan/expression_fields.h"
#include "core/plugins/invoke.h"
#include "core/resolve/declarations.h"
#include "core/workflow/model.h"

namespace reviewer::plan {

inline constexpr std::int64_t kDefaultJobTimeoutMinutes = 360;

struct LocalAction;
struct CalledWorkflow;

struct PlannedStep {
  workflow::Step step;  // with the job's and workflow's `defaults.run` applied to run steps
  // The plugin that planned the step and will execute it: libraries are never unloaded, so the
  // pointer stays valid for the process's life and the launcher never looks it up again.
  const plugins::PluginLibrary* plugin = nullptr;
  bool skip = false;  // false: run
  // The step's `if:`, decided here once: the launcher gates the step on it, never on the text.
  Condition condition;
  std::string assertion;
  std::optional<std::int32_t> fetch_depth;  // a skipped checkout's claim, verified at execute
  // The reviewed release a release tag was taken as (the newest the tag can name); empty when
  // `uses:` named a commit SHA.
  std::string release;
  std::string tag;  // the release tag as written (`step.ref` is then the release's SHA)
  // The step's number in logs and reports: "3" for the job's third step, "3.2" for the second
  // step of the composite action the third step calls.
  std::string number = {};
  // A local composite action (`uses: ./path`): its steps run in place of a plugin (which is then
  // null), inside the action's own scope.
  std::shared_ptr<const LocalAction> local = {};
  // The repository files the plugin had read at plan time (a version file, a pin's source): the
  // launcher reads each again just before the step and fails it unless it finds the same.
  std::vector<plugins::RepositoryFileRead> repository_files = {};
  // When the plugin's reviewed releases were last checked against the action's tags: `release`
  // is the newest the tag could name as of that date (empty: the plugin does not say).
  std::string reviewed_on = {};
};

// A local composite action as inlined into the step that calls it (docs/planner.md, "Local
// composite actions").
struct LocalAction {
  std::string file;  // the action file, as named in locations (".github/actions/x/action.yml")
  std::string action_path;  // `github.action_path` and GITHUB_ACTION_PATH inside its steps
  // What its expressions read that is known before the job: the job's contexts with `inputs`
  // (the caller's `with:` and the declared defaults) and `github.action_path`.
  expr::Object contexts;
  std::vector<workflow::Entry> inputs;  // the bound inputs, as the `inputs` context holds them
  std::vector<PlannedStep> steps;
  std::vector<workflow::Entry> outputs;  // `outputs.<name>.value`, evaluated after its steps
};

struct PlannedJob {
  std::string id;
  std::vector<std::string> needs;
  std::int64_t timeout_minutes = kDefaultJobTimeoutMinutes;
  // The job's own timeout-minutes when it was larger than kDefaultJobTimeoutMinutes, which is
  // also GitHub-hosted runners' limit (timeout_minutes is then that limit); 0 otherwise.
  std::int64_t timeout_minutes_written = 0;
  // The job's `if:` (a job without one runs only if every job it needs succeeded).
  Condition condition;
  std::vector<workflow::Entry> env;      // workflow env overlaid by job env
  std::vector<workflow::Entry> outputs;  // `outputs:`, evaluated by the launcher after the job
  // The matrix combination the job runs ("node=22, os=ubuntu-latest"); empty outside a matrix.
  std::string matrix_label;
  // What expressions of this job read that is known before it starts (job_contexts.h); the
  // launcher adds what the run produces.
  expr::Object contexts;
  std::vector<PlannedStep> steps;
  int fetch_depth = 1;  // from the job's checkout step
  util::SourceLocation location;
  // A job that calls a local reusable workflow (`uses: ./.github/workflows/x.yml`): it has no
  // steps or runner of its own; the called workflow's jobs run in its place.
  std::shared_ptr<const CalledWorkflow> called = {};
};

// A local reusable workflow as inlined into the job that calls it (docs/planner.md, "Local
// reusable workflows").
struct CalledWorkflow {
  std::string file;                     // as named in locations (".github/workflows/build.yml")
  std::vector<workflow::Entry> inputs;  // the `inputs` context, as text, for the plan
  // What its outputs read besides `jobs` (github, inputs).
  expr::Object contexts;
  // Every job of the called workflow in dependency order; their `needs` name each other.
  std::vector<PlannedJob> jobs;
  // `on.workflow_call.outputs.<name>.value`, evaluated by the launcher after its jobs (they read
  // `jobs.<id>.outputs`), read by later jobs as `needs.<caller>.outputs.<name>`.
  std::vector<workflow::Entry> outputs;
};

// The jobs that run steps, in the order they run: the plan's, with each called workflow's jobs
// in place of the job that calls it.
std::vector<const PlannedJob*> jobs_with_steps(const std::vector<PlannedJob>& jobs);

// What the launcher will run: the host-named job and the jobs it needs, in dependency order.
struct Plan {
  std::string workflow_file;
  std::string job;
  std::string base;
  std::vector<std::pair<std::string, std::string>> matrix;  // the host's choice, as given
  std::vector<PlannedJob> jobs;
  std::vector<plugins::RuntimePin> pins;
  // Whose pull request: a fork's (secrets read as empty) or the same repository's (reading one
  // was refused).
  bool same_repository = false;
};

nlohmann::json to_json(const Plan& plan);

// The plan's pins as the resolver takes them (the host, the launcher and `reviewer resolve`
// resolve the same ones).
std::vector<resolve::Pin> resolver_pins(const Plan& plan);

}  // namespace reviewer::plan
