#include "core/plugins/invoke.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/plugins/step_view.h"
#include "core/util/check.h"
#include "core/util/text.h"

namespace reviewer::plugins {
namespace {

reviewer_str c_str(const std::string& s) { return {s.data(), s.size()}; }
std::string str(reviewer_str s) {
  return s.data == nullptr ? std::string{} : std::string(s.data, s.size);
}
util::SourceLocation loc(const reviewer_location& l) { return {str(l.file), l.line, l.column}; }

struct PlanCollector {
  PlanOutcome outcome;
  int skips = 0;
  int runs = 0;
  const RepositoryFileReader* files = nullptr;
  const PluginLibrary* plugin = nullptr;
  util::SourceLocation step_location;
};

PlanCollector* collector(void* host) { return static_cast<PlanCollector*>(host); }

// Keeps an action handle for the length of one call.
class ActionHandle {
 public:
  explicit ActionHandle(const reviewer_plugin_descriptor* d) : d_(d), h_(d->create()) {}
  ~ActionHandle() {
    if (h_ != nullptr) {
      d_->destroy(h_);
    }
  }
  ActionHandle(const ActionHandle&) = delete;
  ActionHandle& operator=(const ActionHandle&) = delete;
  reviewer_action_handle get() const { return h_; }

 private:
  const reviewer_plugin_descriptor* d_;
  reviewer_action_handle h_;
};

struct ExecuteBridge {
  ExecuteHost* host;
};

ExecuteHost& bridge(void* h) { return *static_cast<ExecuteBridge*>(h)->host; }

}  // namespace

int ExecuteHost::walk_worktree(const std::string&, std::vector<WorktreeEntry>&) {
  fail("artifact-store-unavailable", "this host keeps no artifact store");
  return -1;
}

int ExecuteHost::store_artifact(const std::string&, const std::vector<ArtifactFile>&) {
  fail("artifact-store-unavailable", "this host keeps no artifact store");
  return -1;
}

int ExecuteHost::restore_artifact(const std::string&, const std::string&) {
  fail("artifact-store-unavailable", "this host keeps no artifact store");
  return -1;
}

namespace {

// Whether the plugin was built with SDK `major`.`minor` or later ("1.7.0").
bool sdk_at_least(const char* version, int major, int minor) {
  int got_major = 0;
  int got_minor = 0;
  if (version == nullptr || std::sscanf(version, "%d.%d", &got_major, &got_minor) != 2) {
    return false;
  }
  return got_major > major || (got_major == major && got_minor >= minor);
}

// A plugin built before SDK 1.7 cannot tell a run-token input from a literal value: a step
// passing it one is refused (nullopt: nothing to refuse).
std::optional<PlanOutcome> refuse_run_token_for_old_sdk(const PluginLibrary& plugin,
                                                        const workflow::Step& step) {
  if (sdk_at_least(plugin.descriptor->sdk_version, 1, 7)) {
    return std::nullopt;
  }
  PlanOutcome old;
  for (const auto& e : step.inputs) {
    if (e.run_token) {
      old.decision = PlanOutcome::Decision::kRefuse;
      old.refusals.push_back(
          {"expression-value-unknown",
           fmt::format("input '{}' is the run's GITHUB_TOKEN, which only the real run has, and "
                       "plugin '{}' (SDK {}) predates the SDK that can say its value cannot "
                       "matter",
                       e.name, plugin.name, plugin.descriptor->sdk_version),
           e.location});
    }
  }
  if (old.refusals.empty()) {
    return std::nullopt;
  }
  return old;
}

constexpr std::size_t kMaxFileBytes = REVIEWER_REPOSITORY_FILE_MAX_BYTES;

// A non-null pointer says "known", even for a job that needs nothing.
const reviewer_str kNoEarlierJobs{"", 0};

// The job as a plugin sees it while it plans one step; its earlier jobs' ids stay here while the
// context points at them.
class JobContext {
 public:
  JobContext(const JobInfo& job, const workflow::Step& step) {
    if (job.earlier_jobs) {
      for (const auto& id : *job.earlier_jobs) {
        earlier_.push_back(c_str(id));
      }
    }
    ctx_ = reviewer_job_context{sizeof(reviewer_job_context),
                                c_str(job.job_id),
                                c_str(job.workflow_file),
                                job.step_count,
                                step.index == job.first_step ? 1 : 0,
                                job.workflow != nullptr ? job.workflow->data() : nullptr,
                                job.workflow != nullptr ? job.workflow->size() : 0,
                                !job.earlier_jobs  ? nullptr
                                : earlier_.empty() ? &kNoEarlierJobs
                                                   : earlier_.data(),
                                earlier_.size()};
  }
  JobContext(const JobContext&) = delete;
  JobContext& operator=(const JobContext&) = delete;
  const reviewer_job_context* get() const { return &ctx_; }

