#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <reviewer/sdk/abi.h>

#include "core/plugins/step_view.h"
#include "core/workflow/model.h"

namespace reviewer::plugins {

// The plugins' workflow-wide view (SDK 1.1, reviewer_job_context::workflow_steps): every step of
// every job of a workflow as written, in file order (plan::written_steps reads them), for checks a
// plugin cannot make from one step (an artifact name unique in the workflow run). Built once per
// workflow; neither copied nor moved, since the C views point into it.
class WorkflowView {
 public:
  // nullopt gives a view that is unavailable (data() is nullptr), which plugins needing it
  // refuse.
  explicit WorkflowView(std::optional<std::vector<workflow::Step>> steps);
  WorkflowView(const WorkflowView&) = delete;
  WorkflowView& operator=(const WorkflowView&) = delete;

  const reviewer_step_view* data() const { return available_ ? views_.data() : nullptr; }
  std::size_t size() const { return views_.size(); }

 private:
  bool available_ = false;
  std::vector<workflow::Step> steps_;
  std::vector<std::unique_ptr<StepViewStorage>> storage_;
  std::vector<reviewer_step_view> views_;
};

}  // namespace reviewer::plugins
