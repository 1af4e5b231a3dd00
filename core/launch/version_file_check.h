#pragma once

#include <string>
#include <vector>

#include "core/plan/plan.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::launch {

// What the version files behind a step's pins give now, just before the step runs: the plan read
// them before any step ran, and an earlier step of the job may have written them since, while the
// action reads them when it runs. Each is read again from `workspace` by the planner's own reader
// (no link followed); the first that no longer gives what the plan pinned, or can no longer be
// read, is a version-file-changed refusal naming both versions. Ok when all still agree; each
// agreement is said on `said` ("'.nvmrc' still gives \"22\", as planned").
util::Status recheck_version_files(const plan::PlannedStep& step, const std::string& workspace,
                                   std::vector<std::string>& said);

}  // namespace reviewer::launch
