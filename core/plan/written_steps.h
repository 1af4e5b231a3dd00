#pragma once

#include <optional>
#include <vector>

#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

class PlanBudget;

// Every step of every job of a workflow as written, in file order, for the plugins' workflow-wide
// view (plugins::WorkflowView): job id, index, name, action and ref, script, inputs, locations.
// Nothing is refused and input values stay raw, `${{ }}` included: these steps are not planned
// here (planning a job does that), and a plugin must treat an expression as "could be anything".
// nullopt when `jobs` is not a mapping: the view is then unavailable. Each step is charged to
// `budget` (when given) as it is read; nullopt, too, once the budget is exceeded.
std::optional<std::vector<workflow::Step>> written_steps(const yaml::Node* jobs,
                                                         PlanBudget* budget = nullptr);

}  // namespace reviewer::plan
