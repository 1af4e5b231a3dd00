// The C++ face of the plugin contract. A plugin author derives from reviewer::sdk::Action and
// writes one REVIEWER_PLUGIN(...) line; the C structs of abi.h stay out of sight.
#pragma once

#include <reviewer/sdk/abi.h>
#include <reviewer/sdk/version.h>
#include <reviewer/sdk/claim.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::sdk {

// SDK 1.11: a refusal rule of the plugin's own and its catalogue entry
// (REVIEWER_PLUGIN_WITH_RULES).
using Rule = reviewer_rule_entry;

inline std::string_view view(reviewer_str s) {
  return s.data == nullptr ? std::string_view{} : std::string_view{s.data, s.size};
}
inline reviewer_str c_str(std::string_view s) { return reviewer_str{s.data(), s.size()}; }

struct Location {
  std::string_view file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  reviewer_location to_c() const { return reviewer_location{c_str(file), line, column}; }
  static Location from_c(const reviewer_location& l) { return {view(l.file), l.line, l.column}; }
};

struct Entry {
  std::string_view name;
  std::string_view value;
  Location location;
};

// A contiguous list of entries (inputs or env), iterable and searchable by name.
class Entries {
 public:
  Entries(const reviewer_entry* data, std::size_t size) : data_(data), size_(size) {}
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Entry operator[](std::size_t i) const {
    return {view(data_[i].name), view(data_[i].value), Location::from_c(data_[i].location)};
  }
  // The entry named `name`, if present (the planner has already refused duplicates).
  std::optional<Entry> find(std::string_view name) const {
    for (std::size_t i = 0; i < size_; ++i) {
      if (view(data_[i].name) == name) {
        return (*this)[i];
      }
    }
    return std::nullopt;
  }

  class Iterator {
   public:
    Iterator(const Entries* owner, std::size_t i) : owner_(owner), i_(i) {}
    Entry operator*() const { return (*owner_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    const Entries* owner_;
    std::size_t i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size_}; }

 private:
  const reviewer_entry* data_;
  std::size_t size_;
};

// Read-only view of one step: literal values only, each with its source location.
class StepView {
 public:
  explicit StepView(const reviewer_step_view& s) : s_(s) {}
  std::string_view job_id() const { return view(s_.job_id); }
  std::uint32_t index() const { return s_.index; }
  std::string_view name() const { return view(s_.name); }
  std::string_view action() const { return view(s_.action); }
  std::string_view ref() const { return view(s_.ref); }
  std::string_view run() const { return view(s_.run); }
  std::optional<std::string_view> shell() const { return optional(s_.shell); }
  std::optional<std::string_view> working_directory() const {
    return optional(s_.working_directory);
  }
  std::optional<std::string_view> if_condition() const { return optional(s_.if_condition); }
  std::optional<std::int64_t> timeout_minutes() const {
    if (s_.timeout_minutes < 0) {
      return std::nullopt;
    }
    return s_.timeout_minutes;
  }
  Entries inputs() const { return {s_.inputs, s_.input_count}; }
  Entries env() const { return {s_.env, s_.env_count}; }
  // SDK 1.7: whether input `name` is the run's GITHUB_TOKEN, whose value only the real run has
  // (its value here is the expression as written).
  bool is_run_token(std::string_view name) const {
    if (s_.struct_size < offsetof(reviewer_step_view, run_token_input_count) + sizeof(size_t)) {
      return false;
    }
    for (std::size_t i = 0; i < s_.run_token_input_count; ++i) {
      if (view(s_.run_token_inputs[i]) == name) {
        return true;
      }
    }
    return false;
  }
  Location location() const { return Location::from_c(s_.location); }
  Location uses_location() const { return Location::from_c(s_.uses_location); }
  Location timeout_location() const { return Location::from_c(s_.timeout_location); }
  const reviewer_step_view& raw() const { return s_; }

