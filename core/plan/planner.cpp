#include "core/plan/planner.h"

#include <algorithm>
#include <array>
#include <optional>

#include "core/expr/budget.h"
#include "core/plan/called_workflow.h"
#include "core/plan/env_rules.h"
#include "core/plan/job_rules.h"
#include "core/plan/local_action.h"
#include "core/plan/needs.h"
#include "core/plan/plan_budget.h"
#include "core/plan/repository_file_reader.h"
#include "core/plan/trigger.h"
#include "core/plan/written_steps.h"
#include "core/plugins/workflow_view.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

constexpr std::array kAcceptedTopKeys = {"name",     "run-name", "on",          "env",
                                         "defaults", "jobs",     "permissions", "concurrency"};

// The host mounts one clone for the whole build: depth 1 or full. Jobs asking for both cannot
// all see the history their checkout asks for.
void check_one_history(const Plan& plan, Findings& f) {
  const auto jobs = jobs_with_steps(plan.jobs);
  for (const PlannedJob* job : jobs) {
    if (job->fetch_depth != jobs.front()->fetch_depth) {
      f.refuse("mixed-history-shape",
               "job " + quote(job->id) + " checks out with fetch-depth " +
                   std::to_string(job->fetch_depth) + " but job " + quote(jobs.front()->id) +
                   " with " + std::to_string(jobs.front()->fetch_depth) +
                   "; the review mounts one clone for every job of the build",
               job->location);
    }
  }
}

}  // namespace

util::Result<Plan> plan_workflow(const yaml::Node& root, const PlanRequest& request,
                                 const plugins::Registry& registry) {
  // Every expression of the pass (its called workflows' and local actions' too) builds within one
  // total: the plan keeps their values, and aliases can repeat a field thousands of times.
  const expr::SharedBudget expression_budget;
  Findings f;
  // And everything the plan holds within another (plan_budget.h): the planner's own copies.
  PlanBudget budget(f);
  if (!root.is_mapping()) {
    f.refuse("workflow-not-mapping", "a workflow is a YAML mapping",
             util::SourceLocation{request.workflow_file, 1, 1});
    return f.take();
  }
  for (const auto& [key, value] : root.entries) {
    if (std::find(kAcceptedTopKeys.begin(), kAcceptedTopKeys.end(), key.scalar) ==
        kAcceptedTopKeys.end()) {
      f.refuse("unknown-workflow-key", "workflow key " + quote(key.scalar) + " is not understood",
               key);
    }
  }
  // Display-only and CI-side fields: accepted whatever they say (the review never evaluates
  // them), in the shapes GitHub accepts (docs/planner.md).
  for (const char* key : {"name", "run-name"}) {
    const yaml::Node* v = root.find(key);
    if (v != nullptr && !v->is_scalar()) {
      f.refuse("invalid-workflow-value", std::string("workflow '") + key + "' must be a string",
               *v);
    }
  }
  for (const char* key : {"permissions", "concurrency"}) {
    const yaml::Node* v = root.find(key);
    if (v != nullptr && !v->is_scalar() && !v->is_mapping()) {
      f.refuse("invalid-workflow-value",
               std::string("workflow '") + key + "' must be a string or a mapping", *v);
    }
  }
  check_trigger(root, request.base, f);
  WorkflowDefaults defaults;
  if (const yaml::Node* env = root.find("env")) {
    const expr::Object contexts =
        plan_time_contexts("", request.base, {}, {}, &request.event, request.same_repository);
    defaults.env = read_env(*env, "workflow", {contexts, Field::kWorkflowEnv, false}, f);
  }
  read_defaults(root, "workflow", defaults, f);

  const yaml::Node* jobs = root.find("jobs");
  if (jobs == nullptr || !jobs->is_mapping()) {
    f.refuse("job-not-found", "the workflow has no 'jobs' mapping",
             jobs != nullptr ? jobs->location : root.location);
    return f.take();
  }
  // The workflow-wide view covers every step of every job: built once per workflow (per job it
  // would make a long `needs` chain quadratic).
  auto written = written_steps(jobs, &budget);
  if (budget.exceeded()) {
    return f.take();
  }
  const plugins::WorkflowView view(std::move(written));
  Plan plan{request.workflow_file, request.job, request.base, request.matrix, {}, {}};
  plan.same_repository = request.same_repository;
  WorkflowPlanning planning{
      request.workflow_file, *jobs,       view,           registry,           plan.pins, f,
      request.base,          request.job, request.matrix, request.pinned_only};
  LocalActionState local_actions;
  CalledWorkflowState called_workflows;
  planning.files = request.files;
  planning.event = &request.event;
  planning.same_repository = request.same_repository;
  std::optional<RepositoryFilesReader> plugin_files;
  if (request.files != nullptr) {
    planning.repository_files = &plugin_files.emplace(*request.files);
  }
  planning.local_actions = &local_actions;
  planning.called_workflows = &called_workflows;
  planning.budget = &budget;
  const auto closure = needs_closure(*jobs, request.job, f);
  const EarlierJobs earlier(*jobs, closure);
  planning.earlier_jobs = &earlier;
  plan.jobs.reserve(closure.size());
  for (const auto& id : closure) {
    if (budget.exceeded()) {
      break;
    }
    plan.jobs.push_back(plan_job(id, *jobs->find(id), defaults, planning));
  }
  check_one_history(plan, f);
  if (!f.empty()) {
    return f.take();
  }
  return plan;
}

util::Result<Plan> plan_text(std::string_view text, const PlanRequest& request,
                             const plugins::Registry& registry) {
  auto root = yaml::load(text, request.workflow_file);
  if (!root) {
    return root.error();
  }
  return plan_workflow(*root, request, registry);
}

util::Result<Plan> plan_file(const std::string& path, const PlanRequest& request,
                             const plugins::Registry& registry) {
  auto text = yaml::read_bounded(path, request.workflow_file);
  if (!text) {
    return text.error();
  }
  return plan_text(*text, request, registry);
}

std::vector<resolve::Pin> resolver_pins(const Plan& plan) {
  std::vector<resolve::Pin> pins;
  for (const auto& p : plan.pins) {
    pins.push_back({p.runtime, p.version, p.location, p.runner_default, p.tool_cache, p.asked});
  }
  return pins;
}

}  // namespace reviewer::plan
