#include "core/launch/job_loop.h"

#include "core/report/source_excerpt.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <cerrno>
#include <chrono>
#include <map>

#include "core/launch/step_host.h"
#include "core/util/check.h"

namespace reviewer::launch {
namespace {

bool make_dir(const std::string& path) {
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

// Named by the job's position only: a job id is the workflow's text and never part of a path
// (the planner refuses ids GitHub rejects, but the path does not rely on it).
exec::JobDirs make_job_dirs(const std::string& root, std::size_t n) {
  exec::JobDirs d;
  d.root = fmt::format("{}/job-{}", root, n);
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

// One build: the jobs in plan order, each gated, run step by step, and judged.
class JobLoop {
 public:
  JobLoop(const plan::Plan& plan, exec::StepRunner& runner, WorktreeGuard& guard,
          JobScratch& scratch, exec::LogSink& log, const LoopContext& ctx)
      : plan_(plan), runner_(runner), guard_(guard), scratch_(scratch), log_(log), ctx_(ctx) {}

  BuildOutcome run() {
    for (std::size_t n = 0; n < plan_.jobs.size(); ++n) {
      JobReport report{plan_.jobs[n].id, RunStatus::kNotRun, {}};
      run_job(n, report);
      succeeded_[report.id] = report.status == RunStatus::kOk;
      outcome_.jobs.push_back(std::move(report));
    }
    if (runner_.interrupted()) {
      // The launcher itself was told to stop: that, not a step's failure, is the verdict.
      outcome_.verdict = BuildOutcome::Verdict::kFailed;
      outcome_.summary = "interrupted";
    }
    return std::move(outcome_);
  }

 private:
  // CI's job gate: every job it needs succeeded, or it runs `always()`; nothing runs once the
  // launcher is interrupted or the build refused.
  bool job_may_run(const plan::PlannedJob& job) {
    bool needs_ok = true;
    for (const auto& need : job.needs) {
      needs_ok = needs_ok && succeeded_[need];
    }
    return !runner_.interrupted() && outcome_.verdict != BuildOutcome::Verdict::kRefused &&
           (needs_ok || job.always);
  }

  void run_job(std::size_t n, JobReport& report) {
    const plan::PlannedJob& job = plan_.jobs[n];
    if (!job_may_run(job)) {
      log_.line(fmt::format("reviewer: job '{}' not run (a job it needs did not succeed)", job.id));
      fail_build(fmt::format("job '{}' did not run", job.id));
      return;
    }
    StepHost::JobState state;
    state.job = &job;
    if (!prepare_job(n, state)) {
      return;
    }
    log_.line(fmt::format("reviewer: job '{}' started", job.id));
    state.job_deadline = exec::Clock::now() + std::chrono::minutes(job.timeout_minutes);
    bool failed = false;
    for (const auto& step : job.steps) {
      outcome_.steps.push_back(run_step(step, state, failed));
      failed = failed || outcome_.steps.back().status == RunStatus::kFailed;
    }
    failed = !finish_job(job, report) || failed;
    report.status = failed ? RunStatus::kFailed : RunStatus::kOk;
    log_.line(fmt::format("reviewer: job '{}' {}", job.id, failed ? "failed" : "succeeded"));
  }

  // Fresh directories and the guard before a job; false (the build refused) when it may not
  // start.
  bool prepare_job(std::size_t n, StepHost::JobState& state) {
    const plan::PlannedJob& job = *state.job;
    // Each job on GitHub starts on a fresh runner: nothing an earlier job left in /tmp,
    // /var/tmp, /run or its own HOME, TMPDIR and caches may reach this one.
    if (a_job_ran_) {
      if (auto cleared = scratch_.clear(); !cleared) {
        refuse_before(job, cleared.refusals());
        return false;
      }
    }
    a_job_ran_ = true;
    state.runner = {ctx_.workspace,       job.id,
                    plan_.base,           plan_.workflow_file,
                    ctx_.runtime_path,    make_job_dirs(ctx_.review_root, n),
                    ctx_.dependency_cache};
    if (auto before = guard_.before_job(state.runner.dirs.home, job.fetch_depth, n == 0); !before) {
      refuse_before(job, before.refusals());
      return false;
    }
    return true;
  }

  // CI's step gate, then the step through its plugin, judged from what the host observed.
  StepReport run_step(const plan::PlannedStep& step, StepHost::JobState& state, bool job_failed) {
    StepReport report{state.job->id,
                      step.step.index,
                      step_name(step),
                      step.step.action,
                      step.skip ? "skip" : "run",
                      RunStatus::kNotRun,
                      -1,
                      0,
                      ""};
    if ((job_failed && !step.always) || runner_.interrupted()) {
      return report;
    }
    REVIEWER_CHECK(step.plugin != nullptr);  // the planner refuses a step without a plugin
    std::string step_dir = fmt::format("{}/steps/{}", state.runner.dirs.root, step.step.index);
    make_dir(step_dir);
    StepHost host(step, state, runner_, guard_, step_dir, log_);
    const auto started = std::chrono::steady_clock::now();
    plugins::execute_step(*step.plugin, step.step, host);
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    judge_step(step, host, report);
    if (report.status == RunStatus::kFailed) {
      log_.line(host.label() + "failed: " + report.message);
      fail_build(fmt::format("job '{}' step {} '{}' {}", state.job->id, step.step.index + 1,
                             report.name, report.message));
    }
    return report;
  }

  // A step fails on a refusal the host recorded, or on how its script ended; never on the
  // plugin's own account.
  static void judge_step(const plan::PlannedStep& step, StepHost& host, StepReport& report) {
    if (!step.skip && !host.ran() && host.failures().empty()) {
      host.fail("plugin-protocol", "the plugin planned to run the step but ran nothing");
    }
    if (host.result()) {
      report.exit_code = host.result()->exit_code;
    }
    if (!host.failures().empty()) {
      const auto& f = host.failures().front();
      report.status = RunStatus::kFailed;
      report.message = f.rule + ": " + f.message;
    } else if (host.result() && !host.result()->success()) {
      report.status = RunStatus::kFailed;
      report.message = describe_failure(*host.result());
    } else {
      report.status = RunStatus::kOk;
    }
  }

  // Kills what the job left running and runs the after-job guard; false when the guard refused.
  bool finish_job(const plan::PlannedJob& job, JobReport& report) {
    for (const auto& p : runner_.kill_leftovers()) {
      // A process names itself: its name is escaped like any text a step chose.
      report.killed.push_back(fmt::format("{} ({})", report::printable(p.comm), p.pid));
    }
    if (!report.killed.empty()) {
      log_.line(fmt::format("reviewer: job '{}' left processes running; killed: {}", job.id,
                            fmt::join(report.killed, ", ")));
    }
    auto after = guard_.after_job();
    if (after) {
      return true;
    }
    for (const auto& r : after.refusals()) {
      log_.line("reviewer: refused after job '" + job.id + "': " + r.rule + ": " + r.message);
    }
    refuse_build(after.error());
    return false;
  }

  void refuse_before(const plan::PlannedJob& job, const report::Refusals& refusals) {
    for (const auto& r : refusals) {
      log_.line("reviewer: refused before job '" + job.id + "': " + r.rule + ": " + r.message);
    }
    refuse_build(refusals.front());
  }

  void fail_build(const std::string& summary) {
    if (outcome_.verdict == BuildOutcome::Verdict::kOk) {
      outcome_.verdict = BuildOutcome::Verdict::kFailed;
      outcome_.summary = summary;
    }
  }

  void refuse_build(const report::Refusal& r) {
    outcome_.verdict = BuildOutcome::Verdict::kRefused;
    outcome_.refusal = r;
    outcome_.summary = r.rule + " " + r.message;
  }

  const plan::Plan& plan_;
  exec::StepRunner& runner_;
  WorktreeGuard& guard_;
  JobScratch& scratch_;
  exec::LogSink& log_;
  const LoopContext& ctx_;
  BuildOutcome outcome_;
  std::map<std::string, bool> succeeded_;
  bool a_job_ran_ = false;
};

}  // namespace

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kNotRun:
      break;
  }
  return "not-run";
}

BuildOutcome run_plan(const plan::Plan& plan, exec::StepRunner& runner, WorktreeGuard& guard,
                      JobScratch& scratch, exec::LogSink& log, const LoopContext& ctx) {
  return JobLoop(plan, runner, guard, scratch, log, ctx).run();
}

}  // namespace reviewer::launch
