#pragma once

#include <string>
#include <vector>

#include "core/plan/findings.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// Reads an `env:` mapping (`where` names its level for messages): literal scalar values only,
// names checked against the env policy. Refused entries are left out of the result.
std::vector<workflow::Entry> read_env(const yaml::Node& env, const std::string& where,
                                      Findings& findings);

// Overlays `top` on `base` by name (later levels win, as on a runner).
std::vector<workflow::Entry> overlay_env(std::vector<workflow::Entry> base,
                                         const std::vector<workflow::Entry>& top);

}  // namespace reviewer::plan
