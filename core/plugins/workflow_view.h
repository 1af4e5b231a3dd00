#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <reviewer/sdk/abi.h>

#include "core/plugins/step_view.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plugins {

// The plugins' workflow-wide view (SDK 1.1, reviewer_job_context::workflow_steps): every step of
// every job of a workflow as written, in file order, for checks a plugin cannot make from one
// step (an artifact name unique in the workflow run). Input values stay raw, `${{ }}` included:
// these steps are not planned, and a plugin must treat an expression as "could be anything".
// Built once per planned job; neither copied nor moved, since the C views point into it.
class WorkflowView {
 public:
  // `jobs` is the workflow's `jobs` mapping; nullptr gives a view that is unavailable (data()
  // is nullptr), which plugins needing it refuse.
  explicit WorkflowView(const yaml::Node* jobs);
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
