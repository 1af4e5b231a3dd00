#include "core/launch/job_loop.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <chrono>
#include <map>

#include "core/exec/line_writer.h"
#include "core/launch/step_host.h"

namespace reviewer::launch {
namespace {

bool make_dir(const std::string& path) {
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

exec::JobDirs make_job_dirs(const std::string& root, std::size_t n, const std::string& job) {
  exec::JobDirs d;
  d.root = fmt::format("{}/{}-{}", root, n, job);
  d.home = d.root + "/home";
  d.tmp = d.root + "/tmp";
  d.cache = d.root + "/cache";
  d.runner_temp = d.root + "/runner-temp";
  for (const auto* p : {&d.root, &d.home, &d.tmp, &d.cache, &d.runner_temp}) {
    make_dir(*p);
  }
  make_dir(d.root + "/steps");
  return d;
}

std::string step_name(const plan::PlannedStep& s) {
  return s.step.name ? *s.step.name : (s.step.is_run() ? std::string("run") : s.step.action);
}

std::string describe_failure(const exec::StepResult& r) {
  if (r.interrupted) {
    return "interrupted";
  }
  if (r.timed_out) {
    return "was cancelled at its time limit (" + r.deadline_reason + ")";
  }
  if (r.signal != 0) {
    return fmt::format("was killed by signal {}", r.signal);
  }
  return fmt::format("exited {}", r.exit_code);
}

}  // namespace

BuildOutcome run_plan(const plan::Plan& plan, const plugins::Registry& registry,
                      exec::Supervisor& supervisor, WorktreeGuard& guard, JobScratch& scratch,
                      const LoopContext& ctx) {
  BuildOutcome outcome;
  bool a_job_ran = false;
  std::map<std::string, bool> succeeded;
  auto log = [&](const std::string& line) { exec::write_all(ctx.log_fd, line + "\n"); };
  auto fail_build = [&](const std::string& summary) {
    if (outcome.verdict == BuildOutcome::Verdict::kOk) {
      outcome.verdict = BuildOutcome::Verdict::kFailed;
      outcome.summary = summary;
    }
  };
  auto refuse_build = [&](const report::Refusal& r) {
    outcome.verdict = BuildOutcome::Verdict::kRefused;
    outcome.refusal = r;
    outcome.summary = r.rule + " " + r.message;
  };

  for (std::size_t n = 0; n < plan.jobs.size(); ++n) {
    const plan::PlannedJob& job = plan.jobs[n];
    JobReport jr{job.id, "not-run", {}};
    bool needs_ok = true;
    for (const auto& need : job.needs) {
      needs_ok = needs_ok && succeeded[need];
    }
    if (supervisor.interrupted() || outcome.verdict == BuildOutcome::Verdict::kRefused ||
        (!needs_ok && !job.always)) {
      log(fmt::format("reviewer: job '{}' not run (a job it needs did not succeed)", job.id));
      succeeded[job.id] = false;
      outcome.jobs.push_back(jr);
      fail_build(fmt::format("job '{}' did not run", job.id));
      continue;
    }
    // Each job on GitHub starts on a fresh runner: nothing an earlier job left in /tmp, /var/tmp,
    // /run or its own HOME, TMPDIR and caches may reach this one.
    if (a_job_ran) {
      if (auto cleared = scratch.clear(); !cleared) {
        const auto& e = cleared.error();
        log("reviewer: refused before job '" + job.id + "': " + e.code + ": " + e.message);
        refuse_build({e.code, e.message, std::nullopt});
        outcome.jobs.push_back(jr);
        succeeded[job.id] = false;
        continue;
      }
    }
    a_job_ran = true;
    StepHost::JobState state;
    state.job = &job;
    state.runner = {ctx.workspace,    job.id,
                    plan.base,        plan.workflow_file,
                    ctx.runtime_path, make_job_dirs(ctx.review_root, n, job.id)};
    auto before = guard.before_job(state.runner.dirs.home, job.fetch_depth, n == 0);
    if (!before.empty()) {
      refuse_build(before.front());
      for (const auto& r : before) {
        log("reviewer: refused before job '" + job.id + "': " + r.rule + ": " + r.message);
      }
      outcome.jobs.push_back(jr);
      succeeded[job.id] = false;
      continue;
    }
    log(fmt::format("reviewer: job '{}' started", job.id));
    state.job_deadline = exec::Clock::now() + std::chrono::minutes(job.timeout_minutes);
    bool job_failed = false;
    for (const auto& step : job.steps) {
      StepReport sr{job.id,
                    step.step.index,
                    step_name(step),
                    step.step.action,
                    step.skip ? "skip" : "run",
                    "not-run",
                    -1,
                    0,
                    ""};
      bool always =
          step.step.if_condition && step.step.if_condition->find("always()") != std::string::npos;
      if ((job_failed && !always) || supervisor.interrupted()) {
        outcome.steps.push_back(sr);
        continue;
      }
      std::string step_dir = fmt::format("{}/steps/{}", state.runner.dirs.root, step.step.index);
      make_dir(step_dir);
      StepHost host(step, state, supervisor, guard, step_dir, ctx.log_fd);
      auto started = std::chrono::steady_clock::now();
      const plugins::PluginLibrary* plugin = registry.find(step.step.action);
      if (plugin == nullptr) {
        host.fail("unsupported-action", "no plugin for " + step.step.action + " at run time");
      } else {
        plugins::execute_step(*plugin, step.step, host);
      }
      sr.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (!step.skip && !host.ran() && host.failures().empty()) {
        host.fail("plugin-protocol", "the plugin planned to run the step but ran nothing");
      }
      if (host.result()) {
        sr.exit_code = host.result()->exit_code;
      }
      if (!host.failures().empty()) {
        const auto& f = host.failures().front();
        sr.status = "failed";
        sr.message = f.rule + ": " + f.message;
      } else if (host.result() && !host.result()->success()) {
        sr.status = "failed";
        sr.message = describe_failure(*host.result());
      } else {
        sr.status = "ok";
      }
      if (sr.status == "failed") {
        job_failed = true;
        log(host.label() + "failed: " + sr.message);
        fail_build(fmt::format("job '{}' step {} '{}' {}", job.id, step.step.index + 1, sr.name,
                               sr.message));
      }
      outcome.steps.push_back(sr);
    }
    for (const auto& p : supervisor.kill_leftovers()) {
      jr.killed.push_back(fmt::format("{} ({})", p.comm, p.pid));
    }
    if (!jr.killed.empty()) {
      std::string list;
      for (const auto& k : jr.killed) {
        list += (list.empty() ? "" : ", ") + k;
      }
      log(fmt::format("reviewer: job '{}' left processes running; killed: {}", job.id, list));
    }
    auto after = guard.after_job();
    if (!after.empty()) {
      for (const auto& r : after) {
        log("reviewer: refused after job '" + job.id + "': " + r.rule + ": " + r.message);
      }
      refuse_build(after.front());
      job_failed = true;
    }
    jr.status = job_failed ? "failed" : "ok";
    succeeded[job.id] = !job_failed;
    log(fmt::format("reviewer: job '{}' {}", job.id, job_failed ? "failed" : "succeeded"));
    outcome.jobs.push_back(jr);
  }
  if (supervisor.interrupted()) {
    // The launcher itself was told to stop: that, not a step's failure, is the verdict.
    outcome.verdict = BuildOutcome::Verdict::kFailed;
    outcome.summary = "interrupted";
  }
  return outcome;
}

}  // namespace reviewer::launch
