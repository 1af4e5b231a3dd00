#include "core/plan/job_rules.h"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <optional>

#include "core/plan/called_workflow.h"
#include "core/plan/env_rules.h"
#include "core/plan/expression_fields.h"
#include "core/plan/matrix.h"
#include "core/plan/needs.h"
#include "core/plan/plan_budget.h"
#include "core/plan/runner_image.h"
#include "core/plan/step_dispatch.h"
#include "core/plan/step_rules.h"
#include "core/plan/yaml_value.h"
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
               "a job's tolerated failure cannot be told from a pass in one verdict"},
    JobKeyRule{"uses", nullptr, ""},  // plan_call()
    JobKeyRule{"with", "reusable-workflow-call", "'with' belongs to a job that calls a workflow"},
    JobKeyRule{"secrets", "job-secrets", "the review has no secrets"},
    JobKeyRule{"environment", "job-environment",
               "deployment environments carry protection rules and secrets"},
    JobKeyRule{"outputs", nullptr, ""},
};

// The runner-label rule: the job must run on kRunnerImage. Returns where its label is written, or
// nullopt (refused).
std::optional<util::SourceLocation> check_runs_on(const yaml::Node* runs_on, const yaml::Node& job,
                                                  const ValueSite& site, Findings& f) {
  if (runs_on == nullptr) {
    f.refuse("runner-label", "the job has no 'runs-on'", job);
    return std::nullopt;
  }
  const yaml::Node* label = runs_on;
  if (runs_on->is_sequence() && runs_on->items.size() == 1) {
    label = &runs_on->items[0];
  }
  if (!label->is_scalar()) {
    f.refuse("runner-label",
             fmt::format("'runs-on' must be {} or {} (one label)", kRunnerImage.labels[0],
                         kRunnerImage.labels[1]),
             *runs_on);
    return std::nullopt;
  }
  std::string value = label->scalar;
  if (workflow::contains_expression(value)) {
    auto v = read_field(value, site.field, site.contexts, false, "'runs-on'", label->location, f);
    if (!v) {
      return std::nullopt;
    }
    value = v->value->coerce_string();
  }
  if (!is_runner_label(value)) {
    f.refuse("runner-label",
             fmt::format("'runs-on' is {}; only {} and {} match the review image", quote(value),
                         kRunnerImage.labels[0], kRunnerImage.labels[1]),
             *label);
    return std::nullopt;
  }
  return label->location;
}

// `strategy`: `fail-fast` and `max-parallel` govern only how CI schedules the variants; the
// matrix makes the variants, of which the review runs the one the host chose.
struct Strategy {
  expr::Object matrix;
  std::string label;
  StrategyFacts facts;
};

// `fail-fast` and `max-parallel` into `out`; false when a key is refused. `matrix` is read apart.
bool read_scheduling_keys(const std::string& id, const yaml::Node& strategy, Strategy& out,
                          std::optional<std::size_t>& max_parallel, Findings& f) {
  bool ok = true;
  for (const auto& [key, value] : strategy.entries) {
    if (key.scalar == "matrix") {
      continue;
    }
    if (key.scalar != "fail-fast" && key.scalar != "max-parallel") {
      f.refuse("matrix-job",
               "job " + quote(id) + " 'strategy." + key.scalar + "' is not understood", key);
      ok = false;
    } else if (!value.is_scalar() || workflow::contains_expression(value.scalar)) {
      f.refuse("matrix-job",
               "job " + quote(id) + " 'strategy." + key.scalar + "' must be a literal value",
               value);
      ok = false;
    } else if (key.scalar == "fail-fast") {
      out.facts.fail_fast = value.scalar != "false";
    } else if (auto n = std::strtoul(value.scalar.c_str(), nullptr, 10); n > 0) {
      max_parallel = n;
    }
  }
  return ok;
}

