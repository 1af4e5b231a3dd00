#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/plan/expression_fields.h"
#include "core/plan/job_rules.h"
#include "core/plan/plan.h"
#include "core/plugins/invoke.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// Where a list of steps is planned: the job's own, or a local composite action's inlined into it.
struct StepScope {
  const expr::Object& contexts;  // what the steps' expressions read at plan time
  Field value_field;             // kStepValue, or kActionStepValue inside an action
  Field if_field;                // kStepIf, or kActionStepIf
  const plugins::JobInfo& info;
  // The job's `defaults.run` (run steps of the job only: a composite action's steps take none).
  const WorkflowDefaults* defaults = nullptr;
  // Inside an action: the number of the calling step ("3", "3.2") and its index in the job (what
  // plugins see as the step's position: the action's steps run where the caller stands).
  std::string caller_number = {};
  std::optional<std::uint32_t> caller_index = {};
  // The action files being inlined, outermost first (for cycles and the nesting bound).
  std::vector<std::string> chain = {};
};

// Reads and plans the step `node` (the `index`th of its list in `scope`): the step rules, then
// the plugin registered for its action (at a reviewed release), its pins; a local action is
// inlined (local_action.h). The planned step is charged to planning.budget (plan_budget.h).
// nullopt when the step is refused (the refusals are in planning.findings), or the budget is
// exceeded. A checkout's fetch depth goes to `job`.
std::optional<PlannedStep> plan_step_node(const yaml::Node& node, std::uint32_t index,
                                          const StepScope& scope, WorkflowPlanning& planning,
                                          PlannedJob& job);

}  // namespace reviewer::plan
