#include "core/plan/job_contexts.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/expr/text_case.h"

namespace reviewer::plan {
namespace {

// Of the github context, what a pull request event fixes before any job starts. The merge
// commit's sha, refs, the repository and its owner, and the event payload are known only when
// the host describes the pull request (event_facts.h); run ids and the token are the real run's.
// `action_path` is a local composite action's directory inside it (empty elsewhere, as a run
// step of the workflow reads it on the runner).
constexpr std::array<std::string_view, 7> kKnownGithub = {
    "event_name", "base_ref", "job", "workspace", "server_url", "api_url", "action_path"};

// The runner's facts: GitHub's Linux x64 image; its temp directory is the launcher's per job.
constexpr std::array<std::string_view, 3> kKnownRunner = {"os", "arch", "environment"};

bool in(std::string_view s, const auto& list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string shown(const expr::ContextUse& use) {
  return use.property ? use.context + "." + *use.property : use.context;
}

}  // namespace

expr::Scope scope_for(Field field) {
  expr::Scope s;
  auto status = expr::status_functions();
  switch (field) {
    case Field::kWorkflowEnv:
      s.contexts = {"github", "secrets", "inputs", "vars"};
      break;
    case Field::kJobIf:
      s.contexts = {"github", "needs", "vars", "inputs"};
      s.functions = status;
      break;
    case Field::kJobValue:
      s.contexts = {"github", "needs", "strategy", "matrix", "vars", "inputs"};
      break;
    case Field::kStrategy:
      s.contexts = {"github", "needs", "vars", "inputs"};
      break;
    case Field::kJobEnv:
      s.contexts = {"github", "needs", "strategy", "matrix", "vars", "secrets", "inputs"};
      break;
    case Field::kJobOutput:
      s.contexts = {"github", "needs", "strategy", "matrix", "job",   "runner",
                    "env",    "vars",  "secrets",  "steps",  "inputs"};
      break;
    case Field::kStepIf:
      s.contexts = {"github", "needs", "strategy", "matrix", "job",
                    "runner", "env",   "vars",     "steps",  "inputs"};
      s.functions = status;
      s.functions.push_back(expr::hash_files_function());
      break;
    case Field::kStepValue:
      s.contexts = {"github", "needs", "strategy", "matrix", "job",   "runner",
                    "env",    "vars",  "secrets",  "steps",  "inputs"};
      s.functions = {expr::hash_files_function()};
      break;
    // The runner's action manifest schema (action_yaml.json): string-steps-context, step-env,
    // output-value and input-default-context.
    case Field::kActionStepIf:
      s.contexts = {"github", "inputs", "strategy", "matrix", "steps", "job", "runner", "env"};
      s.functions = status;
      s.functions.push_back(expr::hash_files_function());
      break;
    case Field::kActionStepValue:
      s.contexts = {"github", "inputs", "strategy", "matrix", "steps", "job", "runner", "env"};
      s.functions = {expr::hash_files_function()};
      break;
    case Field::kActionOutput:
      s.contexts = {"github", "strategy", "matrix", "steps", "inputs", "job", "runner", "env"};
      break;
    case Field::kActionInputDefault:
      s.contexts = {"github", "strategy", "matrix", "job", "runner"};
      s.functions = {expr::hash_files_function()};
      break;
    // GitHub's context availability table.
    case Field::kCallerWith:
      s.contexts = {"github", "needs", "strategy", "matrix", "inputs", "vars"};
      break;
    case Field::kCallerSecret:
      s.contexts = {"github", "needs", "strategy", "matrix", "secrets", "inputs", "vars"};
      break;
    case Field::kCalledInputDefault:
      s.contexts = {"github", "inputs", "vars"};
      break;
    case Field::kCalledOutput:
      s.contexts = {"github", "jobs", "vars", "inputs"};
      break;
  }
  return s;
}

namespace {

// Whether `env` (when the planner bound one) holds `name` as written: the runner's env context
// is case-sensitive on Linux, so another spelling is another variable.
bool sets_exactly(const expr::Value* env, const std::string& name) {
  if (env == nullptr || env->kind() != expr::Kind::kObject) {
    return false;
  }
  const auto& entries = env->as_object().entries();
  return std::any_of(entries.begin(), entries.end(),
                     [&name](const auto& entry) { return entry.first == name; });
}

}  // namespace

Classified classify(const expr::References& refs, const expr::Object& contexts) {
  const expr::Value* github = contexts.find("github");
  Classified out;
  auto note = [&out](Knowledge k, std::string what) {
    if (k > out.knowledge) {
      out.knowledge = k;
      out.what = std::move(what);
    }
  };
  for (const auto& use : refs.contexts) {
    const std::string c = expr::lower(use.context);
    const std::string prop = expr::lower(use.property.value_or(""));
    if (c == "matrix" || c == "strategy" || c == "inputs") {
      continue;
    }
    if (c == "github" && use.property &&
        (in(prop, kKnownGithub) || (github != nullptr && github->kind() == expr::Kind::kObject &&
                                    github->as_object().find(prop) != nullptr))) {
      continue;
    }
    if (c == "runner" && use.property && in(prop, kKnownRunner)) {
      continue;
    }
    if (c == "runner" && prop == "temp") {
      note(Knowledge::kRunTime, shown(use));
      continue;
    }
    // A fork pull request's run has no secret but the read-only GITHUB_TOKEN, which the review
    // does not have: every other named secret is empty, as there.
    if (c == "secrets" && use.property && prop != "github_token" &&
        contexts.find("secrets") != nullptr) {
      continue;
    }
    // A name the step's own env sets to a value known now (step_rules.cpp, with_step_env).
    if (c == "env" && use.property && sets_exactly(contexts.find("env"), *use.property)) {
      continue;
    }
    // `jobs` is a called workflow's jobs as they finished (its outputs only).
    if (c == "steps" || c == "needs" || c == "env" || c == "jobs" ||
        (c == "job" && prop == "status")) {
      note(Knowledge::kRunTime, shown(use));
      continue;
    }
    note(Knowledge::kUnknown, shown(use));
  }
  for (const auto& f : refs.functions) {
    if (f == "success" || f == "failure" || f == "always" || f == "cancelled" || f == "hashfiles") {
      note(Knowledge::kRunTime, f + "()");
    }
  }
  return out;
}

expr::Object plan_time_contexts(const std::string& job_id, const std::string& base,
                                const expr::Object& matrix, const StrategyFacts& strategy,
                                const expr::Object* event, bool same_repository) {
  expr::Object github;
  github.add("event_name", expr::Value::string("pull_request"));
  github.add("base_ref", expr::Value::string(base));
  github.add("job", expr::Value::string(job_id));
  github.add("workspace", expr::Value::string("/workspace"));
  github.add("server_url", expr::Value::string("https://github.com"));
  github.add("api_url", expr::Value::string("https://api.github.com"));
  if (event != nullptr) {
    for (const auto& [key, value] : event->entries()) {
      github.add(key, value);
    }
  }
  expr::Object runner;
  runner.add("os", expr::Value::string("Linux"));
  runner.add("arch", expr::Value::string("X64"));
  runner.add("environment", expr::Value::string("github-hosted"));
  expr::Object strat;
  strat.add("fail-fast", expr::Value::boolean(strategy.fail_fast));
  strat.add("job-index", expr::Value::number(static_cast<double>(strategy.index)));
  strat.add("job-total", expr::Value::number(static_cast<double>(strategy.total)));
  strat.add("max-parallel", expr::Value::number(static_cast<double>(strategy.max_parallel)));
  expr::Object contexts;
  contexts.add("github", expr::Value::object(std::move(github)));
  contexts.add("matrix", expr::Value::object(matrix));
  contexts.add("strategy", expr::Value::object(std::move(strat)));
  contexts.add("runner", expr::Value::object(std::move(runner)));
  if (!same_repository) {
    contexts.add("secrets", expr::Value::object(expr::Object{}));
  }
  contexts.add("inputs", expr::Value::object(expr::Object{}));
  return contexts;
}

}  // namespace reviewer::plan