// A matrix value that is an expression (`${{ fromJSON('[22, 24]') }}`, `${{ inputs.os }}`) is
// evaluated here when its value is known before the run; one computed from `needs` is not. The
// value returned is an object.
std::optional<expr::Value> matrix_value(const std::string& id, const yaml::Node& m,
                                        const WorkflowPlanning& planning, Findings& f) {
  expr::Object contexts =
      plan_time_contexts(id, planning.base, {}, {}, planning.event, planning.same_repository);
  if (planning.call != nullptr) {
    contexts = in_call(contexts, *planning.call);
  }
  const ScalarEvaluator evaluate = [&](const yaml::Node& n) -> util::Result<expr::Value> {
    Findings local;
    auto v =
        read_field(n.scalar, Field::kStrategy, contexts, true, "the expression", n.location, local);
    if (!v) {
      return local.take();
    }
    if (v->run_time) {
      return util::refusal("expression-in-matrix",
                           quote(n.scalar) +
                               " is computed while the run goes (it reads needs); a matrix known "
                               "only then is not reproduced",
                           n.location);
    }
    return *v->value;
  };
  auto as_value = to_expression_value(m, &evaluate);
  if (!as_value) {
    for (auto r : as_value.refusals()) {
      f.refuse(r.rule, "job " + quote(id) + " matrix: " + r.message,
               r.location.value_or(m.location));
    }
    return std::nullopt;
  }
  if (as_value->kind() != expr::Kind::kObject) {
    f.refuse("matrix-invalid", "job " + quote(id) + " 'strategy.matrix' must be a mapping", m);
    return std::nullopt;
  }
  return std::move(as_value).value();
}

// A job the named one needs runs in every variant on CI, and the named one waits for all of
// them: one variant cannot stand in for that. False (refused) for such a job of several.
bool one_variant_stands_for_all(const std::string& id, std::size_t variants, bool named,
                                const yaml::Node& m, const WorkflowPlanning& planning,
                                Findings& f) {
  if (planning.call != nullptr && variants > 1) {
    f.refuse("matrix-in-needed-job",
             "job " + quote(id) + " of the called workflow " + quote(planning.file) + " runs " +
                 std::to_string(variants) +
                 " matrix variants on CI, all of which must succeed; the review runs one job "
                 "variant, of the named job only",
             m);
    return false;
  }
  if (!named && variants > 1) {
    f.refuse("matrix-in-needed-job",
             "job " + quote(id) + " is needed by " + quote(planning.job) + " and runs " +
                 std::to_string(variants) +
                 " matrix variants on CI, all of which must succeed; the review runs one job "
                 "variant, of the named job only",
             m);
    return false;
  }
  return true;
}

// The matrix's variant the review runs, into `out`; false when refused.
bool choose_variant(const std::string& id, const yaml::Node& m,
                    std::optional<std::size_t> max_parallel, const WorkflowPlanning& planning,
                    Strategy& out, Findings& f) {
  const auto matrix = matrix_value(id, m, planning, f);
  if (!matrix) {
    return false;
  }
  auto combinations = expand_matrix(matrix->as_object());
  if (!combinations) {
    f.refuse(combinations.error().rule, "job " + quote(id) + ": " + combinations.error().message,
             m);
    return false;
  }
  const bool named = id == planning.job && planning.call == nullptr;
  if (!one_variant_stands_for_all(id, combinations->size(), named, m, planning, f)) {
    return false;
  }
  auto chosen =
      choose_combination(*combinations, named ? planning.matrix_choice
                                              : std::vector<std::pair<std::string, std::string>>{});
  if (!chosen) {
    f.refuse(chosen.error().rule, "job " + quote(id) + ": " + chosen.error().message, m);
    return false;
  }
  out.facts.index = chosen->index;
  out.facts.total = combinations->size();
  out.facts.max_parallel = max_parallel.value_or(combinations->size());
  out.label = chosen->label();
  out.matrix = chosen->values;
  return true;
}

std::optional<Strategy> read_strategy(const std::string& id, const yaml::Node* strategy,
                                      const WorkflowPlanning& planning, Findings& f) {
  Strategy out;
  if (strategy == nullptr) {
    return out;
  }
  if (!strategy->is_mapping()) {
    f.refuse("matrix-job", "job " + quote(id) + " 'strategy' must be a mapping", *strategy);
    return std::nullopt;
  }
  std::optional<std::size_t> max_parallel;
  const bool ok = read_scheduling_keys(id, *strategy, out, max_parallel, f);
  const yaml::Node* m = strategy->find("matrix");
  if (m == nullptr || !ok) {
    return ok ? std::optional<Strategy>(out) : std::nullopt;
  }
  if (!choose_variant(id, *m, max_parallel, planning, out, f)) {
    return std::nullopt;
  }
  return out;
}

