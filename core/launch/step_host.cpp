#include "core/launch/step_host.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/exec/bash_command.h"
#include "core/exec/line_writer.h"
#include "core/util/file_read.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {
namespace {

bool write_file(const std::string& path, const std::string& text, mode_t mode) {
  util::UniqueFd fd(
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode));
  return fd.valid() && exec::write_all(fd.get(), text);
}

// Reads at most 1 MiB of a step file; a step that writes more gets it truncated (and a
// truncated heredoc then fails to parse, which fails the build rather than applying half).
std::string read_small(const std::string& path) {
  auto text = util::read_regular_file(AT_FDCWD, path, {1 << 20, false, true});
  return text ? std::move(*text) : std::string();
}

}  // namespace

StepHost::StepHost(const plan::PlannedStep& step, JobState& job, exec::StepRunner& runner,
                   WorktreeGuard& guard, const std::string& step_dir, exec::LogSink& log)
    : step_(step), job_(job), runner_(runner), guard_(guard), step_dir_(step_dir), log_(log) {}

std::string StepHost::label() const {
  std::string name = step_.step.name ? *step_.step.name : step_.step.action;
  return fmt::format("[{} #{} {}] ", step_.step.job_id, step_.step.index + 1, name);
}

void StepHost::log(std::string_view message) { log_.line(label() + std::string(message)); }

void StepHost::fail(const std::string& rule, const std::string& message) {
  failures_.push_back({rule, message, step_.step.location});
}

std::optional<plugins::HistoryShape> StepHost::history_shape() { return guard_.history_shape(); }

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
  for (const auto* f : {&files.output, &files.env, &files.path, &files.summary}) {
    if (!write_file(*f, "", 0600)) {
      fail("internal-error", "cannot create " + *f);
      return -1;
    }
  }
  const std::string script = step_dir_ + "/script.sh";
  if (!write_file(script, request.script, 0600)) {
    fail("internal-error", "cannot write " + script);
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
  auto updates = exec::parse_github_files(read_small(files.env), read_small(files.path), label());
  for (auto& r : updates.refusals) {
    failures_.push_back(r);
  }
  for (auto& e : updates.env) {
    job_.github_env.push_back(std::move(e));
  }
  for (auto& p : updates.path) {
    job_.github_path.push_back(std::move(p));
  }
  if (!result_->started) {
    fail("spawn-failed", result_->spawn_error);
    return -1;
  }
  return result_->exit_code;
}

}  // namespace reviewer::launch
