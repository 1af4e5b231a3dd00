#include "core/launch/job_loop.h"

#include "core/report/source_excerpt.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <cerrno>
#include <chrono>
#include <map>

#include "core/launch/bun_cache_seed.h"
#include "core/launch/npm_cache_seed.h"
#include "core/launch/run_contexts.h"
#include "core/launch/step_host.h"
#include "core/plan/expression_fields.h"
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

// The step's env entries whose values are final: one the launcher has yet to evaluate is
// text with `${{ }}` in it, never a value an `if:` may read.
std::vector<workflow::Entry> known_env(const std::vector<workflow::Entry>& env) {
  std::vector<workflow::Entry> out;
  for (const auto& e : env) {
    if (!e.run_time) {
      out.push_back(e);
    }
  }
  return out;
}

// "3", or "3.2" for the second step of the local action the third step calls.
std::string step_number(const plan::PlannedStep& s) {
  return s.number.empty() ? std::to_string(s.step.index + 1) : s.number;
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

// The line a runner shows when a step ends: its outcome (with why it failed), exit code and
// duration. A tolerated failure reads as failed: that was its outcome.
std::string step_line(const std::string& label, const StepReport& r) {
  const bool failed = r.status == RunStatus::kFailed;
  return fmt::format("{}{} ({}, {:.3f} s)", label, failed ? "failed: " + r.message : "ok",
                     r.exit_code >= 0 ? fmt::format("exit {}", r.exit_code) : "no exit code",
                     r.seconds);
}

// The steps of one scope: the job's, or a local composite action's (its own `steps` context, and
// success() meaning "no earlier step of the action failed", as the runner's action_status).
struct Frame {
  std::map<std::string, StepRecord> steps;
  bool failed = false;
  // Inside an action: the first failure and whether it was a refusal (never tolerated), which
  // the calling step reports as its own.
  std::string first_failure;
  bool refused = false;
  const plan::LocalAction* action = nullptr;  // nullptr: the job's own steps
  std::vector<workflow::Entry> caller_env;    // the calling steps' env, evaluated, outermost first
};

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
      JobRecord& rec = finished_[report.id];
      rec.result = report.status == RunStatus::kOk       ? "success"
                   : report.status == RunStatus::kFailed ? "failure"
                                                         : "skipped";
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
  // Every job `job` depends on, directly or through others, succeeded; or one of them failed.
  std::pair<bool, bool> ancestors(const plan::PlannedJob& job) {
    bool all_ok = true;
    bool any_failed = false;
    for (const auto& need : job.needs) {
      auto it = finished_.find(need);
      const std::string result = it == finished_.end() ? "skipped" : it->second.result;
      all_ok = all_ok && result == "success";
      any_failed = any_failed || result == "failure";
      for (const auto& j : plan_.jobs) {
        if (j.id == need) {
          auto [ok, failed] = ancestors(j);
          all_ok = all_ok && ok;
          any_failed = any_failed || failed;
        }
      }
    }
    return {all_ok, any_failed};
  }

  // CI's job gate: its `if:` (by default, every job it needs succeeded); nothing runs once the
  // launcher is interrupted or the build refused. nullopt: the condition could not be evaluated.
  std::optional<bool> job_may_run(const plan::PlannedJob& job, std::string& why) {
    why = "a job it needs did not succeed";
    if (runner_.interrupted() || outcome_.verdict == BuildOutcome::Verdict::kRefused) {
      return false;
    }
    const auto [needs_ok, needs_failed] = ancestors(job);
    switch (job.condition.kind) {
      case plan::Condition::Kind::kSuccess:
        return needs_ok;
      case plan::Condition::Kind::kNever:
        why = "its if: " + job.condition.written + " is false";
        return false;
      case plan::Condition::Kind::kExpression:
        break;
    }
    why = "its if: " + job.condition.written + " is false";
    StatusRuntime status(needs_ok, needs_failed, false, ctx_.workspace);
    auto v = plan::evaluate_condition(job.condition.expression, plan::Field::kJobIf,
                                      job_condition_contexts(job, finished_), status);
    if (!v) {
      why = "its if: could not be evaluated: " + v.error().message;
      return std::nullopt;
    }
    log_.line(fmt::format("reviewer: job '{}' if: {} is {}", job.id, job.condition.written, *v));
    return *v;
  }

  void run_job(std::size_t n, JobReport& report) {
    const plan::PlannedJob& job = plan_.jobs[n];
    std::string why;
    if (!job_may_run(job, why).value_or(false)) {
      log_.line(fmt::format("reviewer: job '{}' not run ({})", job.id, why));
      fail_build(fmt::format("job '{}' did not run ({})", job.id, why));
      return;
    }
    StepHost::JobState state;
    state.job = &job;
    if (!prepare_job(n, state)) {
      return;
    }
    log_.line(fmt::format("reviewer: job '{}'{} started", job.id,
                          job.matrix_label.empty() ? "" : " (" + job.matrix_label + ")"));
    state.job_deadline = exec::Clock::now() + std::chrono::minutes(job.timeout_minutes);
    Frame frame;
    for (const auto& step : job.steps) {
      run_step(step, state, frame);
    }
    bool failed = !finish_job(job, report) || frame.failed;
    if (!failed) {
      failed = !job_outputs(state, frame.steps);
    }
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
    state.runner = {ctx_.workspace,
                    job.id,
                    plan_.base,
                    plan_.workflow_file,
                    ctx_.runtime_path,
                    make_job_dirs(ctx_.review_root, n),
                    ctx_.dependency_cache,
                    ctx_.dependency_registry};
    if (auto before = guard_.before_job(state.runner.dirs.home, job.fetch_depth, n == 0); !before) {
      refuse_before(job, before.refusals());
      return false;
    }
    if (!ctx_.dependency_cache.empty()) {
      auto seeded = seed_npm_cache(ctx_.dependency_cache, state.runner.dirs.cache);
      if (!seeded) {
        refuse_before(job, seeded.refusals());
        return false;
      }
      state.runner.dependency_cache = *seeded;
    }
    // Bun reads only unpacked folders from its cache; each job's fresh cache gets them from the
    // view. A package that cannot be unpacked is named here, and `bun install` fails offline.
    if (!ctx_.dependency_cache.empty()) {
      if (auto seeded = seed_bun_cache(ctx_.dependency_cache, state.runner.dirs.cache + "/bun");
          !seeded) {
        log_.line("reviewer: " + seeded.error().rule + ": " + seeded.error().message);
      }
    }
    return true;
  }

  // CI's step gate: its `if:` (by default, no earlier step of the job failed). nullopt, with
  // `error` set, when the condition could not be evaluated.
  std::optional<bool> step_may_run(const plan::PlannedStep& step, const StepScene& scene,
                                   std::string& error) {
    if (runner_.interrupted()) {
      return false;
    }
    switch (step.condition.kind) {
      case plan::Condition::Kind::kSuccess:
        return !scene.job_failed;
      case plan::Condition::Kind::kNever:
        return false;
      case plan::Condition::Kind::kExpression:
        break;
    }
    StatusRuntime status(!scene.job_failed, scene.job_failed, false, ctx_.workspace);
    auto v = plan::evaluate_condition(
        step.condition.expression,
        scene.contexts != nullptr ? plan::Field::kActionStepIf : plan::Field::kStepIf,
        step_contexts(scene, known_env(step.step.env)), status);
    if (!v) {
      error = v.error().rule + ": if: " + step.condition.written + ": " + v.error().message;
      return std::nullopt;
    }
    return *v;
  }

  // The step with what only the run knows evaluated: its script and env (expr text as written,
  // evaluated once). nullopt, with `error` set, when an expression fails.
  std::optional<plan::PlannedStep> substituted(const plan::PlannedStep& step,
                                               const StepScene& scene, std::string& error) {
    plan::PlannedStep out = step;
    StatusRuntime status(!scene.job_failed, scene.job_failed, false, ctx_.workspace);
    auto eval = [&](const std::string& text,
                    const std::vector<workflow::Entry>& env) -> std::optional<std::string> {
      auto v = plan::evaluate_field(
          text, scene.contexts != nullptr ? plan::Field::kActionStepValue : plan::Field::kStepValue,
          step_contexts(scene, env), &status);
      if (!v) {
        error = v.error().rule + ": " + v.error().message;
        return std::nullopt;
      }
      return v->coerce_string();
    };
    // Step env values read the env context without the step's own entries.
    for (auto& e : out.step.env) {
      if (e.run_time) {
        auto v = eval(e.value, {});
        if (!v) {
          return std::nullopt;
        }
        e.value = std::move(*v);
        e.run_time = false;
      }
    }
    if (out.step.run_time_script) {
      auto v = eval(out.step.run, out.step.env);
      if (!v) {
        return std::nullopt;
      }
      out.step.run = std::move(*v);
      out.step.run_time_script = false;
    }
    return out;
  }

  // A step of `frame` failed: the build fails with `summary`, or, inside an action, the action
  // does (its calling step reports the first failure as its own).
  void step_failed(Frame& frame, const std::string& summary, bool refused) {
    frame.failed = true;
    if (frame.action == nullptr) {
      fail_build(summary);
    } else if (frame.first_failure.empty()) {
      frame.first_failure = summary;
    }
    frame.refused = frame.refused || refused;
  }

  // CI's step gate, then the step through its plugin (or the steps of its local action), judged
  // from what the host observed; its report joins the build's (an action's steps after it).
  void run_step(const plan::PlannedStep& planned, StepHost::JobState& state, Frame& frame) {
    const std::size_t at = outcome_.steps.size();
    outcome_.steps.push_back(StepReport{state.job->id, planned.step.index, step_name(planned),
                                        planned.step.action, planned.skip ? "skip" : "run",
                                        RunStatus::kNotRun, -1, 0, "", ""});
    StepReport report = outcome_.steps[at];
    report.number = step_number(planned);
    const std::string label = fmt::format("[{} #{} {}]", state.job->id, report.number, report.name);
    const std::string what =
        fmt::format("job '{}' step {} '{}'", state.job->id, report.number, report.name);
    const StepScene scene{*state.job,
                          finished_,
                          frame.steps,
                          state.github_env,
                          frame.failed,
                          state.runner.dirs.runner_temp,
                          frame.action != nullptr ? &frame.action->contexts : nullptr,
                          &frame.caller_env};
    auto record = [&](const std::string& outcome, const std::string& conclusion,
                      std::vector<workflow::Entry> outputs) {
      if (planned.step.id) {
        frame.steps[*planned.step.id] = StepRecord{outcome, conclusion, std::move(outputs)};
      }
    };
    std::string error;
    const auto may_run = step_may_run(planned, scene, error);
    if (!planned.condition.written.empty() && may_run) {
      report.condition =
          "if: " + planned.condition.written + " is " + (*may_run ? "true" : "false");
    }
    std::optional<plan::PlannedStep> step;
    if (may_run.value_or(false)) {
      step = substituted(planned, scene, error);
    }
    if (!error.empty()) {
      report.status = RunStatus::kFailed;
      report.message = error;
      log_.line(fmt::format("{} failed: {}", label, error));
      step_failed(frame, what + " " + error, false);
      record("failure", "failure", {});
      outcome_.steps[at] = std::move(report);
      return;
    }
    if (!may_run.value_or(false)) {
      if (planned.condition.kind != plan::Condition::Kind::kSuccess && !runner_.interrupted()) {
        report.message = "if: " + planned.condition.written + " is false";
        log_.line(fmt::format("{} not run: {}", label, report.message));
      }
      record("skipped", "skipped", {});
      outcome_.steps[at] = std::move(report);
      return;
    }
    if (frame.action != nullptr) {
      // The action's step env sits on the env of the steps that called it.
      step->step.env.insert(step->step.env.begin(), frame.caller_env.begin(),
                            frame.caller_env.end());
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<workflow::Entry> outputs;
    bool refused = false;
    if (step->local) {
      outputs = run_action(*step, label, state, report, refused);
    } else {
      REVIEWER_CHECK(step->plugin != nullptr);  // the planner refuses a step without a plugin
      std::string step_dir = fmt::format("{}/steps/{}", state.runner.dirs.root, report.number);
      make_dir(step_dir);
      state.runner.action_path = frame.action != nullptr ? frame.action->action_path : "";
      StepHost host(*step, state, runner_, guard_, step_dir, log_, &artifacts_);
      if (!step->release.empty()) {
        host.log(fmt::format("{}@{} taken as {} (the newest reviewed release it can name)",
                             step->step.action, step->tag, step->release));
      }
      plugins::execute_step(*step->plugin, step->step, host);
      judge_step(*step, host, report);
      refused = !host.failures().empty();
      outputs = host.outputs();
    }
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The runner's continue-on-error: the step's outcome is failure, its conclusion success,
    // and the job goes on. A refusal the host recorded is never tolerated.
    const bool tolerated =
        report.status == RunStatus::kFailed && step->step.continue_on_error && !refused;
    if (tolerated) {
      report.message += " (continue-on-error: tolerated)";
    }
    log_.line(step_line(label + " ", report));
    if (tolerated) {
      report.status = RunStatus::kOk;
      record("failure", "success", std::move(outputs));
    } else {
      const bool ok = report.status == RunStatus::kOk;
      record(ok ? "success" : "failure", ok ? "success" : "failure", std::move(outputs));
      if (!ok) {
        step_failed(frame, what + " " + report.message, refused);
      }
    }
    outcome_.steps[at] = std::move(report);
  }

  // The steps of the local action `caller` calls, in the action's own scope; its outputs once
  // they ran (as the runner evaluates them: even after a failure). A failed step of the action
  // fails the caller with its message.
  std::vector<workflow::Entry> run_action(const plan::PlannedStep& caller, const std::string& label,
                                          StepHost::JobState& state, StepReport& report,
                                          bool& refused) {
    const plan::LocalAction& action = *caller.local;
    log_.line(fmt::format("{} runs the local action {} ({} steps)", label, action.file,
                          action.steps.size()));
    Frame inner;
    inner.action = &action;
    inner.caller_env = caller.step.env;
    for (const auto& step : action.steps) {
      run_step(step, state, inner);
    }
    std::vector<workflow::Entry> outputs;
    StatusRuntime status(!inner.failed, inner.failed, false, ctx_.workspace);
    const StepScene scene{*state.job,       finished_,        inner.steps,
                          state.github_env, inner.failed,     state.runner.dirs.runner_temp,
                          &action.contexts, &inner.caller_env};
    for (const auto& o : action.outputs) {
      if (!o.run_time) {
        outputs.push_back(o);
        continue;
      }
      auto v = plan::evaluate_field(o.value, plan::Field::kActionOutput, step_contexts(scene, {}),
                                    &status);
      if (!v) {
        step_failed(inner, "output '" + o.name + "': " + v.error().message, false);
        continue;
      }
      outputs.push_back({o.name, v->coerce_string(), o.location});
    }
    refused = inner.refused;
    report.status = inner.failed ? RunStatus::kFailed : RunStatus::kOk;
    if (inner.failed) {
      report.message = "its action failed: " + inner.first_failure;
    }
    return outputs;
  }

  // The job's `outputs:`, evaluated after its steps for the jobs that need it; false when one
  // cannot be evaluated (the build fails, as the runner fails the job).
  bool job_outputs(const StepHost::JobState& state,
                   const std::map<std::string, StepRecord>& steps) {
    const plan::PlannedJob& job = *state.job;
    JobRecord& rec = finished_[job.id];
    const StepScene scene{
        job, finished_, steps, state.github_env, false, state.runner.dirs.runner_temp};
    StatusRuntime status(true, false, false, ctx_.workspace);
    for (const auto& o : job.outputs) {
      if (!o.run_time) {
        rec.outputs.push_back(o);
        continue;
      }
      auto v =
          plan::evaluate_field(o.value, plan::Field::kJobOutput, step_contexts(scene, {}), &status);
      if (!v) {
        log_.line(
            fmt::format("reviewer: job '{}' output '{}': {}", job.id, o.name, v.error().message));
        fail_build(fmt::format("job '{}' output '{}' {}", job.id, o.name, v.error().message));
        return false;
      }
      rec.outputs.push_back({o.name, v->coerce_string(), o.location});
    }
    return true;
  }

  // A step fails on a refusal the host recorded, or on how its script ended; never on the
  // plugin's own account.
  static void judge_step(const plan::PlannedStep& step, StepHost& host, StepReport& report) {
    if (!step.skip && !host.ran() && !host.emulated() && host.failures().empty()) {
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
  std::map<std::string, JobRecord> finished_;
  // The build's artifacts, in the launcher's memory from the first job to the last.
  ArtifactStore artifacts_;
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
