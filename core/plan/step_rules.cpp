#include "core/plan/step_rules.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/expr/text_case.h"
#include "core/plan/env_rules.h"
#include "core/util/text.h"
#include "core/workflow/expression.h"
#include "core/workflow/scalar_typing.h"
#include "core/workflow/uses.h"

namespace reviewer::plan {
namespace {

// `${{ secrets.GITHUB_TOKEN }}` or `${{ github.token }}` and nothing else (names in any case, as
// the expression language reads them): the run's token, which a fork pull request's run has too.
bool is_run_token(std::string_view text) {
  text = util::trim(text, " \t");
  if (!text.starts_with("${{") || !text.ends_with("}}") || text.size() < 5) {
    return false;
  }
  std::string inner(util::trim(text.substr(3, text.size() - 5), " \t"));
  std::transform(inner.begin(), inner.end(), inner.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return inner == "secrets.github_token" || inner == "github.token";
}

constexpr std::array kStepKeys = {"id",
                                  "name",
                                  "uses",
                                  "run",
                                  "with",
                                  "env",
                                  "if",
                                  "shell",
                                  "working-directory",
                                  "timeout-minutes",
                                  "continue-on-error"};

const yaml::Node* scalar_or_refuse(const yaml::Node& n, const std::string& what, Findings& f) {
  if (!n.is_scalar()) {
    f.refuse("invalid-step", what + " must be a string", n);
    return nullptr;
  }
  return &n;
}

void read_uses(const yaml::Node& uses, workflow::Step& step, Findings& f) {
  const std::string& u = uses.scalar;
  step.uses_location = uses.location;
  if (workflow::contains_expression(u)) {
    f.refuse("expression-in-uses", "'uses' holds an expression: " + quote(u), uses);
    return;
  }
  if (u.starts_with("docker://")) {
    f.refuse("docker-action", "docker actions cannot be reproduced in the sandbox: " + quote(u),
             uses);
    return;
  }
  if (u.starts_with("./") || u.starts_with("../")) {
    // A local action: its file is read and its steps inlined by the caller (local_action.h).
    step.action = u;
    return;
  }
  auto at = u.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == u.size()) {
    f.refuse("unreviewed-action-ref", "'uses' names no ref: " + quote(u), uses);
    return;
  }
  // An action is owner/repo[/path]; anything else (`run@v1` would otherwise reach the run
  // plugin as an empty script) names no action GitHub could fetch.
  const workflow::UsesRef split = workflow::split_uses(u);
  const std::string& action = split.action;
  const auto slash = action.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == action.size()) {
    f.refuse("unsupported-action",
             "'uses' must name an action as owner/repo[/path]@ref, got " + quote(u), uses);
    return;
  }
  step.action = action;
  step.ref = split.ref;
}

}  // namespace

bool is_step_key(std::string_view key, bool in_composite_action) {
  if (in_composite_action && key == "timeout-minutes") {
    return false;
  }
  return std::find(kStepKeys.begin(), kStepKeys.end(), key) != kStepKeys.end();
}

std::optional<std::int64_t> read_timeout(const yaml::Node& value, const std::string& what,
                                         Findings& f) {
  if (value.is_scalar() && workflow::contains_expression(value.scalar)) {
    f.refuse("expression-in-timeout", what + " holds an expression: " + quote(value.scalar), value);
    return std::nullopt;
  }
  const std::string s = value.is_scalar() && value.plain ? value.scalar : std::string();
  // No leading zero: YAML 1.1 readers take 010 as octal 8, YAML 1.2 readers as 10.
  bool digits = !s.empty() && s.size() <= 6 && s[0] != '0' &&
                std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits) {
    f.refuse("invalid-timeout",
             what + " must be a positive whole number of minutes, got " +
                 quote(value.is_scalar() ? value.scalar : std::string("(not a number)")),
             value);
    return std::nullopt;
  }
  return std::stoll(s);
}

