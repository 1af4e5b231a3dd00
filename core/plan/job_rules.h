#pragma once

#include <map>

#include <string>

#include "core/plan/findings.h"
#include "core/plan/plan.h"
#include "core/plugins/registry.h"
#include "core/plugins/workflow_view.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

class EarlierJobs;
class PlanBudget;
class RepositoryFiles;
struct LocalActionState;
struct CallScope;
struct CalledWorkflowState;

// What a job inherits from the workflow level.
struct WorkflowDefaults {
  std::vector<workflow::Entry> env;
  std::optional<std::string> shell;
  std::optional<std::string> working_directory;
};

// What planning each job of one workflow shares.
struct WorkflowPlanning {
  const std::string& file;                 // the workflow file, as named in locations
  const yaml::Node& jobs;                  // the workflow's `jobs`, for `needs` ids as declared
  const plugins::WorkflowView& view;       // every step of the workflow, built once for plugins
  const plugins::Registry& registry;       // the plugins that plan (and later run) each step
  std::vector<plugins::RuntimePin>& pins;  // what steps pin, for the resolver
  Findings& findings;
  const std::string& base;  // the pull request's base branch
  const std::string& job;   // the host-named job, the one whose matrix the host chooses from
  const std::vector<std::pair<std::string, std::string>>& matrix_choice;
  bool pinned_only = false;  // accept reviewed commit SHAs only, not release tags
  // The repository's files, for local actions; nullptr: none can be read (they are refused).
  const RepositoryFiles* files = nullptr;
  // The same files as plugins read them (repository_file_reader.h); nullptr: none.
  const plugins::RepositoryFileReader* repository_files = nullptr;
  LocalActionState* local_actions = nullptr;  // what inlining them has loaded and counted
  // Inside a called workflow: its inputs, secrets and the files that called it; nullptr for the
  // workflow the host named.
  const CallScope* call = nullptr;
  CalledWorkflowState* called_workflows = nullptr;  // what calling workflows has loaded, counted
  // For each planned job, the jobs GitHub completes before it starts (its needs, transitively),
  // for plugins (download-artifact); nullptr or a job missing: not known.
  const EarlierJobs* earlier_jobs = nullptr;
  // What the host's event description gives the github context (event_facts.h); nullptr: none.
  const expr::Object* event = nullptr;
  // A same-repository pull request: its run has secrets the review does not (every one unknown).
  bool same_repository = false;
  // What the plan may hold (plan_budget.h); nullptr: unbounded.
  PlanBudget* budget = nullptr;
};

// Charges `bytes` of structure and `text` bytes of text that `what` adds to the plan at `where`
// to planning.budget (PlanBudget::charge); false once it is exceeded (the planner then stops).
bool charge(WorkflowPlanning& planning, std::size_t bytes, std::size_t text,
            const std::string& what, const util::SourceLocation& where);

// Reads the `defaults.run` of a workflow or a job (`where` names the level).
void read_defaults(const yaml::Node& owner, const std::string& where, WorkflowDefaults& into,
                   Findings& findings);

// Plans one job: job-level rules, then each step through its plugin; the job (its env as copied
// into it) and its steps are charged to planning.budget, and planning stops once it is exceeded.
PlannedJob plan_job(const std::string& id, const yaml::Node& job, const WorkflowDefaults& defaults,
                    WorkflowPlanning& planning);

}  // namespace reviewer::plan
