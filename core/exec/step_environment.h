#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/report/refusal.h"
#include "core/workflow/model.h"

namespace reviewer::exec {

// The per-job directories under the launcher's fresh root (/tmp/review/<n>-<job>).
struct JobDirs {
  std::string root;
  std::string home;
  std::string tmp;
  std::string cache;
  std::string runner_temp;
};

// What the launcher owns in every step's environment.
struct RunnerContext {
  std::string workspace;  // /workspace
  std::string job_id;
  std::string base_ref;
  std::string workflow_file;
  std::vector<std::string> runtime_path;  // the image's runtime bin dirs, before the system's
  JobDirs dirs;
  // GITHUB_ACTION_PATH: the directory of the local composite action whose step runs; empty for a
  // step of the workflow itself (the runner sets it for actions only).
  std::string action_path = {};
  // The package managers' settings (deps/provision/tool_settings.h), NAME and value: `defaults`
  // before the workflow's env, which may change them; `settings` after it, which it cannot.
  std::vector<std::pair<std::string, std::string>> tool_defaults = {};
  std::vector<std::pair<std::string, std::string>> tool_settings = {};
};

// Paths of the per-step GITHUB_* files.
struct StepFiles {
  std::string output;
  std::string env;
  std::string path;
  std::string summary;
};

// Builds a step's complete environment from an allowlist, never inheriting the launcher's:
// runner-like variables, then `workflow_env` (workflow and job env, already policy-checked),
// what earlier steps appended to GITHUB_ENV, then `step_env`; GITHUB_PATH entries go before the
// fixed PATH. Every name a workflow supplied is re-checked against the env policy; a violation is
// returned as refusals and the step must not run.
struct BuiltEnvironment {
  std::vector<std::string> entries;  // "NAME=value"
  report::Refusals refusals;
};
BuiltEnvironment build_step_environment(const RunnerContext& ctx, const StepFiles& files,
                                        const std::vector<workflow::Entry>& workflow_env,
                                        const std::vector<workflow::Entry>& github_env,
                                        const std::vector<std::string>& github_path,
                                        const std::vector<workflow::Entry>& step_env);

// The fixed system part of PATH.
inline constexpr const char* kSystemPath = "/usr/local/bin:/usr/bin:/bin";

}  // namespace reviewer::exec
