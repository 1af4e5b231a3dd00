#include "core/plan/called_workflow.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "core/expr/text_case.h"
#include "core/plan/env_rules.h"
#include "core/plan/expression_fields.h"
#include "core/plan/needs.h"
#include "core/plan/plan_budget.h"
#include "core/plan/repository_files.h"
#include "core/plan/written_steps.h"
#include "core/plan/yaml_value.h"
#include "core/plugins/workflow_view.h"
#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/workflow/expression.h"
#include "core/workflow/scalar_typing.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

constexpr std::array kCallerKeys = {"name",  "uses", "with",        "secrets",    "strategy",
                                    "needs", "if",   "concurrency", "permissions"};
constexpr std::array kWorkflowKeys = {"name",     "run-name", "on",          "env",
                                      "defaults", "jobs",     "permissions", "concurrency"};
constexpr std::string_view kWorkflowsDir = ".github/workflows/";

// The file `uses: ./.github/workflows/NAME.yml` names, or nullopt when it is not one directly in
// the workflows directory (GitHub supports no subdirectory there, and no ref on a local call).
std::optional<std::string> local_workflow_file(const std::string& uses) {
  if (uses.rfind("./", 0) != 0 || util::has_control_character(uses) ||
      uses.find('\0') != std::string::npos || uses.find('@') != std::string::npos) {
    return std::nullopt;
  }
  const std::string path = uses.substr(2);
  if (path.rfind(kWorkflowsDir, 0) != 0) {
    return std::nullopt;
  }
  const std::string name = path.substr(kWorkflowsDir.size());
  const bool yml = name.size() > 4 && name.compare(name.size() - 4, 4, ".yml") == 0;
  const bool yaml = name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0;
  if (name.find('/') != std::string::npos || (!yml && !yaml)) {
    return std::nullopt;
  }
  return path;
}

// A value as messages name it: its kind, and a primitive's text.
std::string described(const expr::Value& v) {
  switch (v.kind()) {
    case expr::Kind::kNull:
      return "no value";
    case expr::Kind::kBoolean:
      return "the boolean " + v.coerce_string();
    case expr::Kind::kNumber:
      return "the number " + v.coerce_string();
    case expr::Kind::kString:
      return "the string " + quote(v.as_string());
    case expr::Kind::kArray:
      return "a list";
    case expr::Kind::kObject:
      return "a mapping";
  }
  return "a value";
}

// `v` as an input of `type` receives it: a string input takes numbers and booleans as their
// text; a number or boolean input only its own kind (GitHub: "Unexpected value").
std::optional<expr::Value> as_input_type(const expr::Value& v, const std::string& type) {
  if (type == "string") {
    if (v.kind() == expr::Kind::kString) {
      return v;
    }
    if (v.kind() == expr::Kind::kNumber || v.kind() == expr::Kind::kBoolean) {
      return expr::Value::string(v.coerce_string());
    }
    return std::nullopt;
  }
  if ((type == "number" && v.kind() == expr::Kind::kNumber) ||
      (type == "boolean" && v.kind() == expr::Kind::kBoolean)) {
    return v;
  }
  return std::nullopt;
}

// One `on.workflow_call.inputs` entry.
struct DeclaredInput {
  std::string name;
  std::string type;
  bool required = false;
  const yaml::Node* default_value = nullptr;
  util::SourceLocation location;
};

class CallInliner {
 public:
  CallInliner(const yaml::Node& job, PlannedJob& out, WorkflowPlanning& planning)
      : job_(job), out_(out), planning_(planning), f_(planning.findings) {}

