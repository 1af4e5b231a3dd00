#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/plan/env_rules.h"
#include "core/plan/expression_fields.h"
#include "core/plan/findings.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// One step as read, and its `if:`.
struct ReadStep {
  workflow::Step step;
  Condition condition;
};

// Reads one step, its expressions evaluated over `site` (a step's values: the launcher
// evaluates what only the run knows in scripts and env; inputs must be known now), refusing what
// no plugin may accept: unknown keys, `uses` with `run` (or neither), shells other than bash,
// expressions in `uses`, timeouts and working directories, and timeouts that are not positive
// integer literals. Returns nullopt if the step cannot be dispatched at all.
// `if_field` is where the step's `if:` stands (a workflow's step or a composite action's).
std::optional<ReadStep> read_step(const yaml::Node& node, const std::string& job_id,
                                  std::uint32_t index, const ValueSite& site, Findings& findings,
                                  Field if_field = Field::kStepIf);

// Whether `key` is a key of a step: of a workflow's, or of a composite action's (the runner's
// action manifest schema, with `if` and `continue-on-error` since 2021-2022, but no
// `timeout-minutes`: any other key makes the runner fail to load the action).
bool is_step_key(std::string_view key, bool in_composite_action);

// `continue-on-error` of a step or job: a boolean, literal or known at plan time.
std::optional<bool> read_continue_on_error(const yaml::Node& value, const ValueSite& site,
                                           Findings& findings);

// A positive integer literal (GitHub truncates fractions, so 0.5 would silently mean no limit
// there: refused), or nullopt with a refusal naming `what`.
std::optional<std::int64_t> read_timeout(const yaml::Node& value, const std::string& what,
                                         Findings& findings);

// A literal working directory that stays inside the worktree (relative, no '..' component).
bool check_working_directory(const yaml::Node& value, const std::string& what, Findings& findings);

}  // namespace reviewer::plan
