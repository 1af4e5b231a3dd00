#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plugins/plugin_library.h"
#include "core/plugins/workflow_view.h"
#include "core/report/refusal.h"
#include "core/util/result.h"
#include "core/workflow/model.h"

namespace reviewer::plugins {

// A runtime the resolver must satisfy (setup-node's node-version, ...): an exact version or a
// range.
struct RuntimePin {
  std::string runtime;
  std::string version;
  util::SourceLocation location;
  // Empty for a step's pin. Otherwise no step of the job pins this runtime and the job runs the
  // runner's own, which this describes ("the runner's default Node 22 (ubuntu-24.04, ...)"); the
  // planner adds such pins (core/plan/runner_image.h), plugins never do.
  std::string runner_default = {};
  // The action looks `version` up in the runner's tool cache before it downloads the newest
  // release (SDK 1.9 pin_from_tool_cache); the planner then decides which cached line CI finds
  // (core/plan/runner_image.h) and keeps the step's own value in `asked`.
  bool tool_cache = false;
  std::string asked = {};
};

// A file of the repository a plugin had the host read at plan time (SDK 1.11
// read_repository_file), and what the read found: the launcher reads it again just before the
// step executes, since an earlier step may have written it while the action reads it when it
// runs, and fails the step unless it finds the same.
struct RepositoryFileRead {
  enum class Outcome : std::uint8_t { kRead, kMissing, kUnreadable };
  std::string path;            // relative to the workspace, as the plugin asked for it
  util::SourceLocation input;  // where the step names it (the input the plugin resolved)
  std::size_t max_bytes = 0;   // the bound of the read
  Outcome outcome = Outcome::kMissing;
  std::string sha256;  // kRead: of the bytes, in hex
  friend bool operator==(const RepositoryFileRead&, const RepositoryFileRead&) = default;
};

struct PlanOutcome {
  enum class Decision { kSkip, kRun, kRefuse };
  Decision decision = Decision::kRefuse;
  std::string assertion;  // what a skip claims
  report::Refusals refusals;
  std::vector<RuntimePin> pins;
  std::optional<std::int32_t> fetch_depth;           // asserted by a skipped checkout
  std::vector<RepositoryFileRead> repository_files;  // each file once, in the order first read
};

// The repository's files as plugins read them at plan time (the planner implements it over the
// files it plans from, the launcher over the workspace: both answer alike).
class RepositoryFileReader {
 public:
  virtual ~RepositoryFileReader() = default;
  struct Answer {
    RepositoryFileRead::Outcome outcome = RepositoryFileRead::Outcome::kMissing;
    std::string bytes;   // kRead: the file; kUnreadable: why, a clause that reads after "which"
    std::string sha256;  // kRead: of the bytes, in hex
  };
  // At most `max_bytes` (at most REVIEWER_REPOSITORY_FILE_MAX_BYTES) of the regular file `path`,
  // relative to the repository, read following no link: kMissing when it does not exist,
  // kUnreadable when it is a link or reached through one, not a regular file, over the bound, or
  // `path` is not plain (empty, absolute, an empty, '.' or '..' component, a NUL byte).
  virtual Answer read(const std::string& path, std::size_t max_bytes) const = 0;
};

struct JobInfo {
  std::string job_id;
  std::string workflow_file;
  std::uint32_t step_count = 0;
  // Every step of the workflow, for the plugins' workflow-wide view; nullptr = none (plugins that
  // need it refuse).
  const WorkflowView* workflow = nullptr;
  // The jobs that complete before this one (its transitive needs); nullopt = not known.
  std::optional<std::vector<std::string>> earlier_jobs = std::nullopt;
  // The repository's files, for plugins; nullptr: the plan has none (every file a plugin asks
  // for is missing, and nothing is recorded).
  const RepositoryFileReader* repository_files = nullptr;
  // Where the job's checkout stands: the index of its first step after those whose plugins claim
  // before-checkout (plugins read it as the job context's is_first_step).
  std::uint32_t first_step = 0;
};

// Asks `plugin` to plan `step`. A plugin that answers neither or both of skip and run breaks the
// protocol and the step is refused (plugin-protocol); exceptions never cross (the SDK turns them
// into plugin-internal-error refusals).
PlanOutcome plan_step(const PluginLibrary& plugin, const workflow::Step& step, const JobInfo& job);

struct HistoryShape {
  bool shallow = false;
  std::int64_t commit_count = 0;
  std::int64_t tag_count = 0;
};

struct RunRequest {
  std::string script;
  std::string shell;
  std::string working_directory;
  std::int64_t timeout_minutes = -1;
  std::vector<workflow::Entry> env;
};

// What the host offers a plugin at execute time; the launcher implements it.
class ExecuteHost {
 public:
  virtual ~ExecuteHost() = default;
  virtual void log(std::string_view message) = 0;
  virtual int run_script(const RunRequest& request) = 0;
  virtual std::optional<HistoryShape> history_shape() = 0;
  virtual void fail(const std::string& rule, const std::string& message) = 0;
  // A worktree file for the plugin (reviewer_host_services.read_worktree_file): its text,
  // nullopt when missing, or a refusal (a link, not a regular file, too large, outside).
  virtual util::Result<std::optional<std::string>> read_worktree_file(const std::string& path) = 0;

  // The artifact services (SDK 1.3, reviewer_host_services): each returns 0 when done, 1 when
  // what it names does not exist, or -1 after failing the step itself with a named rule. A host
  // without an artifact store fails the step (artifact-store-unavailable).
  struct WorktreeEntry {
    std::string path;
    int kind = 0;  // REVIEWER_ENTRY_*
  };
  struct ArtifactFile {
    std::string source;
    std::string path;
  };
  virtual int walk_worktree(const std::string& dir, std::vector<WorktreeEntry>& out);
  virtual int store_artifact(const std::string& name, const std::vector<ArtifactFile>& files);
  virtual std::vector<std::string> list_artifacts() { return {}; }
  virtual int restore_artifact(const std::string& name, const std::string& dir);
};

// Runs `plugin`'s execute phase for `step` against `host`.
void execute_step(const PluginLibrary& plugin, const workflow::Step& step, ExecuteHost& host);

}  // namespace reviewer::plugins
