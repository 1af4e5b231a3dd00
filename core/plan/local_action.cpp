#include "core/plan/local_action.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/expr/text_case.h"
#include "core/plan/plan_budget.h"
#include "core/plan/repository_files.h"
#include "core/plan/step_dispatch.h"
#include "core/plan/step_rules.h"
#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/workflow/expression.h"
#include "core/workflow/scalar_typing.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

// The directory `uses: ./path` names, relative to the repository root ("" for the root), or
// nullopt when it is not a plain path inside the repository.
std::optional<std::string> action_directory(const std::string& uses) {
  if (util::has_control_character(uses) || uses.find('\0') != std::string::npos) {
    return std::nullopt;
  }
  std::string out;
  std::size_t at = 0;
  while (at <= uses.size()) {
    const auto slash = uses.find('/', at);
    const auto end = slash == std::string::npos ? uses.size() : slash;
    const std::string part = uses.substr(at, end - at);
    if (part == "..") {
      return std::nullopt;
    }
    if (!part.empty() && part != ".") {
      out += (out.empty() ? "" : "/") + part;
    }
    at = end + 1;
  }
  return out;
}

// The action's contexts: the caller's, with the bound `inputs` and `github.action_path`.
expr::Object action_contexts(const expr::Object& caller, const expr::Object& inputs,
                             const std::string& action_path) {
  expr::Object github;
  if (const expr::Value* g = caller.find("github"); g != nullptr) {
    github = g->as_object().with("action_path", expr::Value::string(action_path));
  }
  return caller.with("github", expr::Value::object(std::move(github)))
      .with("inputs", expr::Value::object(inputs));
}

class ActionInliner {
 public:
  ActionInliner(workflow::Step& caller, const StepScope& scope, WorkflowPlanning& planning)
      : caller_(caller), scope_(scope), planning_(planning), f_(planning.findings) {}

  std::optional<PlannedStep> inline_action(Condition condition, const std::string& number,
                                           PlannedJob& job) {
    auto dir = action_directory(caller_.action);
    if (!dir) {
      f_.refuse("local-action-outside",
                "'uses' " + quote(caller_.action) +
                    " leaves the repository; a local action is a directory inside it, as "
                    "./.github/actions/NAME",
                caller_.uses_location);
      return std::nullopt;
    }
    if (scope_.chain.size() + 1 > kMaxActionDepth) {
      f_.refuse("local-action-depth",
                "'uses' " + quote(caller_.action) + " nests local actions " +
                    std::to_string(scope_.chain.size() + 1) +
                    " deep; the runner fails a job whose composite actions nest deeper than " +
                    std::to_string(kMaxActionDepth),
                caller_.uses_location);
      return std::nullopt;
    }
    auto loaded = load(*dir);
    if (!loaded) {
      return std::nullopt;
    }
    const auto& [file, root] = *loaded;
    const std::size_t before = f_.size();
    auto action = std::make_shared<LocalAction>();
    action->file = file;
    action->action_path = dir->empty() ? "/workspace" : "/workspace/" + *dir;
    const yaml::Node* steps = check_runs(file, *root);
    expr::Object inputs;
    bind_inputs(*root, inputs, action->inputs);
    action->contexts = action_contexts(scope_.contexts, inputs, action->action_path);
    if (steps == nullptr || f_.size() != before) {
      return std::nullopt;
    }
    LocalActionState& state = *planning_.local_actions;
    state.inlined_steps += steps->items.size();
    if (state.inlined_steps > kMaxInlinedSteps) {
      if (std::exchange(state.over_bound, true)) {
        return std::nullopt;  // said once, where the bound was crossed
      }
      f_.refuse("too-many-inlined-steps",
                "inlining " + quote(file) + " takes the plan past " +
                    std::to_string(kMaxInlinedSteps) +
                    " steps of local actions; the review plans at most that many",
                caller_.uses_location);
      return std::nullopt;
    }
    std::vector<std::string> chain = scope_.chain;
    chain.push_back(file);
    const StepScope inner{
        action->contexts, Field::kActionStepValue, Field::kActionStepIf, scope_.info, nullptr,
        number,           caller_.index,           std::move(chain)};
    for (std::uint32_t i = 0; i < steps->items.size(); ++i) {
      if (!check_step_shape(steps->items[i])) {
        continue;
      }
      if (auto planned = plan_step_node(steps->items[i], i, inner, planning_, job)) {
        action->steps.push_back(std::move(*planned));
      }
    }
    read_outputs(*root, *action);
    if (f_.size() != before) {
      return std::nullopt;
    }
    PlannedStep out{
        std::move(caller_), nullptr, false, std::move(condition), "", std::nullopt, "", "", number};
    out.local = std::move(action);
    return out;
  }

