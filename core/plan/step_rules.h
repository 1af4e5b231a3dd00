#pragma once

#include <optional>
#include <string>

#include "core/plan/findings.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// Reads one step into its literal form, refusing what no plugin may accept: unknown keys,
// `uses` with `run` (or neither), `continue-on-error`, conditions other than success()/always(),
// shells other than bash, expressions in scripts, inputs, env and working directories, and
// timeouts that are not positive integer literals. Returns nullopt if the step cannot be
// dispatched at all.
std::optional<workflow::Step> read_step(const yaml::Node& node, const std::string& job_id,
                                        std::uint32_t index, Findings& findings);

// A positive integer literal (GitHub truncates fractions, so 0.5 would silently mean no limit
// there: refused), or nullopt with a refusal naming `what`.
std::optional<std::int64_t> read_timeout(const yaml::Node& value, const std::string& what,
                                         Findings& findings);

// A literal working directory that stays inside the worktree (relative, no '..' component).
bool check_working_directory(const yaml::Node& value, const std::string& what, Findings& findings);

}  // namespace reviewer::plan