// `outputs:` name -> value, evaluated by the launcher once the job has run (they read steps).
void read_outputs(const std::string& id, const yaml::Node& outputs, PlannedJob& out, Findings& f) {
  if (!outputs.is_mapping()) {
    f.refuse("invalid-job", "job " + quote(id) + " 'outputs' must be a mapping", outputs);
    return;
  }
  for (const auto& [key, value] : outputs.entries) {
    if (!value.is_scalar()) {
      f.refuse("invalid-job",
               "job " + quote(id) + " output " + quote(key.scalar) + " must be a string", value);
      continue;
    }
    auto v = read_field(value.scalar, Field::kJobOutput, out.contexts, true,
                        "job " + quote(id) + " output " + quote(key.scalar), value.location, f);
    if (v) {
      out.outputs.push_back({key.scalar, v->run_time ? value.scalar : v->value->coerce_string(),
                             key.location, v->run_time});
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

// A job calling a reusable workflow has no runner or steps of its own, and only the keys
// GitHub allows there.
void refuse_job_keys(const std::string& id, const yaml::Node& job, bool reusable, Findings& f) {
  for (const auto& [key, value] : job.entries) {
    auto rule = std::find_if(kJobKeys.begin(), kJobKeys.end(),
                             [&k = key](const JobKeyRule& r) { return k.scalar == r.key; });
    if (rule == kJobKeys.end() && !(reusable && key.scalar == "with")) {
      f.refuse("unknown-job-key", "job key " + quote(key.scalar) + " is not understood", key);
    } else if (reusable && !is_caller_job_key(key.scalar)) {
      f.refuse("reusable-workflow-call",
               fmt::format("job '{}' calls a reusable workflow, where '{}' is not allowed (only "
                           "name, uses, with, secrets, strategy, needs, if, concurrency and "
                           "permissions); GitHub rejects the workflow",
                           id, key.scalar),
               key);
    } else if (!reusable && rule->rule != nullptr) {
      f.refuse(rule->rule, fmt::format("job '{}' uses '{}': {}", id, rule->key, rule->why), key);
    }
  }
}

// What the job's expressions read at plan time: its matrix variant's values, and inside a called
// workflow, the call's inputs and secrets.
expr::Object job_contexts(const std::string& id, const Strategy& strategy,
                          const WorkflowPlanning& planning) {
  expr::Object contexts = plan_time_contexts(id, planning.base, strategy.matrix, strategy.facts,
                                             planning.event, planning.same_repository);
  if (planning.call != nullptr) {
    contexts = in_call(contexts, *planning.call);
  }
  return contexts;
}

void read_job_condition(const yaml::Node& job, PlannedJob& out, Findings& f) {
  if (const yaml::Node* cond = job.find("if")) {
    if (!cond->is_scalar()) {
      f.refuse("job-condition", "job 'if' must be a string", *cond);
    } else if (auto c = read_condition(cond->scalar, Field::kJobIf, out.contexts, "job 'if'",
                                       cond->location, f)) {
      out.condition = std::move(*c);
    }
  }
}

void read_job_timeout(const yaml::Node& job, PlannedJob& out, Findings& f) {
  if (const yaml::Node* t = job.find("timeout-minutes")) {
    if (auto minutes = read_timeout(*t, "job 'timeout-minutes'", f)) {
      // A GitHub-hosted runner stops any job at 360 minutes whatever it asks for.
      out.timeout_minutes = std::min(*minutes, kDefaultJobTimeoutMinutes);
      if (*minutes > kDefaultJobTimeoutMinutes) {
        out.timeout_minutes_written = *minutes;
      }
    }
  }
}

// The job's env over the workflow's, into out.env; false once the plan budget is exceeded.
bool read_job_env(const std::string& id, const yaml::Node& job, const WorkflowDefaults& wf,
                  WorkflowPlanning& planning, PlannedJob& out) {
  std::vector<workflow::Entry> job_env;
  if (const yaml::Node* env = job.find("env")) {
    // A job's env may read `needs`: the launcher evaluates it when the job starts, as the runner.
    job_env = read_env(*env, "job", {out.contexts, Field::kJobEnv, true}, planning.findings);
  }
  // Charged before the copy: every job of a long `needs` chain copies the workflow env.
  if (!charge(planning, entry_bytes(wf.env) + entry_bytes(job_env),
              text_bytes(wf.env) + text_bytes(job_env), "job " + quote(id), job.location)) {
    return false;
  }
  out.env = overlay_env(wf.env, job_env);
  return true;
}

// The job's `steps`, a list of at least one; nullptr when refused.
const yaml::Node* job_steps(const std::string& id, const yaml::Node& job, Findings& f) {
  const yaml::Node* steps = job.find("steps");
  if (steps != nullptr && !steps->is_sequence() && !steps->is_null()) {
    f.refuse("invalid-job", "job " + quote(id) + " 'steps' must be a list of steps", *steps);
    return nullptr;
  }
  if (steps == nullptr || steps->items.empty()) {
    f.refuse("job-without-steps", "job " + quote(id) + " has no steps", job);
    return nullptr;
  }
  return steps;
}

// Plans each step into out.steps; false when the plan budget stopped it.
bool plan_steps(const std::string& id, const yaml::Node& steps, const WorkflowDefaults& defaults,
                WorkflowPlanning& planning, PlannedJob& out) {
  plugins::JobInfo info{id,
                        planning.file,
                        static_cast<std::uint32_t>(steps.items.size()),
                        &planning.view,
                        std::nullopt,
                        planning.repository_files};
  if (planning.earlier_jobs != nullptr) {
    info.earlier_jobs = planning.earlier_jobs->of(id);
  }
  const StepScope scope{out.contexts, Field::kStepValue, Field::kStepIf, info, &defaults};
  out.steps.reserve(steps.items.size());  // growing by doubling held twice the steps at once
  for (std::uint32_t i = 0; i < steps.items.size(); ++i) {
    if (planning.budget != nullptr && planning.budget->exceeded()) {
      return false;
    }
    if (auto planned = plan_step_node(steps.items[i], i, scope, planning, out)) {
      // A step that stands before the checkout moves the checkout's place on by one.
      if (i == info.first_step && (planning.registry.capabilities(planned->step.action) &
                                   REVIEWER_CAPABILITY_BEFORE_CHECKOUT) != 0) {
        ++info.first_step;
      }
      out.steps.push_back(std::move(*planned));
    }
  }
  return true;
}

// On CI a job whose steps (its local actions' included) select no Node runs the runner's own,
// and the resolver must know that of each such job: its pin stands for it.
void pin_runner_node(std::size_t pins_before, const std::optional<util::SourceLocation>& runs_on,
                     WorkflowPlanning& planning) {
  const bool pins_node =
      std::any_of(planning.pins.begin() + static_cast<std::ptrdiff_t>(pins_before),
                  planning.pins.end(), [](const auto& p) { return p.runtime == "node"; });
  if (!pins_node && runs_on) {
    planning.pins.push_back(runner_default_node(*runs_on));
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

bool charge(WorkflowPlanning& planning, std::size_t bytes, std::size_t text,
            const std::string& what, const util::SourceLocation& where) {
  return planning.budget == nullptr || planning.budget->charge(bytes, text, what, where);
}

PlannedJob plan_job(const std::string& id, const yaml::Node& job, const WorkflowDefaults& wf,
                    WorkflowPlanning& planning) {
  Findings& f = planning.findings;
  PlannedJob out;
  out.id = id;
  out.location = job.location;
  if (planning.budget != nullptr && planning.budget->exceeded()) {
    return out;
  }
  if (!job.is_mapping()) {
    f.refuse("invalid-job", "job " + quote(id) + " must be a mapping", job);
    return out;
  }
  const bool reusable = job.find("uses") != nullptr;
  refuse_job_keys(id, job, reusable, f);
  for (auto& n : read_needs(job, nullptr)) {
    out.needs.push_back(declared_job_id(planning.jobs, n.job));
  }
  check_shapes(id, job, f);
  auto strategy = read_strategy(id, job.find("strategy"), planning, f);
  if (!strategy) {
    return out;
  }
  out.matrix_label = strategy->label;
  if (!charge(planning, kJobBytes, out.matrix_label.size(), "job " + quote(id), job.location)) {
    return out;
  }
  out.contexts = job_contexts(id, *strategy, planning);
  if (reusable) {
    read_job_condition(job, out, f);
    plan_call(job, out, planning);
    return out;
  }
  const ValueSite job_site{out.contexts, Field::kJobValue, false};
  const auto runs_on = check_runs_on(job.find("runs-on"), job, job_site, f);
  read_job_timeout(job, out, f);
  read_job_condition(job, out, f);
  if (const yaml::Node* outputs = job.find("outputs")) {
    read_outputs(id, *outputs, out, f);
  }
  // The steps read the run defaults only; the env is copied once, into the job.
  WorkflowDefaults d{{}, wf.shell, wf.working_directory};
  read_defaults(job, "job", d, f);
  if (!read_job_env(id, job, wf, planning, out)) {
    return out;
  }
  const yaml::Node* steps = job_steps(id, job, f);
  if (steps == nullptr) {
    return out;
  }
  const std::size_t pins_before = planning.pins.size();
  if (plan_steps(id, *steps, d, planning, out)) {
    pin_runner_node(pins_before, runs_on, planning);
  }
  return out;
}

}  // namespace reviewer::plan