  void inline_call() {
    const yaml::Node& uses = *job_.find("uses");
    if (!uses.is_scalar()) {
      f_.refuse("reusable-workflow-call", "job " + quote(out_.id) + " 'uses' must be a string",
                uses);
      return;
    }
    auto file = local_workflow_file(uses.scalar);
    if (!file) {
      call_form_refusal(uses);
      return;
    }
    called_file_ = *file;
    std::vector<std::string> chain = planning_.call != nullptr
                                         ? planning_.call->chain
                                         : std::vector<std::string>{planning_.file};
    if (std::find(chain.begin(), chain.end(), *file) != chain.end()) {
      std::string cycle;
      for (const auto& c : chain) {
        cycle += c + " -> ";
      }
      f_.refuse("reusable-workflow-cycle",
                "job " + quote(out_.id) + " calls " + quote(*file) +
                    ", which is already calling: " + cycle + *file +
                    "; GitHub permits no loop in the workflow tree",
                uses);
      return;
    }
    if (chain.size() + 1 > kMaxWorkflowLevels) {
      f_.refuse("reusable-workflow-depth",
                "job " + quote(out_.id) + " calls " + quote(*file) + " at level " +
                    std::to_string(chain.size() + 1) + "; GitHub connects at most " +
                    std::to_string(kMaxWorkflowLevels) +
                    " levels of workflows, the top-level caller included",
                uses);
      return;
    }
    auto root = load(*file, uses);
    if (root == nullptr) {
      return;
    }
    const std::size_t before = f_.size();
    const yaml::Node* spec = check_workflow(*file, *root);
    if (f_.size() != before) {
      return;
    }
    auto called = std::make_shared<CalledWorkflow>();
    called->file = *file;
    chain.push_back(*file);
    CallScope scope{{}, {}, std::move(chain)};
    scope.inputs = bind_inputs(spec, called->inputs);
    scope.secrets = bind_secrets(spec);
    if (f_.size() != before) {
      return;
    }
    called->contexts = in_call(
        plan_time_contexts("", planning_.base, {}, {}, planning_.event, planning_.same_repository),
        scope);
    plan_jobs(*file, *root, scope, *called);
    read_outputs(spec, *called);
    if (f_.size() == before) {
      out_.called = std::move(called);
    }
  }

 private:
  void call_form_refusal(const yaml::Node& uses) {
    const std::string& text = uses.scalar;
    if (text.rfind("./", 0) != 0 && text.find('@') != std::string::npos) {
      f_.refuse("reusable-workflow",
                "job " + quote(out_.id) + " calls " + quote(text) +
                    ", a workflow of another repository; the review reads only the pull "
                    "request's own repository",
                uses);
      return;
    }
    f_.refuse("reusable-workflow-call",
              "job " + quote(out_.id) + " 'uses' is " + quote(text) +
                  "; a local reusable workflow is called as ./.github/workflows/NAME.yml (no "
                  "subdirectory, no @ref), as GitHub requires",
              uses);
  }

  // The called file, loaded once per plan; nullptr after a refusal.
  std::shared_ptr<const yaml::Node> load(const std::string& file, const yaml::Node& uses) {
    CalledWorkflowState& state = *planning_.called_workflows;
    if (auto it = state.loaded.find(file); it != state.loaded.end()) {
      return it->second;  // nullptr: refused when it was first loaded
    }
    if (state.loaded.size() >= kMaxCalledWorkflows) {
      if (!std::exchange(state.over_bound, true)) {
        f_.refuse("too-many-reusable-workflows",
                  "job " + quote(out_.id) + " calls " + quote(file) + ", past the " +
                      std::to_string(kMaxCalledWorkflows) +
                      " unique reusable workflows GitHub lets one workflow file call",
                  uses);
      }
      return nullptr;
    }
    state.loaded[file] = nullptr;
    if (planning_.files == nullptr) {
      f_.refuse("reusable-workflow-missing",
                "the workflow " + quote(file) +
                    " cannot be read: the planner was given no repository to read it from",
                uses);
      return nullptr;
    }
    const yaml::Bounds bounds;
    auto text = planning_.files->read(file, bounds.max_bytes + 1);
    if (!text) {
      const util::FileFault code = util::file_fault(text.error());
      if (code == util::FileFault::kMissing) {
        f_.refuse("reusable-workflow-missing",
                  "job " + quote(out_.id) + " calls " + quote(file) +
                      ", which the pull request's head does not hold",
                  uses);
      } else if (code == util::FileFault::kSymlink) {
        f_.refuse("reusable-workflow-symlink",
                  "the workflow " + quote(file) + " is reached through a symbolic link (" +
                      text.error().message +
                      "); the review reads the repository without following links",
                  uses);
      } else {
        f_.refuse("reusable-workflow-unreadable",
                  "the workflow " + quote(file) + " cannot be read: " + text.error().message, uses);
      }
      return nullptr;
    }
    auto root = yaml::load(*text, file, bounds);
    if (!root) {
      for (const auto& r : root.refusals()) {
        f_.add(r);
      }
      return nullptr;
    }
    // Kept for the whole pass: up to 50 files of 256 KiB, each a tree of up to 50,000 nodes.
    if (!charge(planning_, tree_bytes(*root), 0, "the workflow " + quote(file), uses.location)) {
      return nullptr;
    }
    auto shared = std::make_shared<const yaml::Node>(std::move(*root));
    state.loaded[file] = shared;
    return shared;
  }

