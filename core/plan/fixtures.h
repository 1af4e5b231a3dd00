#pragma once

#include <string>
#include <vector>

#include "core/plugins/registry.h"

namespace reviewer::plan {

// One fixture case's outcome.
struct FixtureResult {
  std::string file;  // fixture file
  std::string name;  // the case's name
  bool passed = false;
  std::string detail;  // expected vs got
  // The rules of the refusals the case's plan made, for `reviewer fixtures` to hold to the
  // catalogues (the core's, and the plugins' own).
  std::vector<std::string> rules = {};
};

// Runs every case of every `fixtures/*.yml` under `plugin_source_dir` through the planner with
// `registry` (the same plugin host the launcher uses). A case is
//   - name: what it shows
//     steps: [ ...job steps; the last one is the step under test... ]
//     expect: skip | run | refuse RULE [RULE...]
// and optionally `job:` keys merged into the job (e.g. timeout-minutes) and `jobs:`, other jobs
// of the same workflow (by id; planned only if the job `needs` them, always in the plugins'
// workflow-wide view), `files:` the repository's files (path: text, or path: {symlink: target}
// for a link; without it the plan has none) and `pins:` the plan's pins, as "runtime version" in
// order (checked when given), and, for `expect: refuse`, `message:` a text one of the refusals'
// messages must hold. A directory with no
// fixture case yields one failed result ("no fixtures"), so a plugin without fixtures fails.
std::vector<FixtureResult> run_fixtures(const std::string& plugin_source_dir,
                                        const plugins::Registry& registry);

}  // namespace reviewer::plan
