#include "core/launch/run_contexts.h"

#include "core/launch/hash_files.h"

namespace reviewer::launch {
namespace {

expr::Object entries_object(const std::vector<workflow::Entry>& entries) {
  expr::Object o;
  // A later entry with the same name wins, as in the runner's dictionaries.
  std::map<std::string, std::string> last;
  for (const auto& e : entries) {
    last[e.name] = e.value;
  }
  for (const auto& e : entries) {
    if (auto it = last.find(e.name); it != last.end()) {
      o.add(e.name, expr::Value::string(it->second));
      last.erase(it);
    }
  }
  return o;
}

expr::Object needs_object(const plan::PlannedJob& job,
                          const std::map<std::string, JobRecord>& finished) {
  expr::Object needs;
  for (const auto& id : job.needs) {
    auto it = finished.find(id);
    if (it == finished.end()) {
      continue;
    }
    expr::Object n;
    n.add("result", expr::Value::string(it->second.result));
    n.add("outputs", expr::Value::object(entries_object(it->second.outputs)));
    needs.add(id, expr::Value::object(std::move(n)));
  }
  return needs;
}

// The plan's contexts with `extra` added; an extra context replaces the plan's of that name.
expr::Object with(const expr::Object& base,
                  std::vector<std::pair<std::string, expr::Value>> extra) {
  expr::Object out;
  for (const auto& [k, v] : base.entries()) {
    bool replaced = false;
    for (const auto& [ek, ev] : extra) {
      replaced = replaced || ek == k;
    }
    if (!replaced) {
      out.add(k, v);
    }
  }
  for (auto& [k, v] : extra) {
    out.add(k, std::move(v));
  }
  return out;
}

}  // namespace

util::Result<expr::Value> StatusRuntime::call(const std::string& name,
                                              const std::vector<expr::Value>& args) {
  if (name == "success") {
    return expr::Value::boolean(success_ && !cancelled_);
  }
  if (name == "failure") {
    return expr::Value::boolean(failure_);
  }
  if (name == "always") {
    return expr::Value::boolean(true);
  }
  if (name == "cancelled") {
    return expr::Value::boolean(cancelled_);
  }
  if (name == "hashfiles") {
    std::vector<std::string> patterns;
    for (const auto& a : args) {
      patterns.push_back(a.coerce_string());
    }
    auto h = hash_files(workspace_, patterns);
    if (!h) {
      return h.refusals();
    }
    return expr::Value::string(*h);
  }
  return util::refusal("expression-error", "the function " + name + "() is not available here");
}

expr::Object job_condition_contexts(const plan::PlannedJob& job,
                                    const std::map<std::string, JobRecord>& finished) {
  return with(job.contexts, {{"needs", expr::Value::object(needs_object(job, finished))}});
}

expr::Object step_contexts(const StepScene& scene, const std::vector<workflow::Entry>& step_env) {
  expr::Object steps;
  for (const auto& [id, rec] : scene.steps) {
    expr::Object s;
    expr::Object outputs = entries_object(rec.outputs);
    if (!rec.plugin_action.empty()) {
      std::string wrote;
      for (const auto& [name, value] : outputs.entries()) {
        wrote += (wrote.empty() ? "" : ", ") + name;
      }
      outputs.close("action-output-unavailable",
                    "step '" + id + "' is " + rec.plugin_action +
                        ", which the review emulates with a plugin that set " +
                        (wrote.empty() ? std::string("no outputs") : "only " + wrote) +
                        "; CI's action may set more, so what the expression reads of its "
                        "outputs is not known here: ");
    }
    s.add("outputs", expr::Value::object(std::move(outputs)));
    s.add("outcome", expr::Value::string(rec.outcome));
    s.add("conclusion", expr::Value::string(rec.conclusion));
    steps.add(id, expr::Value::object(std::move(s)));
  }
  const expr::Object& base = scene.contexts != nullptr ? *scene.contexts : scene.job.contexts;
  std::vector<workflow::Entry> env = scene.job.env;
  env.insert(env.end(), scene.github_env.begin(), scene.github_env.end());
  if (scene.caller_env != nullptr) {
    env.insert(env.end(), scene.caller_env->begin(), scene.caller_env->end());
  }
  env.insert(env.end(), step_env.begin(), step_env.end());
  expr::Object job;
  job.add("status", expr::Value::string(scene.job_failed ? "failure" : "success"));
  expr::Object runner;
  if (const expr::Value* r = base.find("runner"); r != nullptr) {
    for (const auto& [k, v] : r->as_object().entries()) {
      runner.add(k, v);
    }
  }
  runner.add("temp", expr::Value::string(scene.runner_temp));
  return with(base, {{"needs", expr::Value::object(needs_object(scene.job, scene.finished))},
                     {"steps", expr::Value::object(std::move(steps))},
                     {"job", expr::Value::object(std::move(job))},
                     {"env", expr::Value::object(entries_object(env))},
                     {"runner", expr::Value::object(std::move(runner))}});
}

}  // namespace reviewer::launch
