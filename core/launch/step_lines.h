#pragma once

#include <string>

#include "core/exec/step_runner.h"
#include "core/launch/job_loop.h"
#include "core/plan/plan.h"

namespace reviewer::launch {

// "3", or "3.2" for the second step of the local action the third step calls.
std::string step_number(const plan::PlannedStep& s);

// The step's name, else `run` or its action.
std::string step_name(const plan::PlannedStep& s);

// Why a step's process failed: interrupted, cancelled at its time limit, killed, or its exit code.
std::string describe_failure(const exec::StepResult& r);

// The line a runner shows when a step ends: its outcome (with why it failed), exit code and
// duration. A tolerated failure reads as failed: that was its outcome.
std::string step_line(const std::string& label, const StepReport& r);

}  // namespace reviewer::launch