  // The called file's shape and its `on.workflow_call` (nullptr when it declares nothing).
  const yaml::Node* check_workflow(const std::string& file, const yaml::Node& root) {
    if (!root.is_mapping()) {
      f_.refuse("invalid-reusable-workflow", quote(file) + " must be a mapping", root);
      return nullptr;
    }
    for (const auto& [key, value] : root.entries) {
      if (std::find(kWorkflowKeys.begin(), kWorkflowKeys.end(), key.scalar) ==
          kWorkflowKeys.end()) {
        f_.refuse("invalid-reusable-workflow",
                  "workflow key " + quote(key.scalar) + " is not understood", key);
      }
    }
    const yaml::Node* on = root.find("on");
    const yaml::Node* spec = nullptr;
    bool callable = false;
    if (on != nullptr && on->is_scalar()) {
      callable = on->scalar == "workflow_call";
    } else if (on != nullptr && on->is_sequence()) {
      callable = std::any_of(on->items.begin(), on->items.end(), [](const yaml::Node& n) {
        return n.is_scalar() && n.scalar == "workflow_call";
      });
    } else if (on != nullptr && on->is_mapping()) {
      spec = on->find("workflow_call");
      callable = spec != nullptr;
    }
    if (!callable) {
      f_.refuse("reusable-workflow-not-callable",
                quote(file) +
                    " is not a reusable workflow: its 'on' has no workflow_call, and GitHub fails "
                    "a run that calls it",
                on != nullptr ? *on : root);
      return nullptr;
    }
    if (spec != nullptr && !spec->is_null() && !spec->is_mapping()) {
      f_.refuse("invalid-reusable-workflow", "'on.workflow_call' must be a mapping", *spec);
      return nullptr;
    }
    if (spec != nullptr && spec->is_mapping()) {
      for (const auto& [key, value] : spec->entries) {
        if (key.scalar != "inputs" && key.scalar != "outputs" && key.scalar != "secrets") {
          f_.refuse("invalid-reusable-workflow",
                    "'on.workflow_call." + key.scalar + "' is not understood", key);
        }
      }
    }
    return spec != nullptr && spec->is_mapping() ? spec : nullptr;
  }

  // `on.workflow_call.<section>` as a mapping of names to mappings; nullptr when absent.
  const yaml::Node* section(const yaml::Node* spec, const char* name) {
    const yaml::Node* s = spec != nullptr ? spec->find(name) : nullptr;
    if (s == nullptr || s->is_null()) {
      return nullptr;
    }
    if (!s->is_mapping()) {
      f_.refuse("invalid-reusable-workflow",
                std::string("'on.workflow_call.") + name + "' must be a mapping", *s);
      return nullptr;
    }
    return s;
  }

  std::vector<DeclaredInput> declared_inputs(const yaml::Node* spec) {
    std::vector<DeclaredInput> out;
    const yaml::Node* inputs = section(spec, "inputs");
    if (inputs == nullptr) {
      return out;
    }
    for (const auto& [key, value] : inputs->entries) {
      DeclaredInput in{key.scalar, "", false, nullptr, key.location};
      const yaml::Node* type = value.is_mapping() ? value.find("type") : nullptr;
      if (type == nullptr || !type->is_scalar() ||
          (type->scalar != "string" && type->scalar != "number" && type->scalar != "boolean")) {
        f_.refuse("invalid-reusable-workflow",
                  "input " + quote(key.scalar) +
                      " needs a 'type' of boolean, number or string, as GitHub requires for "
                      "workflow_call",
                  type != nullptr ? *type : value);
        continue;
      }
      in.type = type->scalar;
      for (const auto& [k, v] : value.entries) {
        if (k.scalar == "required") {
          if (!v.is_scalar() || !v.plain || (v.scalar != "true" && v.scalar != "false")) {
            f_.refuse("invalid-reusable-workflow",
                      "input " + quote(key.scalar) + " 'required' must be true or false", v);
          }
          in.required = v.scalar == "true";
        } else if (k.scalar == "default") {
          in.default_value = &v;
        } else if (k.scalar != "type" && k.scalar != "description") {
          f_.refuse("invalid-reusable-workflow",
                    "input " + quote(key.scalar) + " key " + quote(k.scalar) + " is not understood",
                    k);
        }
      }
      out.push_back(std::move(in));
    }
    return out;
  }

