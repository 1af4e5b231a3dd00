#pragma once

#include <string>
#include <vector>

#include "core/expr/value.h"
#include "core/plan/findings.h"
#include "core/plan/job_contexts.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// Where the values of one level stand: the contexts known at plan time, the field (what they may
// read), and whether the launcher may evaluate what only the run knows.
struct ValueSite {
  const expr::Object& contexts;
  Field field;
  bool run_time_allowed = false;
};

// Reads an `env:` mapping (`where` names its level for messages): scalar values, their
// expressions evaluated (or kept for the launcher, marked run_time), names checked against the
// env policy. A credential-shaped name is accepted only with a value that is exactly empty (what
// a fork pull request's secret evaluates to). Refused entries are left out of the result.
std::vector<workflow::Entry> read_env(const yaml::Node& env, const std::string& where,
                                      const ValueSite& site, Findings& findings);

// Overlays `top` on `base` by name (later levels win, as on a runner).
std::vector<workflow::Entry> overlay_env(std::vector<workflow::Entry> base,
                                         const std::vector<workflow::Entry>& top);

}  // namespace reviewer::plan
