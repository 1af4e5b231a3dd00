#pragma once

#include <string>

#include "core/launch/job_loop.h"
#include "core/plan/plan.h"

namespace reviewer::launch {

// Writes `dir`/report.json (the plan and every job's and step's outcome) and `dir`/report.xml
// (JUnit). Failures to write are reported on stderr and do not change the verdict.
void write_build_reports(const std::string& dir, const plan::Plan& plan,
                         const BuildOutcome& outcome);

}  // namespace reviewer::launch