 private:
  static std::optional<std::string_view> optional(reviewer_str s) {
    if (s.data == nullptr) {
      return std::nullopt;
    }
    return view(s);
  }
  const reviewer_step_view& s_;
};

// Every step of the workflow as written (see reviewer_job_context::workflow_steps): iterable as
// StepView, whose inputs keep `${{ }}` expressions verbatim.
class WorkflowSteps {
 public:
  WorkflowSteps(const reviewer_step_view* data, std::size_t size) : data_(data), size_(size) {}
  std::size_t size() const { return size_; }
  StepView operator[](std::size_t i) const { return StepView(data_[i]); }

  class Iterator {
   public:
    Iterator(const reviewer_step_view* p) : p_(p) {}
    StepView operator*() const { return StepView(*p_); }
    Iterator& operator++() {
      ++p_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return p_ != o.p_; }

   private:
    const reviewer_step_view* p_;
  };
  Iterator begin() const { return {data_}; }
  Iterator end() const { return {data_ + size_}; }

 private:
  const reviewer_step_view* data_;
  std::size_t size_;
};

class JobContext {
 public:
  explicit JobContext(const reviewer_job_context& c) : c_(c) {}
  std::string_view job_id() const { return view(c_.job_id); }
  std::string_view workflow_file() const { return view(c_.workflow_file); }
  std::uint32_t step_count() const { return c_.step_count; }
  bool is_first_step() const { return c_.is_first_step != 0; }
  // SDK 1.1: every step of every job of the workflow, in file order, this step included; nullopt
  // when the host gives no workflow-wide view (a host older than 1.1), and a plugin that needs
  // one must then refuse rather than assume.
  std::optional<WorkflowSteps> workflow_steps() const {
    constexpr std::size_t kNeeded =
        offsetof(reviewer_job_context, workflow_step_count) + sizeof(std::size_t);
    if (c_.struct_size < kNeeded || c_.workflow_steps == nullptr) {
      return std::nullopt;
    }
    return WorkflowSteps(c_.workflow_steps, c_.workflow_step_count);
  }
  // SDK 1.3: the jobs GitHub completes before this job starts (every job it needs, transitively);
  // nullopt when the host does not say, and a plugin that needs it must then refuse.
  std::optional<std::vector<std::string_view>> earlier_jobs() const {
    constexpr std::size_t kNeeded =
        offsetof(reviewer_job_context, earlier_job_count) + sizeof(std::size_t);
    if (c_.struct_size < kNeeded || c_.earlier_jobs == nullptr) {
      return std::nullopt;
    }
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < c_.earlier_job_count; ++i) {
      out.push_back(view(c_.earlier_jobs[i]));
    }
    return out;
  }

 private:
  const reviewer_job_context& c_;
};

// What the host answered for a repository file (PlanDecision::read_repository_file): kRead with
// its bytes, kMissing, kRefused with why it may not be read in `bytes` (a clause that reads after
// "which": "is not a regular file"), or kUnavailable from a host too old to read one.
struct RepositoryFile {
  enum class Status { kRead, kMissing, kRefused, kUnavailable };
  Status status = Status::kUnavailable;
  std::string bytes;
};

// The plan phase's answer. Call skip(), run() or refuse() (refuse as often as there are reasons).
class PlanDecision {
 public:
  explicit PlanDecision(const reviewer_plan_sink& s) : s_(s) {}
  // The step is skipped; `assertion` says what the skip claims, for the report.
  void skip(std::string_view assertion) const { s_.skip(s_.host, c_str(assertion)); }
  void run() const { s_.run(s_.host); }
  void refuse(std::string_view rule, std::string_view message, const Location& where) const {
    s_.refuse(s_.host, c_str(rule), c_str(message), where.to_c());
  }
  // The resolver must select an image whose `runtime` is exactly `version`.
  void pin(std::string_view runtime, std::string_view version, const Location& where) const {
    s_.pin(s_.host, c_str(runtime), c_str(version), where.to_c());
  }
  // SDK 1.9: like pin(), for a version the action looks up in the runner's tool cache before it
  // downloads the newest release (actions/setup-node without check-latest): the host's planner
  // decides which cached line CI finds when it can. A host older than 1.9 gets a plain pin.
  void pin_from_tool_cache(std::string_view runtime, std::string_view version,
                           const Location& where) const {
    if (s_.struct_size <
            offsetof(reviewer_plan_sink, pin_from_tool_cache) + sizeof(s_.pin_from_tool_cache) ||
        s_.pin_from_tool_cache == nullptr) {
      pin(runtime, version, where);
      return;
    }
    s_.pin_from_tool_cache(s_.host, c_str(runtime), c_str(version), where.to_c());
  }
  // At execute time the host verifies the worktree's history against this fetch-depth.
  void assert_fetch_depth(std::int32_t depth) const { s_.assert_fetch_depth(s_.host, depth); }

