#include "core/launch/step_lines.h"

#include <fmt/format.h>

namespace reviewer::launch {

std::string step_number(const plan::PlannedStep& s) {
  return s.number.empty() ? std::to_string(s.step.index + 1) : s.number;
}

std::string step_name(const plan::PlannedStep& s) {
  return s.step.name ? *s.step.name : (s.step.is_run() ? std::string("run") : s.step.action);
}

std::string describe_failure(const exec::StepResult& r) {
  if (r.interrupted) {
    return "interrupted";
  }
  if (r.timed_out) {
    return "was cancelled at its time limit (" + r.deadline_reason + ")";
  }
  if (r.signal != 0) {
    return fmt::format("was killed by signal {}", r.signal);
  }
  return fmt::format("exited {}", r.exit_code);
}

std::string step_line(const std::string& label, const StepReport& r) {
  const bool failed = r.status == RunStatus::kFailed;
  return fmt::format("{}{} ({}, {:.3f} s)", label, failed ? "failed: " + r.message : "ok",
                     r.exit_code >= 0 ? fmt::format("exit {}", r.exit_code) : "no exit code",
                     r.seconds);
}

}  // namespace reviewer::launch
