#pragma once

#include <string>
#include <vector>

#include "core/plan/plan.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::launch {

// The repository files a step's plugin read at plan time (its version files), read again from
// `workspace` just before the step runs: the plan read them before any step ran, an earlier step
// of the job may have written them since, and the action reads them when it runs. Each is read by
// the planner's own reader (no link followed, the plan's bound); the first whose answer is not the
// plan's (read with other bytes, by SHA-256, or missing, or unreadable) is a version-file-changed
// refusal naming the file and both answers, located at the step input that names it. Ok when all
// agree; each agreement is said on `said` ("'.nvmrc' is as the plan read it (sha256 3f2a…)").
util::Status recheck_repository_files(const plan::PlannedStep& step, const std::string& workspace,
                                      std::vector<std::string>& said);

}  // namespace reviewer::launch
