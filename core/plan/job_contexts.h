#pragma once

#include <string>

#include "core/expr/parser.h"
#include "core/expr/references.h"
#include "core/expr/value.h"
#include "core/plan/matrix.h"

namespace reviewer::plan {

// Where a workflow value stands decides which contexts and functions it may read: GitHub's
// context availability table (docs/expressions.md).
enum class Field {
  kWorkflowEnv,  // env:
  kJobIf,        // jobs.<id>.if
  kJobValue,     // jobs.<id>.name, runs-on, timeout-minutes, continue-on-error
  kStrategy,     // jobs.<id>.strategy (the matrix itself)
  kJobEnv,       // jobs.<id>.env
  kJobOutput,    // jobs.<id>.outputs.<name>
  kStepIf,       // steps[*].if
  kStepValue,    // steps[*].run, env, with, name, working-directory, timeout, continue-on-error
  // A composite action's own file (action.yml): no `secrets`, `needs` or `vars` there.
  kActionStepIf,        // runs.steps[*].if
  kActionStepValue,     // runs.steps[*].run, env, with, name, working-directory, continue-on-error
  kActionOutput,        // outputs.<name>.value
  kActionInputDefault,  // inputs.<name>.default
  // A job calling a reusable workflow, and the called workflow's `on.workflow_call`.
  kCallerWith,          // jobs.<id>.with.<input>
  kCallerSecret,        // jobs.<id>.secrets.<secret>
  kCalledInputDefault,  // on.workflow_call.inputs.<name>.default
  kCalledOutput,        // on.workflow_call.outputs.<name>.value
};

expr::Scope scope_for(Field field);

// When the value of an expression can be known.
enum class Knowledge {
  kPlanTime,  // every value it reads is fixed before the job starts: folded by the planner
  kRunTime,   // it reads what steps and jobs produce (steps, needs, job, env, status functions,
              // hashFiles): evaluated by the launcher where the runner would
  kUnknown,   // it reads something the review cannot know (vars, secrets.GITHUB_TOKEN, most of
              // github): refused
};

struct Classified {
  Knowledge knowledge = Knowledge::kPlanTime;
  std::string what;  // the first unknown (or run-time) value read, as `context.property`
};

// `contexts` are the plan-time contexts the expression is read over: a `github` field the host's
// event description gave (event_facts.h) is known there.
Classified classify(const expr::References& refs, const expr::Object& contexts);

// What the review knows of a job before it starts, as the contexts an expression reads: the
// pull request event against `base`, the chosen matrix combination (an empty object outside a
// matrix), the strategy (`index` of `total` combinations), GitHub's Linux x64 runner, a fork pull
// request's secrets (every one empty), no inputs, and in `github` what the host's event
// description gave (`event`; read_event_facts). For a same-repository pull request there is no
// `secrets` context: its secrets are the real run's, and reading one is refused.
struct StrategyFacts {
  bool fail_fast = true;
  std::size_t index = 0;
  std::size_t total = 1;
  std::size_t max_parallel = 1;
};
expr::Object plan_time_contexts(const std::string& job_id, const std::string& base,
                                const expr::Object& matrix, const StrategyFacts& strategy,
                                const expr::Object* event, bool same_repository);

}  // namespace reviewer::plan
