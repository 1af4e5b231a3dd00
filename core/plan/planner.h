#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/plan/plan.h"
#include "core/plugins/registry.h"
#include "core/report/refusal.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

struct PlanRequest {
  std::string workflow_file;  // as named in locations (the path inside the repository)
  std::string job;
  std::string base;
};

// A plan, or every reason there is none.
struct PlanResult {
  std::optional<Plan> plan;
  report::Refusals refusals;
  // The workflow text plan_file read (empty when it could not be read), so a caller can show
  // each refusal's source line and caret from the very bytes that were planned.
  std::string source;
};

// Plans `request.job` and the jobs it needs from an already bounded-loaded workflow, collecting
// every refusal in one pass.
PlanResult plan_workflow(const yaml::Node& root, const PlanRequest& request,
                         const plugins::Registry& registry);

// Loads `text` (the workflow request.workflow_file names) within the YAML bounds (a crossed
// bound stops at once) and plans it.
PlanResult plan_text(std::string_view text, const PlanRequest& request,
                     const plugins::Registry& registry);

// Reads `path` within the bounds (no symlink followed) and plans it.
PlanResult plan_file(const std::string& path, const PlanRequest& request,
                     const plugins::Registry& registry);

}  // namespace reviewer::plan