bool check_working_directory(const yaml::Node& value, const std::string& what, Findings& f) {
  if (!value.is_scalar()) {
    f.refuse("invalid-working-directory", what + " must be a string", value);
    return false;
  }
  const std::string& wd = value.scalar;
  if (workflow::contains_expression(wd)) {
    f.refuse("expression-in-working-directory", what + " holds an expression: " + quote(wd), value);
    return false;
  }
  bool escapes = wd.starts_with("/") || wd.starts_with("~");
  std::size_t start = 0;
  while (!escapes && start <= wd.size()) {
    auto end = wd.find('/', start);
    if (wd.substr(start, end == std::string::npos ? std::string::npos : end - start) == "..") {
      escapes = true;
    }
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  if (escapes || wd.find('\0') != std::string::npos) {
    f.refuse("working-directory-outside",
             what + " " + quote(wd) + " must be a relative path inside the worktree", value);
    return false;
  }
  return true;
}

std::optional<bool> read_continue_on_error(const yaml::Node& value, const ValueSite& site,
                                           Findings& f) {
  if (value.is_scalar() && value.plain && !workflow::contains_expression(value.scalar)) {
    for (const char* t : {"true", "True", "TRUE"}) {
      if (value.scalar == t) {
        return true;
      }
    }
    for (const char* t : {"false", "False", "FALSE"}) {
      if (value.scalar == t) {
        return false;
      }
    }
  }
  if (value.is_scalar() && workflow::contains_expression(value.scalar)) {
    auto v = read_field(value.scalar, site.field, site.contexts, false, "'continue-on-error'",
                        value.location, f);
    if (!v) {
      return std::nullopt;
    }
    if (v->value->kind() == expr::Kind::kBoolean) {
      return v->value->as_boolean();
    }
  }
  f.refuse("invalid-continue-on-error",
           "'continue-on-error' must be a boolean, got " +
               quote(value.is_scalar() ? value.scalar : std::string("(not a scalar)")),
           value);
  return std::nullopt;
}

namespace {

// The contexts of the step's `if` and inputs: `env` holds what the step's own env (`entries`)
// sets to a value known now. The runner merges the step's env into `env` last, over the
// workflow's, the job's and whatever GITHUB_ENV set, before it evaluates those (StepsRunner), so
// such a name reads the same on CI whatever earlier steps did. Other names stay the run's
// (job_contexts.h). A script keeps reading `env` when it runs: the launcher evaluates it then,
// and an expression that fails there fails the step, as on CI, where the planner could only
// refuse.
expr::Object with_step_env(const std::vector<workflow::Entry>& entries,
                           const expr::Object& contexts) {
  if (entries.empty()) {
    return contexts;
  }
  // Names are looked up without regard to case here but not by the runner on Linux: a name
  // written in two spellings is left to the run.
  auto spellings = [&entries](const std::string& name) {
    return std::count_if(entries.begin(), entries.end(), [&name](const workflow::Entry& e) {
      return expr::lower(e.name) == expr::lower(name);
    });
  };
  expr::Object known;
  for (const auto& e : entries) {
    if (!e.run_time && !e.run_token && spellings(e.name) == 1) {
      known.add(e.name, expr::Value::string(e.value));
    }
  }
  return contexts.with("env", expr::Value::object(std::move(known)));
}

void refuse_unknown_step_keys(const yaml::Node& node, Findings& f) {
  for (const auto& [key, value] : node.entries) {
    const std::string& k = key.scalar;
    if (!is_step_key(k, false)) {
      f.refuse("unknown-step-key", "step key " + quote(k) + " is not understood", key);
    }
  }
}

// Whether the step names exactly one of `uses` and `run`, what decides which plugin takes it.
bool names_one_action(const yaml::Node& node, Findings& f) {
  const yaml::Node* uses = node.find("uses");
  const yaml::Node* run = node.find("run");
  if (uses != nullptr && run != nullptr) {
    f.refuse("step-uses-and-run", "a step has exactly one of 'uses' and 'run'", node);
    return false;
  }
  if (uses == nullptr && run == nullptr) {
    f.refuse("step-without-action", "a step needs 'uses' or 'run'", node);
    return false;
  }
  return true;
}

void read_name(const yaml::Node& name, const ValueSite& site, workflow::Step& step, Findings& f) {
  if (util::has_control_character(name.scalar)) {
    f.refuse("control-character-in-name",
             "step name " + quote(name.scalar) +
                 " holds a control character; the launcher prints names in its log and verdict, "
                 "where a line break or escape could pass for another line",
             name);
  }
  step.name = name.scalar;
  // A name is display text: shown as CI shows it when its value is known now, as written
  // otherwise (never refused for what it reads).
  if (workflow::contains_expression(name.scalar)) {
    Findings ignored;
    auto v = read_field(name.scalar, site.field, site.contexts, false, "step 'name'", name.location,
                        ignored);
    if (v && !util::has_control_character(v->value->coerce_string())) {
      step.name = v->value->coerce_string();
    }
  }
}

// `name` and `id` are never evaluated by the review (names are display text), so they may
// hold anything, expressions included; they must be strings as GitHub requires.
void read_name_and_id(const yaml::Node& node, const ValueSite& site, workflow::Step& step,
                      Findings& f) {
  for (const char* key : {"name", "id"}) {
    if (const yaml::Node* n = node.find(key); n != nullptr && !n->is_scalar()) {
      f.refuse("invalid-step", std::string("step '") + key + "' must be a string", *n);
    }
  }
  if (const yaml::Node* n = node.find("name"); n != nullptr && n->is_scalar()) {
    read_name(*n, site, step, f);
  }
  if (const yaml::Node* n = node.find("id"); n != nullptr && n->is_scalar()) {
    step.id = n->scalar;
  }
}

// The step's env, read once, before its `if`, which sees it; its refusals are held apart and
// count only for a step that can run (adopt_step_env).
struct StepEnv {
  const yaml::Node* node = nullptr;
  std::vector<workflow::Entry> entries;
  Findings findings;
};

StepEnv read_step_env(const yaml::Node& node, const ValueSite& site) {
  StepEnv env;
  env.node = node.find("env");
  if (env.node != nullptr) {
    env.entries = read_env(*env.node, "step", site, env.findings);
  }
  return env;
}

void read_step_condition(const yaml::Node& node, const expr::Object& step_contexts, Field if_field,
                         ReadStep& read_out, Findings& f) {
  const yaml::Node* cond = node.find("if");
  if (cond == nullptr) {
    return;
  }
  if (!cond->is_scalar()) {
    f.refuse("step-condition", "step 'if' must be a string", *cond);
    return;
  }
  const ValueSite if_site{step_contexts, if_field, true};
  if (auto c = read_condition(cond->scalar, if_site.field, if_site.contexts, "step 'if'",
                              cond->location, f)) {
    read_out.condition = std::move(*c);
    read_out.step.if_condition = cond->scalar;
  }
}

// A step whose `if:` is false whatever happens never runs: its env, inputs and script are
// never evaluated on CI, so they are not read here either (a `${{ secrets.GITHUB_TOKEN }}` in
// a step that cannot run is no reason to refuse the job).
void adopt_step_env(StepEnv& env, bool never, workflow::Step& step, Findings& f) {
  if (env.node != nullptr && !never) {
    step.env = std::move(env.entries);
    for (auto& r : env.findings.take()) {
      f.add(std::move(r));
    }
  }
}

void read_step_timeout(const yaml::Node& node, bool uses, workflow::Step& step, Findings& f) {
  const yaml::Node* t = node.find("timeout-minutes");
  if (t == nullptr) {
    return;
  }
  step.timeout_location = t->location;
  if (uses) {
    f.refuse("timeout-on-skipped-step",
             "'timeout-minutes' on a 'uses' step: how the real action behaves at that limit "
             "cannot be reproduced",
             *t);
  } else if (auto minutes = read_timeout(*t, "step 'timeout-minutes'", f)) {
    step.timeout_minutes = *minutes;
  }
}

void read_shell_and_directory(const yaml::Node& node, workflow::Step& step, Findings& f) {
  if (const yaml::Node* sh = node.find("shell")) {
    if (!sh->is_scalar() || sh->scalar != "bash") {
      f.refuse("non-bash-shell",
               "only bash steps are reproduced; 'shell' is " +
                   quote(sh->is_scalar() ? sh->scalar : "(not a string)"),
               *sh);
    } else {
      step.shell = "bash";
    }
  }
  if (const yaml::Node* wd = node.find("working-directory")) {
    if (check_working_directory(*wd, "step 'working-directory'", f)) {
      step.working_directory = wd->scalar;
    }
  }
}

// What the inputs of a `uses` step read: the step's site, its own env over the contexts, and
// whether the step never runs (then its inputs are kept as written, unevaluated).
struct InputSite {
  Field field;
  const expr::Object& step_contexts;
  bool never;
};

void read_input(const yaml::Node& key, const yaml::Node& value, const InputSite& site,
                workflow::Step& step, Findings& f) {
  auto read = value.is_scalar() && value.plain ? workflow::read_plain_scalar(value.scalar)
                                               : workflow::PlainScalar{value.scalar, {}};
  const std::string text = std::move(read.text);
  if (!value.is_scalar() && !value.is_null()) {
    f.refuse("invalid-input", "input " + quote(key.scalar) + " must be a literal string", value);
  } else if (read.refusal) {
    f.refuse("retyped-scalar",
             "input " + quote(key.scalar) + " is the unquoted " + quote(text) + ": " +
                 *read.refusal + "; quote it to keep the text",
             value);
  } else if (!workflow::contains_expression(text) || site.never) {
    step.inputs.push_back({key.scalar, text, key.location});
  } else if (is_run_token(text)) {
    workflow::Entry token{key.scalar, text, key.location};
    token.run_token = true;
    step.inputs.push_back(std::move(token));
  } else if (auto v = read_field(text, site.field, site.step_contexts, false,
                                 "input " + quote(key.scalar), value.location, f)) {
    step.inputs.push_back({key.scalar, v->value->coerce_string(), key.location});
  }
}

void read_uses_step(const yaml::Node& node, const yaml::Node& uses, const InputSite& site,
                    workflow::Step& step, Findings& f) {
  if (scalar_or_refuse(uses, "'uses'", f) != nullptr) {
    read_uses(uses, step, f);
  }
  for (const char* key : {"shell", "working-directory"}) {
    if (node.find(key) != nullptr) {
      f.refuse("invalid-step", std::string("'") + key + "' belongs to 'run' steps",
               *node.find_key(key));
    }
  }
  const yaml::Node* with = node.find("with");
  if (with == nullptr) {
    return;
  }
  if (!with->is_mapping()) {
    f.refuse("invalid-input", "'with' must be a mapping", *with);
    return;
  }
  for (const auto& [key, value] : with->entries) {
    read_input(key, value, site, step, f);
  }
}

void read_run_step(const yaml::Node& node, const yaml::Node& run, const ValueSite& site, bool never,
                   workflow::Step& step, Findings& f) {
  step.action = "run";
  step.uses_location = run.location;
  if (node.find("with") != nullptr) {
    f.refuse("invalid-step", "'with' belongs to 'uses' steps", *node.find_key("with"));
  }
  if (!run.is_scalar()) {
    f.refuse("invalid-step", "'run' must be a string", run);
  } else if (auto read = run.plain ? workflow::read_plain_scalar(run.scalar)
                                   : workflow::PlainScalar{run.scalar, {}};
             read.refusal) {
    f.refuse("retyped-scalar",
             "the script is the unquoted " + quote(run.scalar) + ": " + *read.refusal +
                 "; quote it to keep the text",
             run);
  } else if (!workflow::contains_expression(read.text) || never) {
    step.run = std::move(read.text);
  } else if (auto v = read_field(read.text, site.field, site.contexts, site.run_time_allowed,
                                 "the script", run.location, f)) {
    step.run_time_script = v->run_time;
    step.run = v->run_time ? std::move(read.text) : v->value->coerce_string();
  }
}

}  // namespace

std::optional<ReadStep> read_step(const yaml::Node& node, const std::string& job_id,
                                  std::uint32_t index, const ValueSite& site, Findings& f,
                                  Field if_field) {
  const std::size_t before = f.size();
  ReadStep read_out;
  workflow::Step& step = read_out.step;
  step.job_id = job_id;
  step.index = index;
  step.location = node.location;
  if (!node.is_mapping()) {
    f.refuse("invalid-step", "a step must be a mapping", node);
    return std::nullopt;
  }
  refuse_unknown_step_keys(node, f);
  if (!names_one_action(node, f)) {
    return std::nullopt;
  }
  read_name_and_id(node, site, step, f);
  if (const yaml::Node* c = node.find("continue-on-error")) {
    step.continue_on_error = read_continue_on_error(*c, site, f).value_or(false);
  }
  StepEnv env = read_step_env(node, site);
  const expr::Object step_contexts = with_step_env(env.entries, site.contexts);
  read_step_condition(node, step_contexts, if_field, read_out, f);
  const bool never = read_out.condition.kind == Condition::Kind::kNever;
  adopt_step_env(env, never, step, f);
  const yaml::Node* uses = node.find("uses");
  read_step_timeout(node, uses != nullptr, step, f);
  read_shell_and_directory(node, step, f);
  if (uses != nullptr) {
    read_uses_step(node, *uses, InputSite{site.field, step_contexts, never}, step, f);
  } else {
    read_run_step(node, *node.find("run"), site, never, step, f);
  }
  if (f.size() != before && step.action.empty()) {
    return std::nullopt;
  }
  return read_out;
}

}  // namespace reviewer::plan
