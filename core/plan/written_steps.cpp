#include "core/plan/written_steps.h"

#include <string>

#include "core/plan/findings.h"
#include "core/plan/plan_budget.h"
#include "core/workflow/uses.h"

namespace reviewer::plan {
namespace {

workflow::Step read_step(const yaml::Node& node, const std::string& job_id, std::uint32_t index) {
  workflow::Step step;
  step.job_id = job_id;
  step.index = index;
  step.location = node.location;
  if (const yaml::Node* n = node.find("name"); n != nullptr && n->is_scalar()) {
    step.name = n->scalar;
  }
  if (const yaml::Node* uses = node.find("uses"); uses != nullptr && uses->is_scalar()) {
    auto split = workflow::split_uses(uses->scalar);
    step.action = std::move(split.action);
    step.ref = std::move(split.ref);
    step.uses_location = uses->location;
  } else if (const yaml::Node* run = node.find("run"); run != nullptr) {
    step.action = "run";
    if (run->is_scalar()) {
      step.run = run->scalar;
    }
    step.uses_location = run->location;
  }
  if (const yaml::Node* with = node.find("with"); with != nullptr && with->is_mapping()) {
    for (const auto& [key, value] : with->entries) {
      step.inputs.push_back({key.scalar, value.is_scalar() ? value.scalar : "", key.location});
    }
  }
  return step;
}

}  // namespace

std::optional<std::vector<workflow::Step>> written_steps(const yaml::Node* jobs,
                                                         PlanBudget* budget) {
  if (jobs == nullptr || !jobs->is_mapping()) {
    return std::nullopt;
  }
  std::vector<workflow::Step> out;
  for (const auto& [id, job] : jobs->entries) {
    const yaml::Node* steps = job.is_mapping() ? job.find("steps") : nullptr;
    if (steps == nullptr || !steps->is_sequence()) {
      continue;
    }
    for (std::uint32_t i = 0; i < steps->items.size(); ++i) {
      if (!steps->items[i].is_mapping()) {
        continue;
      }
      workflow::Step step = read_step(steps->items[i], id.scalar, i);
      if (budget != nullptr &&
          !budget->charge(step_bytes(step), text_bytes(step),
                          "step " + std::to_string(i + 1) + " of job " + quote(id.scalar),
                          step.location)) {
        return std::nullopt;
      }
      out.push_back(std::move(step));
    }
  }
  return out;
}

}  // namespace reviewer::plan
