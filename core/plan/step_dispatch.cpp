#include "core/plan/step_dispatch.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/plan/local_action.h"
#include "core/plan/plan_budget.h"
#include "core/plan/release_tags.h"
#include "core/plan/runner_image.h"
#include "core/plan/step_rules.h"
#include "core/resolve/declarations.h"

namespace reviewer::plan {
namespace {

// Whether two releases pin the same runtimes to the same versions (a version file may give each
// release another: setup-node reads devEngines only from v6.3.0 on).
bool same_pins(const std::vector<plugins::RuntimePin>& a,
               const std::vector<plugins::RuntimePin>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.runtime == y.runtime && x.version == y.version;
  });
}

// A step naming a release tag: planned under every reviewed release the tag can name, which must
// all decide alike (and refuse nothing); the newest's outcome is the plan's.
plugins::PlanOutcome plan_releases(const plugins::PluginLibrary& plugin, const workflow::Step& step,
                                   const plugins::JobInfo& info,
                                   const std::vector<plugins::ReviewedRef>& releases, Findings& f) {
  plugins::PlanOutcome first;
  for (std::size_t i = 0; i < releases.size(); ++i) {
    workflow::Step at = step;
    at.ref = releases[i].sha;
    auto outcome = plugins::plan_step(plugin, at, info);
    if (releases.size() > 1 && releases[0].sha != step.ref) {
      for (auto& r : outcome.refusals) {
        r.message += " (under " + releases[i].tag + ", which " + step.ref + " may name)";
      }
    }
    if (i == 0) {
      first = std::move(outcome);
      if (first.decision == plugins::PlanOutcome::Decision::kRefuse) {
        return first;
      }
      continue;
    }
    if (outcome.decision == plugins::PlanOutcome::Decision::kRefuse) {
      return outcome;
    }
    if (outcome.decision != first.decision || outcome.assertion != first.assertion ||
        !same_pins(outcome.pins, first.pins)) {
      f.refuse("release-tag-ambiguous",
               fmt::format("{}@{} may name {} or {}, which treat this step differently; pin one "
                           "of them",
                           step.action, step.ref, releases[0].tag, releases[i].tag),
               step.uses_location);
      first.decision = plugins::PlanOutcome::Decision::kRefuse;
      return first;
    }
  }
  return first;
}

constexpr std::uint32_t kLeading =
    REVIEWER_CAPABILITY_CHECKOUT | REVIEWER_CAPABILITY_BEFORE_CHECKOUT;

// " (a, b)": the actions whose plugins claim checkout, as a message names them.
std::string checkout_actions(const plugins::Registry& registry) {
  const auto actions = registry.actions_with(REVIEWER_CAPABILITY_CHECKOUT);
  std::string out;
  for (const auto& a : actions) {
    out += (out.empty() ? " (" : ", ") + a;
  }
  return out.empty() ? out : out + ")";
}

// "3" for the job's third step, "3.2" for the second step of the action the third step calls.
std::string step_number(const StepScope& scope, std::uint32_t index) {
  return scope.caller_number.empty() ? std::to_string(index + 1)
                                     : scope.caller_number + "." + std::to_string(index + 1);
}

// info.first_step: where the checkout stands, after the steps that may come before it.
void refuse_unless_checkout_first(const yaml::Node& node, std::uint32_t index,
                                  const workflow::Step& step, const StepScope& scope,
                                  WorkflowPlanning& planning, const PlannedJob& job) {
  if (scope.chain.empty() && index == scope.info.first_step &&
      (planning.registry.capabilities(step.action) & kLeading) == 0) {
    planning.findings.refuse(
        "first-step-not-checkout",
        "job " + quote(job.id) + " must begin with a checkout" +
            checkout_actions(planning.registry) +
            ", as the host's clone stands in for it; only a step whose plugin claims "
            "before-checkout (it reads and writes nothing of the worktree) may come first",
        node);
  }
}

