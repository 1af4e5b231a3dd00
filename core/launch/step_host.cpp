#include "core/launch/step_host.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/exec/bash_command.h"
#include "core/exec/line_writer.h"
#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {
namespace {

// A step's files are made new (O_EXCL) in the step's directory, opened without following a
// link: anything already there was planted by an earlier step (a FIFO there would block the
// launcher's open for ever; a link would send the write elsewhere).
bool create_file(int dir, const std::string& name, const std::string& text) {
  util::UniqueFd fd(::openat(
      dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600));
  return fd.valid() && exec::write_all(fd.get(), text);
}

// What a step left in one of its files: at most 1 MiB (more is cut, and a cut heredoc then
// fails to parse, which fails the build rather than applying half). A file the step removed
// reads as empty, as the runner skips a missing file; one it replaced by a FIFO, a link or
// anything but a regular file is an error, read without blocking.
util::Result<std::string> read_step_file(const std::string& path, const std::string& variable) {
  auto text = util::read_regular_file(AT_FDCWD, path, {1 << 20, false, true});
  if (text || util::file_fault(text.error()) == util::FileFault::kMissing) {
    return text ? std::move(*text) : std::string();
  }
  return util::refusal("step-file-replaced", "the step replaced $" + variable + " (" + path +
                                                 ") by something that is "
                                                 "not a regular file (" +
                                                 text.error().message +
                                                 "); its contents are not read");
}

}  // namespace

StepHost::StepHost(const plan::PlannedStep& step, JobState& job, exec::StepRunner& runner,
                   WorktreeGuard& guard, const std::string& step_dir, exec::LogSink& log,
                   ArtifactStore* artifacts)
    : step_(step),
      job_(job),
      runner_(runner),
      guard_(guard),
      step_dir_(step_dir),
      log_(log),
      artifacts_(artifacts) {}

std::string StepHost::label() const {
  std::string name = step_.step.name ? *step_.step.name : step_.step.action;
  return fmt::format("[{} #{} {}] ", step_.step.job_id,
                     step_.number.empty() ? std::to_string(step_.step.index + 1) : step_.number,
                     name);
}

void StepHost::log(std::string_view message) { log_.line(label() + std::string(message)); }

void StepHost::fail(const std::string& rule, const std::string& message) {
  failures_.push_back({rule, message, step_.step.location});
}

std::optional<plugins::HistoryShape> StepHost::history_shape() { return guard_.history_shape(); }

// Walks `path` one component at a time from the workspace without following any link, so a
// link a step planted cannot lead the read out of the worktree.
util::Result<std::optional<std::string>> StepHost::read_worktree_file(const std::string& path) {
  auto refuse = [&](const std::string& why) {
    return util::refusal("worktree-file-refused", "'" + path + "' " + why);
  };
  if (path.empty() || path.size() > 4096 || path.front() == '/' ||
      path.find('\0') != std::string::npos) {
    return refuse("is not a relative path inside the worktree");
  }
  const std::vector<std::string> parts = util::split_path(path);
  for (const auto& p : parts) {
    if (p.empty() || p == "." || p == "..") {
      return refuse("is not a plain relative path (empty, '.' or '..' component)");
    }
  }
  util::UniqueFd dir = util::open_directory(AT_FDCWD, job_.runner.workspace.c_str());
  for (std::size_t i = 0; dir.valid() && i + 1 < parts.size(); ++i) {
    util::UniqueFd next(
        ::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      if (errno == ENOENT) {
        return std::optional<std::string>();
      }
      return refuse("passes through '" + parts[i] + "', which is a link or not a directory");
    }
    dir = std::move(next);
  }
  if (!dir.valid()) {
    return refuse("cannot be read: the worktree cannot be opened");
  }
  auto text = util::read_regular_file(dir.get(), parts.back(), {1 << 20});
  if (text) {
    return std::optional<std::string>(std::move(*text));
  }
  if (util::file_fault(text.error()) == util::FileFault::kMissing) {
    return std::optional<std::string>();
  }
  return refuse("cannot be read: " + text.error().message);
}

int StepHost::walk_worktree(const std::string& dir, std::vector<WorktreeEntry>& out) {
  if (artifacts_ == nullptr) {
    return ExecuteHost::walk_worktree(dir, out);
  }
  auto walked = artifacts_->walk(job_.runner.workspace, dir);
  if (!walked) {
    fail(walked.error().rule, walked.error().message);
    return -1;
  }
  if (!*walked) {
    return 1;
  }
  for (auto& e : **walked) {
    out.push_back({std::move(e.path), static_cast<int>(e.kind)});
  }
  return 0;
}

int StepHost::store_artifact(const std::string& name, const std::vector<ArtifactFile>& files) {
  if (artifacts_ == nullptr) {
    return ExecuteHost::store_artifact(name, files);
  }
  std::vector<ArtifactStore::Source> sources;
  sources.reserve(files.size());
  for (const auto& f : files) {
    sources.push_back({f.source, f.path});
  }
  emulated_ = true;
  if (auto stored = artifacts_->store(job_.runner.workspace, name, sources); !stored) {
    fail(stored.error().rule, stored.error().message);
    return -1;
  }
  return 0;
}

