#pragma once

#include <vector>

#include <reviewer/sdk/abi.h>

#include "core/workflow/model.h"

namespace reviewer::plugins {

// The C view of one step for a plugin; it points into `step`, which must outlive it (and so must
// this object: the view points into its own entry arrays).
class StepViewStorage {
 public:
  explicit StepViewStorage(const workflow::Step& step);
  StepViewStorage(const StepViewStorage&) = delete;
  StepViewStorage& operator=(const StepViewStorage&) = delete;
  const reviewer_step_view* get() const { return &view_; }

 private:
  std::vector<reviewer_entry> inputs_;
  std::vector<reviewer_entry> env_;
  std::vector<reviewer_str> run_token_inputs_;
  reviewer_step_view view_{};
};

}  // namespace reviewer::plugins