void apply_run_defaults(const StepScope& scope, workflow::Step& step) {
  if (step.is_run() && scope.defaults != nullptr) {
    if (!step.shell && scope.defaults->shell) {
      step.shell = scope.defaults->shell;
    }
    if (!step.working_directory && scope.defaults->working_directory) {
      step.working_directory = scope.defaults->working_directory;
    }
  }
}

// The plugin is verified and loaded when a step first needs it to plan, not before: a refused
// plugin refuses the plan with its own rule, before any step runs.
const plugins::PluginLibrary* loaded_plugin(const std::string& action, WorkflowPlanning& planning) {
  auto loaded = planning.registry.plugin(action);
  if (!loaded) {
    for (const auto& r : loaded.refusals()) {
      planning.findings.add(r);
    }
    return nullptr;
  }
  return *loaded;
}

// What the step's plugin decided, and under which release (empty: as written).
struct PluginPlan {
  const plugins::PluginLibrary* plugin = nullptr;
  plugins::PlanOutcome outcome;
  std::string release;
  std::string written_ref;
};

void refuse_unreviewed_ref(const plugins::Claim& claim, const workflow::Step& step,
                           bool pinned_only, Findings& f) {
  std::string tags;
  for (const auto& r : claim.refs) {
    tags += (tags.empty() ? "" : ", ") + r.tag;
  }
  f.refuse("unreviewed-action-ref",
           fmt::format("{}@{} names no reviewed release; {}: {}", step.action, step.ref,
                       pinned_only ? "pin a full commit SHA of one of"
                                   : "name a reviewed release or its SHA, of",
                       tags),
           step.uses_location);
}

// A `uses` step: planned under the reviewed releases its ref names, once its own fields were all
// accepted (`incomplete` otherwise).
std::optional<PluginPlan> plan_action(workflow::Step& step, bool incomplete, const StepScope& scope,
                                      WorkflowPlanning& planning) {
  const plugins::Claim* claim = planning.registry.claim(step.action);
  const auto releases = releases_named(*claim, step.ref, planning.pinned_only);
  if (releases.empty()) {
    refuse_unreviewed_ref(*claim, step, planning.pinned_only, planning.findings);
    return std::nullopt;
  }
  PluginPlan out;
  if (incomplete || (out.plugin = loaded_plugin(step.action, planning)) == nullptr) {
    return std::nullopt;
  }
  out.outcome = plan_releases(*out.plugin, step, scope.info, releases, planning.findings);
  if (releases.front().sha != step.ref) {
    // The plugin executes the release the plan took, by its SHA, as it planned it.
    out.release = releases.front().tag;
    out.written_ref = step.ref;
    step.ref = releases.front().sha;
  }
  return out;
}

// A run step reaches its plugin even with a refused field: only a `uses` step waits for them.
std::optional<PluginPlan> plan_with_plugin(workflow::Step& step, bool incomplete,
                                           const StepScope& scope, WorkflowPlanning& planning) {
  if (!step.is_run()) {
    return plan_action(step, incomplete, scope, planning);
  }
  PluginPlan out;
  if ((out.plugin = loaded_plugin(step.action, planning)) == nullptr) {
    return std::nullopt;
  }
  out.outcome = plugins::plan_step(*out.plugin, step, scope.info);
  return out;
}

// A pin the resolver could not read is refused here, where the step is, not later.
void take_pins(std::vector<plugins::RuntimePin>& pins, WorkflowPlanning& planning) {
  for (auto& p : pins) {
    auto checked = resolve::pin_declarations({{p.runtime, p.version, p.location}});
    for (const auto& r : checked.refusals) {
      planning.findings.add(r);
    }
    if (p.tool_cache && p.runtime == "node") {
      // CI finds the runner's cached release first; the resolver then selects that line.
      if (auto line = tool_cache_line(p.version); line && *line != p.version) {
        p.asked = std::exchange(p.version, *line);
      }
    }
    planning.pins.push_back(std::move(p));
  }
}