std::vector<std::string> StepHost::list_artifacts() {
  return artifacts_ == nullptr ? std::vector<std::string>{} : artifacts_->names();
}

int StepHost::restore_artifact(const std::string& name, const std::string& dir) {
  if (artifacts_ == nullptr) {
    return ExecuteHost::restore_artifact(name, dir);
  }
  emulated_ = true;
  auto restored = artifacts_->restore(job_.runner.workspace, name, dir);
  if (!restored) {
    fail(restored.error().rule, restored.error().message);
    return -1;
  }
  return *restored ? 0 : 1;
}

std::optional<std::string> StepHost::resolve_working_directory(const std::string& wd) {
  const std::string& ws = job_.runner.workspace;
  std::string candidate = wd.empty() ? ws : ws + "/" + wd;
  char real_ws[PATH_MAX];
  char real_wd[PATH_MAX];
  if (::realpath(ws.c_str(), real_ws) == nullptr) {
    return std::nullopt;
  }
  if (::realpath(candidate.c_str(), real_wd) == nullptr) {
    return std::nullopt;
  }
  std::string root(real_ws);
  std::string dir(real_wd);
  if (dir != root && !dir.starts_with(root + "/")) {
    return std::nullopt;
  }
  return dir;
}

int StepHost::run_script(const plugins::RunRequest& request) {
  if (result_) {
    fail("plugin-protocol", "the plugin asked to run a second script for one step");
    return -1;
  }
  exec::StepFiles files{step_dir_ + "/output", step_dir_ + "/env", step_dir_ + "/path",
                        step_dir_ + "/summary"};
  util::UniqueFd dir = util::open_directory(AT_FDCWD, step_dir_.c_str());
  if (!dir.valid()) {
    fail("step-file-planted", "the step directory " + step_dir_ +
                                  " is not a directory the launcher made (a link, or missing)");
    return -1;
  }
  for (const char* name : {"output", "env", "path", "summary"}) {
    if (!create_file(dir.get(), name, "")) {
      fail("step-file-planted", "cannot create " + step_dir_ + "/" + name +
                                    " afresh: something is already there (" + std::strerror(errno) +
                                    "), planted by an earlier step");
      return -1;
    }
  }
  const std::string script = step_dir_ + "/script.sh";
  if (!create_file(dir.get(), "script.sh", request.script)) {
    fail("step-file-planted", "cannot create " + script + " afresh (" + std::strerror(errno) +
                                  "), planted by an earlier step");
    return -1;
  }
  auto argv = exec::bash_command_line(request.shell, script);
  if (!argv) {
    fail(argv.error().rule, argv.error().message);
    return -1;
  }
  auto env = exec::build_step_environment(job_.runner, files, job_.job->env, job_.github_env,
                                          job_.github_path, request.env);
  if (!env.refusals.empty()) {
    for (auto& r : env.refusals) {
      failures_.push_back(r);
    }
    return -1;
  }
  // Checked immediately before the spawn: a symlink created by an earlier step must not move
  // the step out of the worktree.
  auto cwd = resolve_working_directory(request.working_directory);
  if (!cwd) {
    fail("working-directory-outside", "working directory '" + request.working_directory +
                                          "' does not resolve to a directory inside the worktree");
    return -1;
  }
  exec::StepSpec spec{
      std::move(*argv),
      env.entries,
      *cwd,
      job_.job_deadline,
      fmt::format("job '{}' timeout-minutes: {}", job_.job->id, job_.job->timeout_minutes),
      label()};
  if (request.timeout_minutes > 0) {
    auto step_deadline = exec::Clock::now() + std::chrono::minutes(request.timeout_minutes);
    if (step_deadline < job_.job_deadline) {
      spec.deadline = step_deadline;
      spec.deadline_reason = fmt::format("step timeout-minutes: {}", request.timeout_minutes);
    }
  }
  result_ = runner_.run(spec);
  auto env_text = read_step_file(files.env, "GITHUB_ENV");
  auto path_text = read_step_file(files.path, "GITHUB_PATH");
  auto output_text = read_step_file(files.output, "GITHUB_OUTPUT");
  for (const auto* read : {&env_text, &path_text, &output_text}) {
    if (!*read) {
      failures_.push_back(read->error());
    }
  }
  auto updates = exec::parse_github_files(env_text ? *env_text : std::string(),
                                          path_text ? *path_text : std::string(), label(),
                                          output_text ? *output_text : std::string());
  if (!updates) {
    outputs_.clear();
    for (const auto& r : updates.refusals()) {
      failures_.push_back(r);
    }
  } else {
    outputs_ = std::move(updates->output);
    for (auto& e : updates->env) {
      job_.github_env.push_back(std::move(e));
    }
    for (auto& p : updates->path) {
      job_.github_path.push_back(std::move(p));
    }
  }
  if (!result_->started) {
    fail("spawn-failed", result_->spawn_error);
    return -1;
  }
  return result_->exit_code;
}

}  // namespace reviewer::launch
