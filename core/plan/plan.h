#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/plugins/invoke.h"
#include "core/workflow/model.h"

namespace reviewer::plan {

inline constexpr std::int64_t kDefaultJobTimeoutMinutes = 360;

struct PlannedStep {
  workflow::Step step;  // with the job's and workflow's `defaults.run` applied to run steps
  // The plugin that planned the step and will execute it: libraries are never unloaded, so the
  // pointer stays valid for the process's life and the launcher never looks it up again.
  const plugins::PluginLibrary* plugin = nullptr;
  bool skip = false;  // false: run
  // `if: always()`: the step runs even after an earlier step of its job failed.
  bool always = false;
  std::string assertion;
  std::optional<std::int32_t> fetch_depth;  // a skipped checkout's claim, verified at execute
};

struct PlannedJob {
  std::string id;
  std::vector<std::string> needs;
  std::int64_t timeout_minutes = kDefaultJobTimeoutMinutes;
  // The job's own timeout-minutes when it was larger than kDefaultJobTimeoutMinutes, which is
  // also GitHub-hosted runners' limit (timeout_minutes is then that limit); 0 otherwise.
  std::int64_t timeout_minutes_written = 0;
  bool always = false;  // `if: always()`; otherwise the job runs only if every need succeeded
  std::vector<workflow::Entry> env;  // workflow env overlaid by job env
  std::vector<PlannedStep> steps;
  int fetch_depth = 1;  // from the job's checkout step
  util::SourceLocation location;
};

// What the launcher will run: the host-named job and the jobs it needs, in dependency order.
struct Plan {
  std::string workflow_file;
  std::string job;
  std::string base;
  std::vector<PlannedJob> jobs;
  std::vector<plugins::RuntimePin> pins;
};

nlohmann::json to_json(const Plan& plan);

}  // namespace reviewer::plan