 private:
  // The action file of `dir`, loaded once per plan: action.yml, else action.yaml.
  std::optional<std::pair<std::string, std::shared_ptr<const yaml::Node>>> load(
      const std::string& dir) {
    const std::string prefix = dir.empty() ? "" : dir + "/";
    const yaml::Bounds bounds;
    if (planning_.files == nullptr) {
      f_.refuse("local-action-missing",
                "the action " + quote(caller_.action) +
                    " cannot be read: the planner was given no repository to read it from",
                caller_.uses_location);
      return std::nullopt;
    }
    std::string file;
    std::optional<std::string> text;
    for (const char* name : {"action.yml", "action.yaml"}) {
      file = prefix + name;
      auto read = planning_.files->read(file, bounds.max_bytes + 1);
      if (read) {
        text = std::move(*read);
        break;
      }
      const util::FileFault code = util::file_fault(read.error());
      if (code == util::FileFault::kMissing) {
        continue;
      }
      if (code == util::FileFault::kSymlink) {
        f_.refuse("local-action-symlink",
                  "the action " + quote(caller_.action) + " is reached through a symbolic link (" +
                      quote(file) + ": " + read.error().message +
                      "); the review reads the repository without following links",
                  caller_.uses_location);
      } else {
        f_.refuse("local-action-unreadable",
                  "the action file " + quote(file) + " cannot be read: " + read.error().message,
                  caller_.uses_location);
      }
      return std::nullopt;
    }
    if (!text) {
      f_.refuse("local-action-missing",
                "the action " + quote(caller_.action) + " has no " + quote(prefix + "action.yml") +
                    " or " + quote(prefix + "action.yaml") + " in the pull request's head",
                caller_.uses_location);
      return std::nullopt;
    }
    if (std::find(scope_.chain.begin(), scope_.chain.end(), file) != scope_.chain.end()) {
      std::string cycle;
      for (const auto& c : scope_.chain) {
        cycle += c + " -> ";
      }
      f_.refuse("local-action-cycle",
                "the action " + quote(caller_.action) + " calls itself: " + cycle + file +
                    "; the runner fails such a job at its nesting bound",
                caller_.uses_location);
      return std::nullopt;
    }
    LocalActionState& state = *planning_.local_actions;
    if (auto it = state.loaded.find(file); it != state.loaded.end()) {
      if (it->second == nullptr) {
        return std::nullopt;  // refused when it was first loaded
      }
      return std::make_pair(file, it->second);
    }
    auto root = yaml::load(*text, file, bounds);
    if (!root) {
      for (const auto& r : root.refusals()) {
        f_.add(r);
      }
      state.loaded[file] = nullptr;
      return std::nullopt;
    }
    // Kept for the whole pass, and any number of action files may be loaded.
    if (!charge(planning_, tree_bytes(*root), 0, "the action file " + quote(file),
                caller_.uses_location)) {
      state.loaded[file] = nullptr;
      return std::nullopt;
    }
    auto shared = std::make_shared<const yaml::Node>(std::move(*root));
    state.loaded[file] = shared;
    return std::make_pair(file, shared);
  }

  // `runs`: a composite action's `using` and `steps`; the steps, or nullptr after a refusal.
  const yaml::Node* check_runs(const std::string& file, const yaml::Node& root) {
    if (!root.is_mapping()) {
      f_.refuse("invalid-local-action", quote(file) + " must be a mapping", root);
      return nullptr;
    }
    const yaml::Node* runs = root.find("runs");
    if (runs == nullptr || !runs->is_mapping()) {
      f_.refuse("invalid-local-action", quote(file) + " needs a 'runs' mapping",
                runs != nullptr ? *runs : root);
      return nullptr;
    }
    const yaml::Node* using_node = runs->find("using");
    const std::string using_value =
        using_node != nullptr && using_node->is_scalar() ? using_node->scalar : "";
    if (expr::lower(using_value) != "composite") {
      f_.refuse("local-action-not-composite",
                quote(file) + " runs " +
                    (using_value.empty() ? std::string("no 'runs.using'") : quote(using_value)) +
                    "; only composite actions (steps) are inlined, a JavaScript or Docker action "
                    "runs a program the review cannot stand in for",
                using_node != nullptr ? *using_node : *runs);
      return nullptr;
    }
    for (const auto& [key, value] : runs->entries) {
      if (key.scalar != "using" && key.scalar != "steps") {
        f_.refuse("invalid-local-action",
                  "'runs." + key.scalar +
                      "' is not a key of a composite action; the runner fails to load it",
                  key);
      }
    }
    const yaml::Node* steps = runs->find("steps");
    if (steps == nullptr || !steps->is_sequence()) {
      f_.refuse("invalid-local-action",
                quote(file) + " is a composite action without a 'runs.steps' list",
                steps != nullptr ? *steps : *runs);
      return nullptr;
    }
    return steps;
  }

