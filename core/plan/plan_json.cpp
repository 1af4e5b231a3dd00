#include <nlohmann/json.hpp>
#include <utility>

#include "core/plan/plan.h"

namespace reviewer::plan {
namespace {

nlohmann::json location_json(const util::SourceLocation& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

// Final values, or (run_time) the text the launcher evaluates.
nlohmann::json env_json(const std::vector<workflow::Entry>& env) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : env) {
    nlohmann::json j{{"name", e.name}, {"value", e.value}, {"location", location_json(e.location)}};
    if (e.run_time) {
      j["run_time"] = true;
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json step_json(const PlannedStep& s) {
  nlohmann::json j{{"index", s.step.index},
                   {"action", s.step.action},
                   {"plugin", s.plugin != nullptr ? s.plugin->name : ""},
                   {"decision", s.skip ? "skip" : "run"},
                   {"location", location_json(s.step.location)}};
  if (!s.step.ref.empty()) {
    j["ref"] = s.step.ref;
  }
  if (!s.release.empty()) {
    j["taken_as"] = s.release;
    j["tag"] = s.tag;
    if (!s.reviewed_on.empty()) {
      j["reviewed_on"] = s.reviewed_on;
    }
  }
  if (s.step.name) {
    j["name"] = *s.step.name;
  }
  if (s.skip) {
    j["asserts"] = s.assertion;
  }
  if (s.fetch_depth) {
    j["fetch_depth"] = *s.fetch_depth;
  }
  if (s.step.timeout_minutes) {
    j["timeout_minutes"] = *s.step.timeout_minutes;
  }
  if (s.step.shell) {
    j["shell"] = *s.step.shell;
  }
  if (s.step.working_directory) {
    j["working_directory"] = *s.step.working_directory;
  }
  if (s.step.if_condition) {
    j["if"] = *s.step.if_condition;
    j["if_decided"] = s.condition.kind == Condition::Kind::kNever     ? "never"
                      : s.condition.kind == Condition::Kind::kSuccess ? "success()"
                                                                      : "at run time";
  }
  if (s.step.continue_on_error) {
    j["continue_on_error"] = true;
  }
  if (!s.step.env.empty()) {
    j["env"] = env_json(s.step.env);
  }
  if (!s.number.empty()) {
    j["number"] = s.number;
  }
  if (s.local) {
    nlohmann::json inner = nlohmann::json::array();
    for (const auto& t : s.local->steps) {
      inner.push_back(step_json(t));
    }
    j["local_action"] = {{"file", s.local->file},
                         {"action_path", s.local->action_path},
                         {"inputs", env_json(s.local->inputs)},
                         {"outputs", env_json(s.local->outputs)},
                         {"steps", std::move(inner)}};
  }
  return j;
}

nlohmann::json jobs_json(const std::vector<PlannedJob>& planned) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& job : planned) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : job.steps) {
      steps.push_back(step_json(s));
    }
    nlohmann::json j{{"id", job.id},
                     {"needs", job.needs},
                     {"timeout_minutes", job.timeout_minutes},
                     {"if", job.condition.written.empty() ? "success()" : job.condition.written},
                     {"fetch_depth", job.fetch_depth},
                     {"env", env_json(job.env)},
                     {"location", location_json(job.location)},
                     {"steps", std::move(steps)}};
    if (!job.matrix_label.empty()) {
      j["matrix"] = job.matrix_label;
    }
    if (job.timeout_minutes_written != 0) {
      j["timeout_minutes_written"] = job.timeout_minutes_written;
    }
    if (job.called) {
      j["calls"] = {{"file", job.called->file},
                    {"inputs", env_json(job.called->inputs)},
                    {"outputs", env_json(job.called->outputs)},
                    {"jobs", jobs_json(job.called->jobs)}};
    }
    jobs.push_back(std::move(j));
  }
  return jobs;
}

}  // namespace

// Subtrees go into their parents by std::move: an initializer list copies an lvalue json, and the
// whole plan was copied twice over (a 24,000-name env took 1.8 KB a name as JSON).
nlohmann::json to_json(const Plan& plan) {
  nlohmann::json jobs = jobs_json(plan.jobs);
  nlohmann::json pins = nlohmann::json::array();
  for (const auto& p : plan.pins) {
    nlohmann::json pin = {
        {"runtime", p.runtime}, {"version", p.version}, {"location", location_json(p.location)}};
    if (!p.runner_default.empty()) {
      pin["runner_default"] = p.runner_default;
    }
    if (!p.asked.empty()) {
      pin["asked"] = p.asked;  // the step's value; `version` is the tool cache's line for it
    }
    pins.push_back(std::move(pin));
  }
  return {{"workflow", plan.workflow_file},
          {"job", plan.job},
          {"base", plan.base},
          {"jobs", std::move(jobs)},
          {"pins", std::move(pins)},
          {"secrets", plan.same_repository
                          ? "a same-repository pull request: none may be read"
                          : "a fork's pull request: every secret but GITHUB_TOKEN is empty"}};
}

}  // namespace reviewer::plan
