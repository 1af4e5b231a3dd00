#include "core/plugins/step_view.h"

#include <optional>
#include <string>

namespace reviewer::plugins {
namespace {

reviewer_str c_str(const std::string& s) { return {s.data(), s.size()}; }
reviewer_str c_opt(const std::optional<std::string>& s) {
  return s ? c_str(*s) : reviewer_str{nullptr, 0};
}
reviewer_location c_loc(const util::SourceLocation& l) { return {c_str(l.file), l.line, l.column}; }

}  // namespace

StepViewStorage::StepViewStorage(const workflow::Step& step) {
  for (const auto& e : step.inputs) {
    inputs_.push_back({c_str(e.name), c_str(e.value), c_loc(e.location)});
    if (e.run_token) {
      run_token_inputs_.push_back(c_str(e.name));
    }
  }
  for (const auto& e : step.env) {
    env_.push_back({c_str(e.name), c_str(e.value), c_loc(e.location)});
  }
  view_.struct_size = sizeof(view_);
  view_.job_id = c_str(step.job_id);
  view_.index = step.index;
  view_.name = c_opt(step.name);
  view_.action = c_str(step.action);
  view_.ref = c_str(step.ref);
  view_.run = c_str(step.run);
  view_.shell = c_opt(step.shell);
  view_.working_directory = c_opt(step.working_directory);
  view_.if_condition = c_opt(step.if_condition);
  view_.timeout_minutes = step.timeout_minutes.value_or(-1);
  view_.inputs = inputs_.data();
  view_.input_count = inputs_.size();
  view_.env = env_.data();
  view_.env_count = env_.size();
  view_.location = c_loc(step.location);
  view_.uses_location = c_loc(step.uses_location);
  view_.timeout_location = c_loc(step.timeout_location);
  view_.run_token_inputs = run_token_inputs_.data();
  view_.run_token_input_count = run_token_inputs_.size();
}

}  // namespace reviewer::plugins
