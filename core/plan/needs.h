#pragma once

#include <string>
#include <vector>

#include "core/plan/findings.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// The host-named `job` and every job it needs (transitively), dependencies first, in the
// order the jobs are declared where the graph leaves a choice. Refuses job-not-found,
// needs-unknown, needs-invalid and needs-cycle.
std::vector<std::string> needs_closure(const yaml::Node& jobs, const std::string& job,
                                       Findings& findings);

// The `needs:` of one job as names (a string or a list of strings).
std::vector<std::string> read_needs(const yaml::Node& job, Findings& findings);

}  // namespace reviewer::plan