  // The value `node` gives an input of `type`, read over `contexts` in `field`; nullopt after a
  // refusal (`mismatch_rule` for a value of the wrong type).
  std::optional<expr::Value> input_value(const yaml::Node& node, const std::string& type,
                                         const std::string& what, Field field,
                                         const expr::Object& contexts,
                                         const std::string& mismatch_rule) {
    std::optional<expr::Value> value;
    if (node.is_scalar() && workflow::contains_expression(node.scalar)) {
      auto v = read_field(node.scalar, field, contexts, false, what, node.location, f_);
      if (!v) {
        return std::nullopt;
      }
      value = std::move(v->value);
    } else {
      auto v = to_expression_value(node);
      if (!v) {
        for (const auto& r : v.refusals()) {
          f_.add(r);
        }
        return std::nullopt;
      }
      value = std::move(*v);
      if (type == "string" && node.is_scalar() && node.plain) {
        // A number passed on as text takes GitHub's spelling, not the file's.
        auto typed = workflow::read_plain_scalar(node.scalar);
        if (typed.refusal) {
          f_.refuse("retyped-scalar",
                    what + " is the unquoted " + quote(typed.text) + ": " + *typed.refusal +
                        "; quote it to keep the text",
                    node);
          return std::nullopt;
        }
      }
    }
    auto typed = as_input_type(*value, type);
    if (!typed) {
      f_.refuse(mismatch_rule,
                what + " is declared 'type: " + type + "' but is given " + described(*value) +
                    "; GitHub fails the run (\"Unexpected value\")",
                node);
    }
    return typed;
  }

  // The `inputs` context of the called workflow: the caller's `with:`, then each declared input's
  // default (false, 0 or "" without one).
  expr::Object bind_inputs(const yaml::Node* spec, std::vector<workflow::Entry>& entries) {
    const auto declared = declared_inputs(spec);
    expr::Object inputs;
    const yaml::Node* with = job_.find("with");
    if (with != nullptr && !with->is_null() && !with->is_mapping()) {
      f_.refuse("reusable-workflow-call", "job " + quote(out_.id) + " 'with' must be a mapping",
                *with);
      with = nullptr;
    }
    static const std::vector<std::pair<yaml::Node, yaml::Node>> kNothing;
    std::vector<std::string> given;
    for (const auto& [key, value] :
         with != nullptr && with->is_mapping() ? with->entries : kNothing) {
      auto d = std::find_if(declared.begin(), declared.end(), [&k = key](const DeclaredInput& in) {
        return expr::lower(in.name) == expr::lower(k.scalar);
      });
      if (d == declared.end()) {
        f_.refuse("reusable-workflow-input",
                  "job " + quote(out_.id) + " passes input " + quote(key.scalar) + ", which " +
                      quote(called_file_) +
                      " does not declare under on.workflow_call.inputs; GitHub fails the run",
                  key);
        continue;
      }
      given.push_back(expr::lower(d->name));
      auto v = input_value(value, d->type, "input " + quote(d->name), Field::kCallerWith,
                           out_.contexts, "reusable-workflow-input");
      if (v) {
        entries.push_back({d->name, v->coerce_string(), key.location});
        inputs.add(d->name, std::move(*v));
      }
    }
    const expr::Object default_contexts =
        plan_time_contexts("", planning_.base, {}, {}, planning_.event, planning_.same_repository);
    for (const auto& d : declared) {
      if (std::find(given.begin(), given.end(), expr::lower(d.name)) != given.end()) {
        continue;
      }
      if (d.required) {
        f_.refuse("reusable-workflow-input",
                  "job " + quote(out_.id) + " does not pass the required input " + quote(d.name) +
                      " of " + quote(called_file_) + "; GitHub fails the run",
                  with != nullptr ? *with : job_);
        continue;
      }
      std::optional<expr::Value> v;
      if (d.default_value != nullptr && !d.default_value->is_null()) {
        v = input_value(*d.default_value, d.type, "the default of input " + quote(d.name),
                        Field::kCalledInputDefault, default_contexts, "invalid-reusable-workflow");
      } else {
        v = d.type == "boolean"  ? expr::Value::boolean(false)
            : d.type == "number" ? expr::Value::number(0)
                                 : expr::Value::string("");
      }
      if (v) {
        entries.push_back({d.name, v->coerce_string(), d.location});
        inputs.add(d.name, std::move(*v));
      }
    }
    return inputs;
  }

