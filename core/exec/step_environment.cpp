#include "core/exec/step_environment.h"

#include <map>

#include "core/workflow/env_policy.h"

namespace reviewer::exec {

BuiltEnvironment build_step_environment(const RunnerContext& ctx, const StepFiles& files,
                                        const std::vector<workflow::Entry>& workflow_env,
                                        const std::vector<workflow::Entry>& github_env,
                                        const std::vector<std::string>& github_path,
                                        const std::vector<workflow::Entry>& step_env) {
  BuiltEnvironment out;
  std::string path;
  // GITHUB_PATH entries are prepended in the order they were added: the newest first.
  for (auto it = github_path.rbegin(); it != github_path.rend(); ++it) {
    path += *it + ":";
  }
  for (const auto& dir : ctx.runtime_path) {
    path += dir + ":";
  }
  path += kSystemPath;

  std::map<std::string, std::string> env{
      {"PATH", path},
      {"HOME", ctx.dirs.home},
      {"TMPDIR", ctx.dirs.tmp},
      {"XDG_CACHE_HOME", ctx.dirs.cache},
      {"XDG_CONFIG_HOME", ctx.dirs.home + "/.config"},
      {"LANG", "C.UTF-8"},
      {"CI", "true"},
      {"GITHUB_ACTIONS", "true"},
      {"GITHUB_WORKSPACE", ctx.workspace},
      {"GITHUB_EVENT_NAME", "pull_request"},
      {"GITHUB_BASE_REF", ctx.base_ref},
      {"GITHUB_JOB", ctx.job_id},
      {"GITHUB_OUTPUT", files.output},
      {"GITHUB_ENV", files.env},
      {"GITHUB_PATH", files.path},
      {"GITHUB_STEP_SUMMARY", files.summary},
      {"RUNNER_OS", "Linux"},
      {"RUNNER_ARCH", "X64"},
      {"RUNNER_TEMP", ctx.dirs.runner_temp},
      {"RUNNER_ENVIRONMENT", "github-hosted"},
  };
  for (const auto& [name, value] : ctx.tool_defaults) {
    env[name] = value;
  }
  if (!ctx.action_path.empty()) {
    env["GITHUB_ACTION_PATH"] = ctx.action_path;
  }
  auto apply = [&](const std::vector<workflow::Entry>& entries, const char* origin) {
    for (const auto& e : entries) {
      if (auto verdict = workflow::check_env_entry(e.name, e.value)) {
        out.refusals.push_back(
            {verdict->rule, std::string(origin) + " env '" + e.name + "' " + verdict->reason,
             e.location.file.empty() ? std::nullopt : std::optional(e.location)});
        continue;
      }
      env[e.name] = e.value;
    }
  };
  apply(workflow_env, "workflow/job");
  apply(github_env, "GITHUB_ENV");
  apply(step_env, "step");
  // The package managers' settings the review makes its own: what the host verified wins.
  for (const auto& [name, value] : ctx.tool_settings) {
    env[name] = value;
  }
  for (const auto& [k, v] : env) {
    out.entries.push_back(k + "=" + v);
  }
  return out;
}

}  // namespace reviewer::exec
