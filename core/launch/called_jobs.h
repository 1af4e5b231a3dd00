#pragma once

#include <map>
#include <string>

#include "core/launch/run_contexts.h"
#include "core/plan/plan.h"
#include "core/util/result.h"

namespace reviewer::launch {

// What a job that calls a reusable workflow gives the jobs that need it, once the called
// workflow's `jobs` finished: failure when one of them failed, success otherwise, and the
// workflow's `on.workflow_call.outputs` evaluated over `jobs.<id>.outputs` and `.result`.
// Errors: an output that cannot be evaluated (expression-error), as the runner fails there.
util::Result<JobRecord> called_workflow_record(const plan::CalledWorkflow& called,
                                               const std::map<std::string, JobRecord>& jobs,
                                               const std::string& workspace);

}  // namespace reviewer::launch
