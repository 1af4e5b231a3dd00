#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/plan/expression_fields.h"
#include "core/plan/job_rules.h"
#include "core/plan/plan.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

struct StepScope;

// The runner's bound on nested composite actions (Constants.CompositeActionsMaxDepth in
// actions/runner: a job's steps stand at depth 0, an action's steps one deeper, and a depth above
// 9 fails the job).
inline constexpr std::size_t kMaxActionDepth = 9;
// At most this many steps of local actions are inlined into one plan: an action that calls
// another from each of its steps would otherwise multiply at every level.
inline constexpr std::size_t kMaxInlinedSteps = 1000;

// What inlining local actions shares across one plan: each action file loaded once (nullptr:
// it was refused, and said so once), and the steps inlined so far.
struct LocalActionState {
  std::map<std::string, std::shared_ptr<const yaml::Node>> loaded;
  std::size_t inlined_steps = 0;
  bool over_bound = false;  // kMaxInlinedSteps was crossed (and refused once)
};

// Inlines the local composite action the step `caller` (`uses: ./path`, numbered `number`)
// names, as the runner runs it: its action.yml (or action.yaml) read from the repository without
// following a link and loaded within the workflow's YAML bounds; `runs.using: composite` only;
// its inputs bound to the caller's `with:` (the declared defaults evaluated for the rest); its
// steps planned by the same rules in its own scope (`inputs`, `github.action_path`, its own
// `steps`), a `run:` step with the `shell:` GitHub requires there; its outputs kept for the
// launcher. The caller is returned with `local` set, or nullopt after refusals, each located in
// the file it is about.
std::optional<PlannedStep> plan_local_action(workflow::Step caller, Condition condition,
                                             const std::string& number, const StepScope& scope,
                                             WorkflowPlanning& planning, PlannedJob& job);

}  // namespace reviewer::plan