 private:
  std::vector<reviewer_str> earlier_;
  reviewer_job_context ctx_{};
};

// The sink's read_version_file, withdrawn in SDK 1.11: the host no longer knows any action's
// version-file rules, so a plugin built against them is refused, by name.
std::int32_t refuse_version_file_rules(void* h, std::int32_t, reviewer_str, reviewer_location,
                                       void*, void (*)(void*, reviewer_str, reviewer_location)) {
  PlanCollector& pc = *collector(h);
  pc.outcome.refusals.push_back(
      {"plugin-protocol",
       fmt::format("plugin '{}' (SDK {}) asked the host to read a version file by an action's "
                   "rules (read_version_file), which this host no longer knows; rebuild it "
                   "against SDK 1.11, whose plugins read the file through read_repository_file "
                   "with the action's rules of their own",
                   pc.plugin->name, pc.plugin->descriptor->sdk_version),
       pc.step_location});
  return std::int32_t{-1};
}

// The sink's read_repository_file: the host's reader answers, and the plan records what it found
// (each file once) for the launcher to read again before the step.
std::int32_t read_repository_file(void* h, reviewer_str path, std::size_t max_bytes,
                                  reviewer_location where, void* out,
                                  void (*deliver)(void*, reviewer_str)) {
  PlanCollector& pc = *collector(h);
  if (pc.files == nullptr) {
    return std::int32_t{1};  // a plan without the repository's files sees none of them
  }
  auto answer = pc.files->read(str(path), max_bytes);
  RepositoryFileRead read{str(path), loc(where), std::min<std::size_t>(max_bytes, kMaxFileBytes),
                          answer.outcome, answer.sha256};
  auto& reads = pc.outcome.repository_files;
  if (std::find_if(reads.begin(), reads.end(), [&](const RepositoryFileRead& r) {
        return r.path == read.path;
      }) == reads.end()) {
    reads.push_back(std::move(read));
  }
  switch (answer.outcome) {
    case RepositoryFileRead::Outcome::kRead:
      deliver(out, c_str(answer.bytes));
      return std::int32_t{0};
    case RepositoryFileRead::Outcome::kMissing:
      return std::int32_t{1};
    case RepositoryFileRead::Outcome::kUnreadable:
      break;
  }
  deliver(out, c_str(answer.bytes));
  return std::int32_t{-1};
}

// The sink through which the plugin answers, each answer collected into `c`.
reviewer_plan_sink plan_sink(PlanCollector& c) {
  reviewer_plan_sink sink{};
  sink.struct_size = sizeof(sink);
  sink.host = &c;
  sink.skip = [](void* h, reviewer_str assertion) {
    collector(h)->skips++;
    collector(h)->outcome.assertion = str(assertion);
  };
  sink.run = [](void* h) { collector(h)->runs++; };
  sink.refuse = [](void* h, reviewer_str rule, reviewer_str message, reviewer_location where) {
    collector(h)->outcome.refusals.push_back({str(rule), str(message), loc(where)});
  };
  sink.pin = [](void* h, reviewer_str runtime, reviewer_str version, reviewer_location where) {
    collector(h)->outcome.pins.push_back({str(runtime), str(version), loc(where)});
  };
  sink.pin_from_tool_cache = [](void* h, reviewer_str runtime, reviewer_str version,
                                reviewer_location where) {
    RuntimePin pin{str(runtime), str(version), loc(where)};
    pin.tool_cache = true;
    collector(h)->outcome.pins.push_back(std::move(pin));
  };
  sink.assert_fetch_depth = [](void* h, std::int32_t depth) {
    collector(h)->outcome.fetch_depth = depth;
  };
  sink.read_version_file = refuse_version_file_rules;
  sink.read_repository_file = read_repository_file;
  return sink;
}

// The decision the plugin's answers make: a refusal refuses, else exactly one skip or run.
PlanOutcome decided(PlanCollector& c, const PluginLibrary& plugin, const workflow::Step& step) {
  PlanOutcome& out = c.outcome;
  if (!out.refusals.empty()) {
    out.decision = PlanOutcome::Decision::kRefuse;
  } else if (c.skips + c.runs != 1) {
    out.decision = PlanOutcome::Decision::kRefuse;
    out.refusals.push_back({"plugin-protocol",
                            fmt::format("plugin '{}' answered {} skip and {} run decisions for one "
                                        "step; exactly one is required",
                                        plugin.name, c.skips, c.runs),
                            step.location});
  } else {
    out.decision = c.skips == 1 ? PlanOutcome::Decision::kSkip : PlanOutcome::Decision::kRun;
  }
  return std::move(c.outcome);
}

}  // namespace

PlanOutcome plan_step(const PluginLibrary& plugin, const workflow::Step& step, const JobInfo& job) {
  if (auto refused = refuse_run_token_for_old_sdk(plugin, step)) {
    return std::move(*refused);
  }
  StepViewStorage view(step);
  const JobContext ctx(job, step);
  PlanCollector c;
  c.files = job.repository_files;
  c.plugin = &plugin;
  c.step_location = step.location;
  reviewer_plan_sink sink = plan_sink(c);
  ActionHandle action(plugin.descriptor);
  if (action.get() == nullptr) {
    c.outcome.refusals.push_back(
        {"plugin-internal-error",
         fmt::format("plugin '{}' could not create its action", plugin.name), step.location});
    return std::move(c.outcome);
  }
  plugin.descriptor->plan(action.get(), view.get(), ctx.get(), &sink);
  return decided(c, plugin, step);
}

void execute_step(const PluginLibrary& plugin, const workflow::Step& step, ExecuteHost& host) {
  StepViewStorage view(step);
  ExecuteBridge b{&host};
  reviewer_host_services s{};
  s.struct_size = sizeof(s);
  s.host = &b;
  s.log = [](void* h, reviewer_str message) {
    bridge(h).log(std::string_view(message.data, message.size));
  };
  s.run_script = [](void* h, const reviewer_run_request* r) -> std::int32_t {
    RunRequest req{
        str(r->script), str(r->shell), str(r->working_directory), r->timeout_minutes, {}};
    for (std::size_t i = 0; i < r->env_count; ++i) {
      req.env.push_back({str(r->env[i].name), str(r->env[i].value), loc(r->env[i].location)});
    }
    return bridge(h).run_script(req);
  };
  s.history_shape = [](void* h, reviewer_history_shape* out) -> std::int32_t {
    auto shape = bridge(h).history_shape();
    if (!shape) {
      return -1;
    }
    *out = {shape->shallow ? 1 : 0, shape->commit_count, shape->tag_count};
    return 0;
  };
  s.fail = [](void* h, reviewer_str rule, reviewer_str message) {
    bridge(h).fail(str(rule), str(message));
  };
  s.read_worktree_file = [](void* h, reviewer_str path, void* out,
                            void (*deliver)(void*, reviewer_str)) -> std::int32_t {
    auto read = bridge(h).read_worktree_file(str(path));
    if (!read) {
      return -1;
    }
    if (!*read) {
      return 1;
    }
    deliver(out, reviewer_str{(*read)->data(), (*read)->size()});
    return 0;
  };
  s.walk_worktree = [](void* h, reviewer_str dir, void* out,
                       void (*visit)(void*, reviewer_str, std::int32_t)) -> std::int32_t {
    std::vector<ExecuteHost::WorktreeEntry> entries;
    const int r = bridge(h).walk_worktree(str(dir), entries);
    if (r == 0) {
      for (const auto& e : entries) {
        visit(out, c_str(e.path), e.kind);
      }
    }
    return r;
  };
  s.store_artifact = [](void* h, reviewer_str name, const reviewer_artifact_file* files,
                        std::size_t count) -> std::int32_t {
    std::vector<ExecuteHost::ArtifactFile> list;
    list.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      list.push_back({str(files[i].source), str(files[i].path)});
    }
    return bridge(h).store_artifact(str(name), list);
  };
  s.list_artifacts = [](void* h, void* out, void (*deliver)(void*, reviewer_str)) -> std::int32_t {
    for (const auto& name : bridge(h).list_artifacts()) {
      deliver(out, c_str(name));
    }
    return 0;
  };
  s.restore_artifact = [](void* h, reviewer_str name, reviewer_str dir) -> std::int32_t {
    return bridge(h).restore_artifact(str(name), str(dir));
  };
  ActionHandle action(plugin.descriptor);
  if (action.get() == nullptr) {
    host.fail("plugin-internal-error",
              fmt::format("plugin '{}' could not create its action", plugin.name));
    return;
  }
  plugin.descriptor->execute(action.get(), view.get(), &s);
}

}  // namespace reviewer::plugins