  // SDK 1.11: whether the host reads repository files for plugins (read_repository_file); a
  // plugin that needs one must refuse the step on an older host.
  bool reads_repository_files() const {
    return s_.struct_size >= offsetof(reviewer_plan_sink, read_repository_file) +
                                 sizeof(s_.read_repository_file) &&
           s_.read_repository_file != nullptr;
  }
  // SDK 1.11: the file `path` of the repository under review (relative to the workspace, plain),
  // read by the host without following links, at most `max_bytes` bytes (1 MiB at most;
  // reviewer_plan_sink's read_repository_file). `where` is the step input naming it. The host
  // records what it found, and the launcher fails the step if the file gives something else when
  // the step executes. kUnavailable from a host older than 1.11.
  RepositoryFile read_repository_file(std::string_view path, std::size_t max_bytes,
                                      const Location& where) const {
    RepositoryFile out;
    if (!reads_repository_files()) {
      return out;
    }
    const int32_t r = s_.read_repository_file(
        s_.host, c_str(path), max_bytes, where.to_c(), &out.bytes,
        [](void* o, reviewer_str bytes) { static_cast<std::string*>(o)->assign(view(bytes)); });
    out.status = r == 0   ? RepositoryFile::Status::kRead
                 : r == 1 ? RepositoryFile::Status::kMissing
                          : RepositoryFile::Status::kRefused;
    return out;
  }

 private:
  const reviewer_plan_sink& s_;
};

struct HistoryShape {
  bool shallow = false;
  std::int64_t commit_count = 0;
  std::int64_t tag_count = 0;
};

struct RunRequest {
  std::string_view script;
  std::string_view shell;  // "" = CI's default `bash -e {0}`; "bash" = with pipefail
  std::string_view working_directory;
  std::int64_t timeout_minutes = -1;
  const reviewer_entry* env = nullptr;
  std::size_t env_count = 0;
};