  // The `inputs` context: every `with:` value of the caller (the runner passes unknown ones on
  // too, with a warning), then each declared input it did not give, with its default or empty
  // (the runner does not enforce `required`).
  void bind_inputs(const yaml::Node& root, expr::Object& inputs,
                   std::vector<workflow::Entry>& entries) {
    for (const auto& e : caller_.inputs) {
      inputs.add(e.name, expr::Value::string(e.value));
      entries.push_back(e);
    }
    const yaml::Node* declared = root.is_mapping() ? root.find("inputs") : nullptr;
    if (declared == nullptr || declared->is_null()) {
      return;
    }
    if (!declared->is_mapping()) {
      f_.refuse("invalid-local-action", "the action's 'inputs' must be a mapping", *declared);
      return;
    }
    for (const auto& [key, value] : declared->entries) {
      if (!value.is_null() && !value.is_mapping()) {
        f_.refuse("invalid-local-action",
                  "input " + quote(key.scalar) + " must be a mapping (description, default, ...)",
                  value);
        continue;
      }
      if (inputs.find(key.scalar) != nullptr) {
        continue;
      }
      const yaml::Node* d = value.is_mapping() ? value.find("default") : nullptr;
      std::string text;
      if (d != nullptr && !d->is_scalar() && !d->is_null()) {
        f_.refuse("invalid-local-action",
                  "the default of input " + quote(key.scalar) + " must be a string", *d);
        continue;
      }
      if (d != nullptr && d->is_scalar()) {
        auto typed = d->plain ? workflow::read_plain_scalar(d->scalar)
                              : workflow::PlainScalar{d->scalar, {}};
        if (typed.refusal) {
          f_.refuse("retyped-scalar",
                    "the default of input " + quote(key.scalar) + " is the unquoted " +
                        quote(typed.text) + ": " + *typed.refusal + "; quote it to keep the text",
                    *d);
          continue;
        }
        text = std::move(typed.text);
        if (workflow::contains_expression(text)) {
          auto v = read_field(text, Field::kActionInputDefault, scope_.contexts, false,
                              "the default of input " + quote(key.scalar), d->location, f_);
          if (!v) {
            continue;
          }
          text = v->value->coerce_string();
        }
      }
      inputs.add(key.scalar, expr::Value::string(text));
      entries.push_back({key.scalar, text, key.location});
    }
  }

  // A composite step's keys, and the `shell:` its `run:` needs; false after a refusal.
  bool check_step_shape(const yaml::Node& node) {
    if (!node.is_mapping()) {
      return true;  // read_step refuses it
    }
    bool ok = true;
    for (const auto& [key, value] : node.entries) {
      if (!is_step_key(key.scalar, true)) {
        f_.refuse("invalid-local-action",
                  "step key " + quote(key.scalar) +
                      " is not allowed in a composite action; the runner fails to load it",
                  key);
        ok = false;
      }
    }
    if (node.find("run") != nullptr && node.find("shell") == nullptr) {
      f_.refuse("invalid-local-action",
                "a composite action's 'run' step needs 'shell' (GitHub requires it there); "
                "add shell: bash",
                node);
      ok = false;
    }
    return ok;
  }

  // `outputs.<name>.value`, evaluated by the launcher after the action's steps.
  void read_outputs(const yaml::Node& root, LocalAction& action) {
    const yaml::Node* outputs = root.find("outputs");
    if (outputs == nullptr || outputs->is_null()) {
      return;
    }
    if (!outputs->is_mapping()) {
      f_.refuse("invalid-local-action", "the action's 'outputs' must be a mapping", *outputs);
      return;
    }
    for (const auto& [key, value] : outputs->entries) {
      // Without a value the runner sets no output (steps.<id>.outputs.<name> is then empty).
      const yaml::Node* v = value.is_mapping() ? value.find("value") : nullptr;
      if (value.is_mapping() && v == nullptr) {
        continue;
      }
      if (v == nullptr || !v->is_scalar()) {
        f_.refuse("invalid-local-action",
                  "output " + quote(key.scalar) + " of a composite action needs a string 'value'",
                  v != nullptr ? *v : value);
        continue;
      }
      auto read = read_field(v->scalar, Field::kActionOutput, action.contexts, true,
                             "output " + quote(key.scalar), v->location, f_);
      if (read) {
        action.outputs.push_back({key.scalar,
                                  read->run_time ? v->scalar : read->value->coerce_string(),
                                  key.location, read->run_time});
      }
    }
  }

  workflow::Step& caller_;
  const StepScope& scope_;
  WorkflowPlanning& planning_;
  Findings& f_;
};

}  // namespace

std::optional<PlannedStep> plan_local_action(workflow::Step caller, Condition condition,
                                             const std::string& number, const StepScope& scope,
                                             WorkflowPlanning& planning, PlannedJob& job) {
  return ActionInliner(caller, scope, planning).inline_action(std::move(condition), number, job);
}

}  // namespace reviewer::plan
