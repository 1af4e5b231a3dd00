#include "core/plugins/workflow_view.h"

namespace reviewer::plugins {

WorkflowView::WorkflowView(std::optional<std::vector<workflow::Step>> steps) {
  if (!steps) {
    return;
  }
  available_ = true;
  steps_ = std::move(*steps);
  // The views point into steps_, which no longer changes.
  for (const auto& step : steps_) {
    storage_.push_back(std::make_unique<StepViewStorage>(step));
    views_.push_back(*storage_.back()->get());
  }
}

}  // namespace reviewer::plugins
