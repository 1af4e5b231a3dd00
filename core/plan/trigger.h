#pragma once

#include <string>

#include "core/plan/findings.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// The workflow must run on `pull_request` into `base`: `on` as a string, a list or a mapping;
// `branches` decided exactly (names or decidable globs), `branches-ignore` likewise; `types`
// must include one of the default activity types; `paths` / `paths-ignore` are not evaluated
// (the host chose to review this job; docs/refusals.md says so).
void check_trigger(const yaml::Node& root, const std::string& base, Findings& findings);

}  // namespace reviewer::plan