// The narrow host services of the execute phase. Every outcome the host can observe (exit
// status, timeout, leftovers) it records itself; return values are for the plugin's information.
class Services {
 public:
  explicit Services(const reviewer_host_services& h) : h_(h) {}
  void log(std::string_view message) const { h_.log(h_.host, c_str(message)); }
  // Runs the script under the host's supervisor; returns its exit status (or -1 if not started).
  int run_script(const RunRequest& r) const {
    reviewer_run_request c{c_str(r.script),   c_str(r.shell), c_str(r.working_directory),
                           r.timeout_minutes, r.env,          r.env_count};
    return h_.run_script(h_.host, &c);
  }
  std::optional<HistoryShape> history_shape() const {
    reviewer_history_shape out{};
    if (h_.history_shape(h_.host, &out) != 0) {
      return std::nullopt;
    }
    return HistoryShape{out.shallow != 0, out.commit_count, out.tag_count};
  }
  // A worktree file, read by the host (plugins never touch files themselves): kRead with its
  // text, kMissing, or kRefused (a link, not a regular file, over 1 MiB, or a host too old to
  // offer the service).
  enum class FileStatus { kRead, kMissing, kRefused };
  struct WorktreeFile {
    FileStatus status = FileStatus::kRefused;
    std::string text;
  };
  WorktreeFile read_worktree_file(std::string_view path) const {
    WorktreeFile out;
    if (h_.struct_size <
            offsetof(reviewer_host_services, read_worktree_file) + sizeof(h_.read_worktree_file) ||
        h_.read_worktree_file == nullptr) {
      return out;
    }
    const int32_t r =
        h_.read_worktree_file(h_.host, c_str(path), &out.text, [](void* o, reviewer_str bytes) {
          static_cast<std::string*>(o)->assign(bytes.data, bytes.size);
        });
    out.status = r == 0 ? FileStatus::kRead : r == 1 ? FileStatus::kMissing : FileStatus::kRefused;
    return out;
  }
  // SDK 1.3, the artifact services (abi.h). Each answers kRefused after the host failed the step
  // with a named rule, or when the host is too old to offer it (then the plugin must fail).
  enum class ArtifactStatus { kDone, kMissing, kRefused };
  struct WorktreeEntry {
    std::string path;
    int kind = REVIEWER_ENTRY_OTHER;
  };
  bool has_artifact_services() const {
    return h_.struct_size >=
               offsetof(reviewer_host_services, restore_artifact) + sizeof(h_.restore_artifact) &&
           h_.restore_artifact != nullptr;
  }
  // `dir` and everything below it (links reported, never entered).
  ArtifactStatus walk_worktree(std::string_view dir, std::vector<WorktreeEntry>& out) const {
    if (!has_artifact_services()) {
      return ArtifactStatus::kRefused;
    }
    return status(
        h_.walk_worktree(h_.host, c_str(dir), &out, [](void* o, reviewer_str path, int32_t kind) {
          static_cast<std::vector<WorktreeEntry>*>(o)->push_back({std::string(view(path)), kind});
        }));
  }
  struct ArtifactFile {
    std::string source;  // relative to the worktree
    std::string path;    // inside the artifact
  };
  ArtifactStatus store_artifact(std::string_view name,
                                const std::vector<ArtifactFile>& files) const {
    if (!has_artifact_services()) {
      return ArtifactStatus::kRefused;
    }
    std::vector<reviewer_artifact_file> c;
    c.reserve(files.size());
    for (const auto& f : files) {
      c.push_back({c_str(f.source), c_str(f.path)});
    }
    return status(h_.store_artifact(h_.host, c_str(name), c.data(), c.size()));
  }
  std::optional<std::vector<std::string>> list_artifacts() const {
    if (!has_artifact_services()) {
      return std::nullopt;
    }
    std::vector<std::string> out;
    h_.list_artifacts(h_.host, &out, [](void* o, reviewer_str name) {
      static_cast<std::vector<std::string>*>(o)->emplace_back(view(name));
    });
    return out;
  }
  ArtifactStatus restore_artifact(std::string_view name, std::string_view dir) const {
    if (!has_artifact_services()) {
      return ArtifactStatus::kRefused;
    }
    return status(h_.restore_artifact(h_.host, c_str(name), c_str(dir)));
  }
  // The step fails with a named rule (a skip whose assertion does not hold at build time).
  void fail(std::string_view rule, std::string_view message) const {
    h_.fail(h_.host, c_str(rule), c_str(message));
  }

 private:
  static ArtifactStatus status(int32_t r) {
    return r == 0   ? ArtifactStatus::kDone
           : r == 1 ? ArtifactStatus::kMissing
                    : ArtifactStatus::kRefused;
  }
  const reviewer_host_services& h_;
};

class Action {
 public:
  virtual ~Action() = default;
  // Static: decide skip, run or refuse from the step's literal content alone.
  virtual void plan(const StepView& step, const JobContext& job, PlanDecision& decision) = 0;
  // At build time: verify what a skip asserted, or run what a run decision planned.
  virtual void execute(const StepView& step, Services& services) = 0;
};

namespace detail {

template <class ActionT>
reviewer_action_handle create() noexcept {
  try {
    return static_cast<Action*>(new ActionT());
  } catch (...) {
    return nullptr;
  }
}

inline void destroy(reviewer_action_handle h) noexcept { delete static_cast<Action*>(h); }

inline void plan(reviewer_action_handle h, const reviewer_step_view* s,
                 const reviewer_job_context* j, const reviewer_plan_sink* sink) noexcept {
  PlanDecision decision(*sink);
  StepView step(*s);
  try {
    static_cast<Action*>(h)->plan(step, JobContext(*j), decision);
  } catch (const std::exception& e) {
    decision.refuse("plugin-internal-error", e.what(), step.location());
  } catch (...) {
    decision.refuse("plugin-internal-error", "plugin threw a non-standard exception",
                    step.location());
  }
}

inline void execute(reviewer_action_handle h, const reviewer_step_view* s,
                    const reviewer_host_services* services) noexcept {
  Services svc(*services);
  try {
    static_cast<Action*>(h)->execute(StepView(*s), svc);
  } catch (const std::exception& e) {
    svc.fail("plugin-internal-error", e.what());
  } catch (...) {
    svc.fail("plugin-internal-error", "plugin threw a non-standard exception");
  }
}

}  // namespace detail
}  // namespace reviewer::sdk