PlannedStep planned_step(workflow::Step step, Condition condition, PluginPlan plan,
                         std::string number, const WorkflowPlanning& planning) {
  PlannedStep planned{std::move(step),
                      plan.plugin,
                      plan.outcome.decision == plugins::PlanOutcome::Decision::kSkip,
                      std::move(condition),
                      plan.outcome.assertion,
                      plan.outcome.fetch_depth,
                      std::move(plan.release),
                      std::move(plan.written_ref),
                      std::move(number)};
  planned.repository_files = std::move(plan.outcome.repository_files);
  if (!planned.release.empty()) {
    planned.reviewed_on = planning.registry.claim(planned.step.action)->reviewed_on;
  }
  return planned;
}

// plan_step_node, but for the plan budget.
std::optional<PlannedStep> plan_unbudgeted_step(const yaml::Node& node, std::uint32_t index,
                                                const StepScope& scope, WorkflowPlanning& planning,
                                                PlannedJob& job) {
  Findings& f = planning.findings;
  const std::size_t refused_before = f.size();
  const ValueSite site{scope.contexts, scope.value_field, true};
  auto read = read_step(node, job.id, scope.caller_index.value_or(index), site, f, scope.if_field);
  // A step whose own fields were refused reaches its plugin incomplete (a refused input is left
  // out), and the plugin would add refusals about what is missing rather than wrong.
  const bool incomplete = f.size() != refused_before;
  if (!read) {
    return std::nullopt;
  }
  workflow::Step step = std::move(read->step);
  Condition condition = std::move(read->condition);
  std::string number = step_number(scope, index);
  refuse_unless_checkout_first(node, index, step, scope, planning, job);
  apply_run_defaults(scope, step);
  if (condition.kind == Condition::Kind::kNever) {
    // Never runs (its `if:` is false at plan time): no plugin plans or executes it, so the
    // action needs no review; the plan lists it as never.
    return PlannedStep{
        std::move(step), nullptr, true, std::move(condition), "", std::nullopt, "", "", number};
  }
  if (step.is_local()) {
    if (incomplete) {
      return std::nullopt;
    }
    return plan_local_action(std::move(step), std::move(condition), number, scope, planning, job);
  }
  if (planning.registry.claim(step.action) == nullptr) {
    f.refuse(
        "unsupported-action",
        "no reviewed plugin handles " + quote(step.action) + "; the review cannot stand in for it",
        step.uses_location);
    return std::nullopt;
  }
  auto plan = plan_with_plugin(step, incomplete, scope, planning);
  if (!plan) {
    return std::nullopt;
  }
  for (auto& r : plan->outcome.refusals) {
    f.add(std::move(r));
  }
  if (plan->outcome.decision == plugins::PlanOutcome::Decision::kRefuse) {
    return std::nullopt;
  }
  take_pins(plan->outcome.pins, planning);
  if (plan->outcome.fetch_depth &&
      (planning.registry.capabilities(step.action) & REVIEWER_CAPABILITY_CHECKOUT) != 0) {
    job.fetch_depth = *plan->outcome.fetch_depth;
  }
  return planned_step(std::move(step), std::move(condition), std::move(*plan), std::move(number),
                      planning);
}

}  // namespace

std::optional<PlannedStep> plan_step_node(const yaml::Node& node, std::uint32_t index,
                                          const StepScope& scope, WorkflowPlanning& planning,
                                          PlannedJob& job) {
  if (planning.budget != nullptr && planning.budget->exceeded()) {
    return std::nullopt;  // refused once, where the bound was crossed
  }
  auto planned = plan_unbudgeted_step(node, index, scope, planning, job);
  // A local action's own steps were charged as they were planned; its caller is one more.
  if (planned &&
      !charge(planning, step_bytes(planned->step),
              text_bytes(planned->step) + planned->assertion.size() + planned->number.size(),
              "step " + planned->number + " of job " + quote(job.id), node.location)) {
    return std::nullopt;
  }
  return planned;
}

}  // namespace reviewer::plan