  // The `secrets` context of the called workflow: the named secrets, evaluated in the caller (a
  // fork pull request's secrets are empty); with `secrets: inherit`, the caller's (empty too, or
  // unknown for a same-repository pull request: nullopt).
  std::optional<expr::Object> bind_secrets(const yaml::Node* spec) {
    expr::Object secrets;
    const yaml::Node* declared = section(spec, "secrets");
    const yaml::Node* passed = job_.find("secrets");
    const bool inherit = passed != nullptr && passed->is_scalar() && passed->scalar == "inherit";
    if (passed != nullptr && !inherit && !passed->is_mapping() && !passed->is_null()) {
      f_.refuse("reusable-workflow-call",
                "job " + quote(out_.id) + " 'secrets' must be 'inherit' or a mapping", *passed);
      return secrets;
    }
    auto declares = [&](const std::string& name) -> const yaml::Node* {
      if (declared == nullptr) {
        return nullptr;
      }
      for (const auto& [k, v] : declared->entries) {
        if (expr::lower(k.scalar) == expr::lower(name)) {
          return &v;
        }
      }
      return nullptr;
    };
    if (passed != nullptr && passed->is_mapping()) {
      for (const auto& [key, value] : passed->entries) {
        if (declares(key.scalar) == nullptr) {
          f_.refuse("reusable-workflow-secret",
                    "job " + quote(out_.id) + " passes secret " + quote(key.scalar) + ", which " +
                        quote(called_file_) +
                        " does not declare under on.workflow_call.secrets; GitHub fails the run",
                    key);
          continue;
        }
        if (!value.is_scalar()) {
          f_.refuse("reusable-workflow-call", "secret " + quote(key.scalar) + " must be a string",
                    value);
          continue;
        }
        auto v = read_field(value.scalar, Field::kCallerSecret, out_.contexts, false,
                            "secret " + quote(key.scalar), value.location, f_);
        if (v) {
          secrets.add(key.scalar, expr::Value::string(v->value->coerce_string()));
        }
      }
    }
    if (inherit && planning_.same_repository) {
      return std::nullopt;
    }
    if (declared != nullptr && !inherit) {
      for (const auto& [key, value] : declared->entries) {
        const yaml::Node* required = value.is_mapping() ? value.find("required") : nullptr;
        if (required != nullptr && required->is_scalar() && required->scalar == "true" &&
            secrets.find(key.scalar) == nullptr) {
          f_.refuse("reusable-workflow-secret",
                    "job " + quote(out_.id) + " does not pass the required secret " +
                        quote(key.scalar) + " of " + quote(called_file_) + "; GitHub fails the run",
                    passed != nullptr ? *passed : job_);
        }
      }
    }
    return secrets;
  }

