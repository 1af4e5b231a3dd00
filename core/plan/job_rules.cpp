#include "core/plan/job_rules.h"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <optional>

#include "core/plan/env_rules.h"
#include "core/plan/needs.h"
#include "core/plan/step_rules.h"
#include "core/workflow/expression.h"

namespace reviewer::plan {
namespace {

struct JobKeyRule {
  const char* key;
  const char* rule;  // nullptr: accepted
  const char* why;
};

constexpr std::array kJobKeys = {
    JobKeyRule{"name", nullptr, ""},
    JobKeyRule{"runs-on", nullptr, ""},
    JobKeyRule{"needs", nullptr, ""},
    JobKeyRule{"steps", nullptr, ""},
    JobKeyRule{"env", nullptr, ""},
    JobKeyRule{"defaults", nullptr, ""},
    JobKeyRule{"timeout-minutes", nullptr, ""},
    JobKeyRule{"if", nullptr, ""},
    JobKeyRule{"permissions", nullptr, ""},
    JobKeyRule{"concurrency", nullptr, ""},
    JobKeyRule{"strategy", nullptr, ""},  // check_strategy()
    JobKeyRule{"container", "container-job", "jobs in a container need a container engine"},
    JobKeyRule{"services", "services-job", "service containers need a container engine"},
    JobKeyRule{"continue-on-error", "continue-on-error",
               "a tolerated failure cannot be told from a pass"},
    JobKeyRule{"uses", "reusable-workflow", "reusable workflows run another workflow's jobs"},
    JobKeyRule{"with", "reusable-workflow", "reusable workflows run another workflow's jobs"},
    JobKeyRule{"secrets", "job-secrets", "the review has no secrets"},
    JobKeyRule{"environment", "job-environment",
               "deployment environments carry protection rules and secrets"},
    JobKeyRule{"outputs", "job-outputs", "job outputs are expressions the review cannot evaluate"},
};

void check_runs_on(const yaml::Node* runs_on, const yaml::Node& job, Findings& f) {
  if (runs_on == nullptr) {
    f.refuse("runner-label", "the job has no 'runs-on'", job);
    return;
  }
  const yaml::Node* label = runs_on;
  if (runs_on->is_sequence() && runs_on->items.size() == 1) {
    label = &runs_on->items[0];
  }
  if (!label->is_scalar()) {
    f.refuse("runner-label", "'runs-on' must be ubuntu-latest or ubuntu-24.04 (one label)",
             *runs_on);
    return;
  }
  if (workflow::contains_expression(label->scalar)) {
    f.refuse("expression-in-runs-on", "'runs-on' holds an expression: " + quote(label->scalar),
             *label);
  } else if (label->scalar != "ubuntu-latest" && label->scalar != "ubuntu-24.04") {
    f.refuse("runner-label",
             "'runs-on' is " + quote(label->scalar) +
                 "; only ubuntu-latest and ubuntu-24.04 match the review image",
             *label);
  }
}

// `strategy` without a matrix changes nothing for one run (`fail-fast` and `max-parallel` only
// govern matrix variants); a matrix runs the job in several variants, the review runs one.
void check_strategy(const std::string& id, const yaml::Node& strategy, Findings& f) {
  if (!strategy.is_mapping()) {
    f.refuse("matrix-job", "job " + quote(id) + " 'strategy' must be a mapping", strategy);
    return;
  }
  for (const auto& [key, value] : strategy.entries) {
    if (key.scalar == "matrix") {
      f.refuse("matrix-job",
               "job " + quote(id) +
                   " uses 'strategy.matrix': a matrix runs the job in several "
                   "variants and the review runs exactly one",
               key);
    } else if (key.scalar != "fail-fast" && key.scalar != "max-parallel") {
      f.refuse("matrix-job",
               "job " + quote(id) + " 'strategy." + key.scalar + "' is not understood", key);
    } else if (!value.is_scalar() || workflow::contains_expression(value.scalar)) {
      f.refuse("matrix-job",
               "job " + quote(id) + " 'strategy." + key.scalar + "' must be a literal value",
               value);
    }
  }
}

// Display-only and CI-side fields: accepted whatever they say (expressions included, since the
// review never evaluates them), but they must have the shape GitHub accepts.
void check_shapes(const std::string& id, const yaml::Node& job, Findings& f) {
  if (const yaml::Node* name = job.find("name"); name != nullptr && !name->is_scalar()) {
    f.refuse("invalid-job", "job " + quote(id) + " 'name' must be a string", *name);
  } else if (name != nullptr && util::has_control_character(name->scalar)) {
    f.refuse("control-character-in-name",
             "job " + quote(id) + " name " + quote(name->scalar) +
                 " holds a control character; the launcher prints names in its log and verdict, "
                 "where a line break or escape could pass for another line",
             *name);
  }
  for (const char* key : {"permissions", "concurrency"}) {
    const yaml::Node* v = job.find(key);
    if (v != nullptr && !v->is_scalar() && !v->is_mapping()) {
      f.refuse("invalid-job", "job " + quote(id) + " '" + key + "' must be a string or a mapping",
               *v);
    }
  }
}

}  // namespace

void read_defaults(const yaml::Node& owner, const std::string& where, WorkflowDefaults& into,
                   Findings& f) {
  const yaml::Node* defaults = owner.find("defaults");
  if (defaults == nullptr) {
    return;
  }
  if (!defaults->is_mapping()) {
    f.refuse("invalid-defaults", where + " 'defaults' must be a mapping", *defaults);
    return;
  }
  for (const auto& [key, value] : defaults->entries) {
    if (key.scalar != "run") {
      f.refuse("invalid-defaults", where + " 'defaults." + key.scalar + "' is not understood", key);
      continue;
    }
    if (!value.is_mapping()) {
      f.refuse("invalid-defaults", where + " 'defaults.run' must be a mapping", value);
      continue;
    }
    for (const auto& [k, v] : value.entries) {
      if (k.scalar == "shell") {
        if (!v.is_scalar() || v.scalar != "bash") {
          f.refuse("non-bash-shell", where + " 'defaults.run.shell' must be bash", v);
        } else {
          into.shell = "bash";
        }
      } else if (k.scalar == "working-directory") {
        if (check_working_directory(v, where + " 'defaults.run.working-directory'", f)) {
          into.working_directory = v.scalar;
        }
      } else {
        f.refuse("invalid-defaults", where + " 'defaults.run." + k.scalar + "' is not understood",
                 k);
      }
    }
  }
}

PlannedJob plan_job(const std::string& id, const yaml::Node& job, const WorkflowDefaults& wf,
                    WorkflowPlanning& planning) {
  Findings& f = planning.findings;
  PlannedJob out;
  out.id = id;
  out.location = job.location;
  if (!job.is_mapping()) {
    f.refuse("invalid-job", "job " + quote(id) + " must be a mapping", job);
    return out;
  }
  // A job calling a reusable workflow has no runner or steps of its own: one refusal says it.
  const bool reusable = job.find("uses") != nullptr;
  for (const auto& [key, value] : job.entries) {
    auto rule = std::find_if(kJobKeys.begin(), kJobKeys.end(),
                             [&k = key](const JobKeyRule& r) { return k.scalar == r.key; });
    if (rule == kJobKeys.end()) {
      f.refuse("unknown-job-key", "job key " + quote(key.scalar) + " is not understood", key);
    } else if (rule->rule != nullptr && !(reusable && key.scalar == "with")) {
      f.refuse(rule->rule, fmt::format("job '{}' uses '{}': {}", id, rule->key, rule->why), key);
    }
  }
  if (reusable) {
    return out;
  }
  for (auto& n : read_needs(job, nullptr)) {
    out.needs.push_back(declared_job_id(planning.jobs, n.job));
  }
  check_shapes(id, job, f);
  if (const yaml::Node* strategy = job.find("strategy")) {
    check_strategy(id, *strategy, f);
  }
  check_runs_on(job.find("runs-on"), job, f);
  if (const yaml::Node* t = job.find("timeout-minutes")) {
    if (auto minutes = read_timeout(*t, "job 'timeout-minutes'", f)) {
      // A GitHub-hosted runner stops any job at 360 minutes whatever it asks for.
      out.timeout_minutes = std::min(*minutes, kDefaultJobTimeoutMinutes);
      if (*minutes > kDefaultJobTimeoutMinutes) {
        out.timeout_minutes_written = *minutes;
      }
    }
  }
  if (const yaml::Node* cond = job.find("if")) {
    const auto gate = cond->is_scalar() ? workflow::parse_gate(cond->scalar) : std::nullopt;
    if (!gate) {
      f.refuse("job-condition",
               "job 'if' must be exactly success() or always(), got " +
                   quote(cond->is_scalar() ? cond->scalar : "(not a string)"),
               *cond);
    } else {
      out.always = *gate == workflow::Gate::kAlways;
    }
  }
  WorkflowDefaults d = wf;
  read_defaults(job, "job", d, f);
  if (const yaml::Node* env = job.find("env")) {
    out.env = overlay_env(d.env, read_env(*env, "job", f));
  } else {
    out.env = d.env;
  }
  const yaml::Node* steps = job.find("steps");
  if (steps != nullptr && !steps->is_sequence() && !steps->is_null()) {
    f.refuse("invalid-job", "job " + quote(id) + " 'steps' must be a list of steps", *steps);
    return out;
  }
  if (steps == nullptr || steps->items.empty()) {
    f.refuse("job-without-steps", "job " + quote(id) + " has no steps", job);
    return out;
  }
  plugins::JobInfo info{id, planning.file, static_cast<std::uint32_t>(steps->items.size()),
                        &planning.view};
  for (std::uint32_t i = 0; i < steps->items.size(); ++i) {
    const std::size_t refused_before = f.size();
    auto step = read_step(steps->items[i], id, i, f);
    // A step whose own fields were refused reaches its plugin incomplete (a refused input is
    // left out), and the plugin would add refusals about what is missing rather than wrong.
    const bool incomplete = f.size() != refused_before;
    if (!step) {
      continue;
    }
    if (i == 0 && step->action != "actions/checkout") {
      f.refuse("first-step-not-checkout",
               "job " + quote(id) +
                   " must begin with actions/checkout, as the host's clone "
                   "stands in for it",
               steps->items[i]);
    }
    if (step->is_run()) {
      if (!step->shell && d.shell) {
        step->shell = d.shell;
      }
      if (!step->working_directory && d.working_directory) {
        step->working_directory = d.working_directory;
      }
    }
    const plugins::PluginLibrary* plugin = planning.registry.find(step->action);
    if (plugin == nullptr) {
      f.refuse("unsupported-action",
               "no reviewed plugin handles " + quote(step->action) +
                   "; the review cannot stand in for it",
               step->uses_location);
      continue;
    }
    if (!step->is_run()) {
      const plugins::Claim* claim = planning.registry.claim(step->action);
      bool reviewed =
          std::any_of(claim->refs.begin(), claim->refs.end(),
                      [&](const plugins::ReviewedRef& r) { return r.sha == step->ref; });
      if (!reviewed) {
        std::string tags;
        for (const auto& r : claim->refs) {
          tags += (tags.empty() ? "" : ", ") + r.tag;
        }
        f.refuse("unreviewed-action-ref",
                 fmt::format("{}@{} is not a reviewed commit; pin a full commit SHA of one of: {}",
                             step->action, step->ref, tags),
                 step->uses_location);
        continue;
      }
    }
    if (incomplete && !step->is_run()) {
      continue;
    }
    auto outcome = plugins::plan_step(*plugin, *step, info);
    for (auto& r : outcome.refusals) {
      f.add(std::move(r));
    }
    if (outcome.decision == plugins::PlanOutcome::Decision::kRefuse) {
      continue;
    }
    for (auto& p : outcome.pins) {
      planning.pins.push_back(std::move(p));
    }
    if (outcome.fetch_depth && step->action == "actions/checkout") {
      out.fetch_depth = *outcome.fetch_depth;
    }
    // Decided here, once: the launcher gates the step on this flag, never on the `if:` text.
    const bool always =
        step->if_condition && workflow::parse_gate(*step->if_condition) == workflow::Gate::kAlways;
    out.steps.push_back(PlannedStep{std::move(*step), plugin,
                                    outcome.decision == plugins::PlanOutcome::Decision::kSkip,
                                    always, outcome.assertion, outcome.fetch_depth});
  }
  return out;
}

}  // namespace reviewer::plan