#define REVIEWER_DETAIL_CAT2(a, b) a##b
#define REVIEWER_DETAIL_CAT(a, b) REVIEWER_DETAIL_CAT2(a, b)
#define REVIEWER_DETAIL_ENTRY REVIEWER_DETAIL_CAT(reviewer_plugin_v, REVIEWER_ABI_VERSION)

// Declares the plugin: the Action class and its Claim (claim.hpp). The plugin's name is the
// shared object's file stem, which reviewer_add_plugin() passes as REVIEWER_PLUGIN_NAME, so it
// is written once, in CMake.
#define REVIEWER_PLUGIN(ACTION_CLASS, CLAIM) \
  REVIEWER_PLUGIN_NAMED(REVIEWER_DETAIL_PLUGIN_NAME, ACTION_CLASS, CLAIM)

#ifdef REVIEWER_PLUGIN_NAME
#define REVIEWER_DETAIL_PLUGIN_NAME REVIEWER_PLUGIN_NAME
#else
// Not built with reviewer_add_plugin(): the compiler names this identifier as undeclared.
#define REVIEWER_DETAIL_PLUGIN_NAME REVIEWER_PLUGIN_NAME_is_set_by_reviewer_add_plugin
#endif

// SDK 1.11: REVIEWER_PLUGIN with the plugin's own refusal rules and their catalogue entries
// (abi.h, reviewer_rule_entry), for rules its code refuses under that docs/refusals.md does not
// hold:
//   constexpr reviewer::sdk::Rule kRules[] = {{"my-rule", "What is refused, why, and what to
//                                                          write instead."}};
//   REVIEWER_PLUGIN_WITH_RULES(MyAction, kClaim, kRules);
#define REVIEWER_PLUGIN_WITH_RULES(ACTION_CLASS, CLAIM, RULES) \
  REVIEWER_DETAIL_PLUGIN(REVIEWER_DETAIL_PLUGIN_NAME, ACTION_CLASS, CLAIM, RULES, std::size(RULES))

// The same with an explicit name, for the host's own tests of a name that does not match the
// file (plugin-name-mismatch); a plugin uses REVIEWER_PLUGIN.
#define REVIEWER_PLUGIN_NAMED(NAME, ACTION_CLASS, CLAIM) \
  REVIEWER_DETAIL_PLUGIN(NAME, ACTION_CLASS, CLAIM, nullptr, 0)

#define REVIEWER_DETAIL_PLUGIN(NAME, ACTION_CLASS, CLAIM, RULES, RULE_COUNT)               \
  namespace {                                                                              \
  constexpr reviewer_claim reviewer_detail_claims[] = {(CLAIM).to_c()};                    \
  constexpr std::uint32_t reviewer_detail_capabilities[] = {(CLAIM).capabilities};         \
  }                                                                                        \
  extern "C" __attribute__((visibility("default"), used, section(REVIEWER_ENTRY_SECTION))) \
  const reviewer_plugin_descriptor REVIEWER_DETAIL_ENTRY = {                               \
      REVIEWER_ABI_VERSION,                                                                \
      sizeof(reviewer_plugin_descriptor),                                                  \
      REVIEWER_SDK_VERSION_STRING,                                                         \
      NAME,                                                                                \
      reviewer_detail_claims,                                                              \
      1,                                                                                   \
      &::reviewer::sdk::detail::create<ACTION_CLASS>,                                      \
      &::reviewer::sdk::detail::destroy,                                                   \
      &::reviewer::sdk::detail::plan,                                                      \
      &::reviewer::sdk::detail::execute,                                                   \
      (CLAIM).reviewed_on,                                                                 \
      reviewer_detail_capabilities,                                                        \
      RULES,                                                                               \
      RULE_COUNT}
