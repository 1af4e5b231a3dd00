#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/exec/step_environment.h"

// The package managers' settings in a job's steps: where npm, pnpm, yarn and Bun find what the
// host verified, and where they write. The job loop hands them to exec::build_step_environment,
// which names no package manager.
namespace reviewer::deps {

// What the job's provisioning made (provisioner.h); each empty when there is none.
struct JobTools {
  std::string npm_cache;      // the job's own copy of the view's npm cache (npm_cache_seed.h)
  std::string npm_registry;   // the view's file: registry, or the loopback (npm_config_registry.h)
  std::string http_registry;  // the loopback registry's URL (loopback_registry.h)
  std::string npm_prefix;     // npm's global prefix in the job's scratch (global_prefix.h)
  std::string yarn_mirror;    // yarn 1's offline mirror in the view (runner_yarn.h)
};

// The job's settings for `dirs`, as the runner's defaults (before the workflow's env, which may
// change them: the caches in the job's scratch) and as the review's own (after it, so the view
// the host verified wins: docs/dependencies.md).
struct ToolSettings {
  std::vector<std::pair<std::string, std::string>> defaults;
  std::vector<std::pair<std::string, std::string>> settings;
};
ToolSettings tool_settings(const JobTools& tools, const exec::JobDirs& dirs);

}  // namespace reviewer::deps
