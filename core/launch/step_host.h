#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/exec/github_files.h"
#include "core/exec/log_sink.h"
#include "core/exec/step_environment.h"
#include "core/exec/step_runner.h"
#include "core/launch/artifact_store.h"
#include "core/launch/worktree_guard.h"
#include "core/plan/plan.h"
#include "core/plugins/invoke.h"

namespace reviewer::launch {

// What one step's execute phase may use. It records every outcome it observes itself (whether
// the script ran, its exit status, timeout, GITHUB_ENV violations); the job loop judges the step
// from this record, never from the plugin's own account.
class StepHost final : public plugins::ExecuteHost {
 public:
  struct JobState {
    const plan::PlannedJob* job = nullptr;
    exec::RunnerContext runner;
    std::vector<workflow::Entry> github_env;  // accumulated from earlier steps' GITHUB_ENV
    std::vector<std::string> github_path;
    exec::Clock::time_point job_deadline;
  };

  // `artifacts` is the build's store (nullptr: none, and the artifact services fail the step).
  StepHost(const plan::PlannedStep& step, JobState& job, exec::StepRunner& runner,
           WorktreeGuard& guard, const std::string& step_dir, exec::LogSink& log,
           ArtifactStore* artifacts = nullptr);

  void log(std::string_view message) override;
  int run_script(const plugins::RunRequest& request) override;
  std::optional<plugins::HistoryShape> history_shape() override;
  void fail(const std::string& rule, const std::string& message) override;
  util::Result<std::optional<std::string>> read_worktree_file(const std::string& path) override;
  int walk_worktree(const std::string& dir, std::vector<WorktreeEntry>& out) override;
  int store_artifact(const std::string& name, const std::vector<ArtifactFile>& files) override;
  std::vector<std::string> list_artifacts() override;
  int restore_artifact(const std::string& name, const std::string& dir) override;

  bool ran() const { return result_.has_value(); }
  // The plugin moved an artifact (an emulated step: it acted without running a script).
  bool emulated() const { return emulated_; }
  const std::optional<exec::StepResult>& result() const { return result_; }
  const std::vector<report::Refusal>& failures() const { return failures_; }
  // What the step wrote to GITHUB_OUTPUT (the `steps.<id>.outputs` of later expressions).
  const std::vector<workflow::Entry>& outputs() const { return outputs_; }
  std::string label() const;

 private:
  std::optional<std::string> resolve_working_directory(const std::string& wd);

  const plan::PlannedStep& step_;
  JobState& job_;
  exec::StepRunner& runner_;
  WorktreeGuard& guard_;
  std::string step_dir_;
  exec::LogSink& log_;
  ArtifactStore* artifacts_;
  bool emulated_ = false;
  std::optional<exec::StepResult> result_;
  std::vector<report::Refusal> failures_;
  std::vector<workflow::Entry> outputs_;
};

}  // namespace reviewer::launch