  // Every job of the called workflow, planned in its own scope and dependency order.
  void plan_jobs(const std::string& file, const yaml::Node& root, const CallScope& scope,
                 CalledWorkflow& called) {
    const yaml::Node* jobs = root.find("jobs");
    if (jobs == nullptr || !jobs->is_mapping() || jobs->entries.empty()) {
      f_.refuse("invalid-reusable-workflow", quote(file) + " has no 'jobs' mapping",
                jobs != nullptr ? *jobs : root);
      return;
    }
    WorkflowDefaults defaults;
    if (const yaml::Node* env = root.find("env")) {
      defaults.env = read_env(*env, "workflow", {called.contexts, Field::kWorkflowEnv, false}, f_);
    }
    read_defaults(root, "workflow", defaults, f_);
    auto written = written_steps(jobs, planning_.budget);
    if (planning_.budget != nullptr && planning_.budget->exceeded()) {
      return;
    }
    const plugins::WorkflowView view(std::move(written));
    WorkflowPlanning inner{
        file, *jobs,          view,          planning_.registry,      planning_.pins,
        f_,   planning_.base, planning_.job, planning_.matrix_choice, planning_.pinned_only};
    inner.files = planning_.files;
    inner.event = planning_.event;
    inner.same_repository = planning_.same_repository;
    inner.repository_files = planning_.repository_files;
    inner.local_actions = planning_.local_actions;
    inner.call = &scope;
    inner.called_workflows = planning_.called_workflows;
    inner.budget = planning_.budget;
    CalledWorkflowState& state = *planning_.called_workflows;
    for (const auto& id : all_jobs_in_order(*jobs, f_)) {
      if (planning_.budget != nullptr && planning_.budget->exceeded()) {
        return;
      }
      if (++state.jobs > kMaxCalledJobs) {
        if (!std::exchange(state.over_bound, true)) {
          f_.refuse("too-many-reusable-workflows",
                    "the workflows called take the plan past " + std::to_string(kMaxCalledJobs) +
                        " jobs; the review plans at most that many",
                    *job_.find("uses"));
        }
        return;
      }
      called.jobs.push_back(plan_job(id, *jobs->find(id), defaults, inner));
    }
  }

  // `on.workflow_call.outputs.<name>.value`, evaluated by the launcher after the called jobs.
  void read_outputs(const yaml::Node* spec, CalledWorkflow& called) {
    const yaml::Node* outputs = section(spec, "outputs");
    if (outputs == nullptr) {
      return;
    }
    for (const auto& [key, value] : outputs->entries) {
      const yaml::Node* v = value.is_mapping() ? value.find("value") : nullptr;
      if (v == nullptr || !v->is_scalar()) {
        f_.refuse("invalid-reusable-workflow",
                  "output " + quote(key.scalar) + " of a reusable workflow needs a string 'value'",
                  v != nullptr ? *v : value);
        continue;
      }
      auto read = read_field(v->scalar, Field::kCalledOutput, called.contexts, true,
                             "output " + quote(key.scalar), v->location, f_);
      if (read) {
        called.outputs.push_back({key.scalar,
                                  read->run_time ? v->scalar : read->value->coerce_string(),
                                  key.location, read->run_time});
      }
    }
  }

  const yaml::Node& job_;
  PlannedJob& out_;
  WorkflowPlanning& planning_;
  Findings& f_;
  std::string called_file_;  // the file the call names, for messages
};

}  // namespace

bool is_caller_job_key(std::string_view key) {
  return std::find(kCallerKeys.begin(), kCallerKeys.end(), key) != kCallerKeys.end();
}

expr::Object in_call(const expr::Object& contexts, const CallScope& call) {
  expr::Object out = contexts.with("inputs", expr::Value::object(call.inputs));
  if (!call.secrets) {
    // Whatever the caller's context held, the called workflow's secrets are not known.
    expr::Object without;
    for (const auto& [k, v] : out.entries()) {
      if (expr::lower(k) != "secrets") {
        without.add(k, v);
      }
    }
    return without;
  }
  return out.with("secrets", expr::Value::object(*call.secrets));
}

void plan_call(const yaml::Node& job, PlannedJob& out, WorkflowPlanning& planning) {
  CallInliner(job, out, planning).inline_call();
}

std::vector<const PlannedJob*> jobs_with_steps(const std::vector<PlannedJob>& jobs) {
  std::vector<const PlannedJob*> out;
  for (const auto& j : jobs) {
    if (j.called) {
      auto inner = jobs_with_steps(j.called->jobs);
      out.insert(out.end(), inner.begin(), inner.end());
    } else {
      out.push_back(&j);
    }
  }
  return out;
}

}  // namespace reviewer::plan
