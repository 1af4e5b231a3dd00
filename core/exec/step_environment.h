#pragma once

#include <string>
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
  // The read-only npm cache the host prepared from the lock file (contract::kDependencyMount);
  // empty when the host mounted none.
  std::string dependency_cache;
  // The view's file: registry of a pnpm lock's tarballs ("file:///var/cache/reviewer-deps/
  // registry/"), or the loopback registry for a plan that pins pnpm 8 (launch/
  // npm_config_registry.h); empty when the host placed none.
  std::string dependency_registry;
  // GITHUB_ACTION_PATH: the directory of the local composite action whose step runs; empty for a
  // step of the workflow itself (the runner sets it for actions only).
  std::string action_path = {};
  // yarn 1's offline mirror in the view ("/var/cache/reviewer-deps/yarn-mirror"), for a worktree
  // with a yarn.lock; empty when the host made none.
  std::string yarn_mirror = {};
  // npm's global prefix: a directory of the job's own scratch (deps/provision/global_prefix.h);
  // empty when the launcher made none.
  std::string npm_prefix = {};
  // The same registry served over HTTP on the sandbox's loopback ("http://127.0.0.1:PORT/",
  // deps/provision/loopback_registry.h), for pnpm 11 and yarn 2 and later; empty when none runs.
  std::string http_registry = {};
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
