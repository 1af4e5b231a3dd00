#include "core/launch/job_loop.h"

#include "core/report/source_excerpt.h"

#include <fmt/format.h>
#include <chrono>
#include <map>

#include "core/deps/provision/provisioner.h"
#include "core/launch/called_jobs.h"
#include "core/launch/job_dirs.h"
#include "core/launch/run_contexts.h"
#include "core/launch/step_host.h"
#include "core/launch/step_lines.h"
#include "core/launch/version_file_check.h"
#include "core/plan/expression_fields.h"
#include "core/util/check.h"
#include "core/util/text.h"

namespace reviewer::launch {
namespace {

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

// One step on its way through the gate, substitution, execution and recording.
struct StepRun {
  const plan::PlannedStep& planned;
  Frame& frame;  // the scope the step runs in
  StepReport report;
  std::string label = {};  // "[job #3 name]": how the log names the step
  std::string what = {};   // "job 'x' step 3 'name'": how the build's summary names it
  std::vector<workflow::Entry> outputs = {};
  bool refused = false;           // a refusal the host recorded: never tolerated
  std::string network_sign = {};  // the first line of the step's output that tried the network
};

// One build: the jobs in plan order, each gated, run step by step, and judged.
class JobLoop {
 public:
  JobLoop(const plan::Plan& plan, exec::StepRunner& runner, WorktreeGuard& guard,
          JobScratch& scratch, exec::LogSink& log, const LoopContext& ctx)
      : plan_(plan), runner_(runner), guard_(guard), scratch_(scratch), log_(log), ctx_(ctx) {}

  BuildOutcome run() {
    run_jobs(plan_.jobs);
    if (runner_.interrupted()) {
      // The launcher itself was told to stop: that, not a step's failure, is the verdict.
      outcome_.verdict = BuildOutcome::Verdict::kFailed;
      outcome_.summary = "interrupted";
    }
    return std::move(outcome_);
  }

 private:
  // The jobs of one workflow in plan order (those of a called workflow in their own scope, where
  // their needs name each other), each gated, run and judged.
  void run_jobs(const std::vector<plan::PlannedJob>& jobs) {
    const auto* outer = std::exchange(jobs_, &jobs);
    for (const auto& job : jobs) {
      JobReport report{shown(job), RunStatus::kNotRun, {}};
      run_job(job, report);
      JobRecord& rec = finished_[job.id];
      rec.result = report.status == RunStatus::kOk       ? "success"
                   : report.status == RunStatus::kFailed ? "failure"
                                                         : "skipped";
      outcome_.jobs.push_back(std::move(report));
    }
    jobs_ = outer;
  }

  // A job as logs and reports name it: GitHub's "caller / called" inside a called workflow.
  std::string shown(const plan::PlannedJob& job) const { return prefix_ + job.id; }

  // Every job `job` depends on, directly or through others, succeeded; or one of them failed.
  std::pair<bool, bool> ancestors(const plan::PlannedJob& job) {
    bool all_ok = true;
    bool any_failed = false;
    for (const auto& need : job.needs) {
      auto it = finished_.find(need);
      const std::string result = it == finished_.end() ? "skipped" : it->second.result;
      all_ok = all_ok && result == "success";
      any_failed = any_failed || result == "failure";
      for (const auto& j : *jobs_) {
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
    log_.line(
        fmt::format("reviewer: job '{}' if: {} is {}", shown(job), job.condition.written, *v));
    return *v;
  }

  // `job` with its run-time env values evaluated over the jobs it needs (GitHub's job env
  // contexts: no steps, env or status functions).
  util::Result<plan::PlannedJob> with_job_env(const plan::PlannedJob& job) {
    plan::PlannedJob out = job;
    const expr::Object contexts = job_condition_contexts(job, finished_);
    for (auto& e : out.env) {
      if (!e.run_time) {
        continue;
      }
      auto v = plan::evaluate_field(e.value, plan::Field::kJobEnv, contexts, nullptr);
      if (!v) {
        util::Refusal r = v.error();
        r.message = util::quote(e.name) + ": " + r.message;
        return r;
      }
      e.value = v->coerce_string();
      e.run_time = false;
    }
    return out;
  }

  void run_job(const plan::PlannedJob& job, JobReport& report) {
    std::string why;
    if (!job_may_run(job, why).value_or(false)) {
      log_.line(fmt::format("reviewer: job '{}' not run ({})", shown(job), why));
      fail_build(fmt::format("job '{}' did not run ({})", shown(job), why));
      return;
    }
    if (job.called) {
      run_called(job, report);
      return;
    }
    // The job's env as the runner has it when the job starts: what reads `needs`, evaluated.
    auto started = with_job_env(job);
    if (!started) {
      log_.line(fmt::format("reviewer: job '{}' env: {}", shown(job), started.error().message));
      fail_build(fmt::format("job '{}' env {}", shown(job), started.error().message));
      report.status = RunStatus::kFailed;
      return;
    }
    StepHost::JobState state;
    state.job = &*started;
    if (!prepare_job(state)) {
      return;
    }
    log_.line(fmt::format("reviewer: job '{}'{} started", shown(job),
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
    log_.line(fmt::format("reviewer: job '{}' {}", shown(job), failed ? "failed" : "succeeded"));
  }

  // The jobs of the workflow `job` calls, named "job / called"; its result and outputs are
  // theirs (called_jobs.h).
  void run_called(const plan::PlannedJob& job, JobReport& report) {
    log_.line(fmt::format("reviewer: job '{}' calls {} ({} jobs)", shown(job), job.called->file,
                          job.called->jobs.size()));
    std::map<std::string, JobRecord> called;
    std::swap(finished_, called);
    const std::string outer = std::exchange(prefix_, shown(job) + " / ");
    run_jobs(job.called->jobs);
    prefix_ = outer;
    std::swap(finished_, called);
    auto record = called_workflow_record(*job.called, called, ctx_.workspace);
    if (!record) {
      fail_build(fmt::format("job '{}' {}", shown(job), record.error().message));
    } else {
      finished_[job.id].outputs = std::move(record->outputs);
    }
    const bool ok = record && record->result == "success";
    report.status = ok ? RunStatus::kOk : RunStatus::kFailed;
    log_.line(fmt::format("reviewer: job '{}' {}", shown(job), ok ? "succeeded" : "failed"));
  }

  // Fresh directories and the guard before a job; false (the build refused) when it may not
  // start.
  bool prepare_job(StepHost::JobState& state) {
    const plan::PlannedJob& job = *state.job;
    // Each job on GitHub starts on a fresh runner: nothing an earlier job left in /tmp,
    // /var/tmp, /run or its own HOME, TMPDIR and caches may reach this one.
    if (jobs_started_ != 0) {
      if (auto cleared = scratch_.clear(); !cleared) {
        refuse_before(job, cleared.refusals());
        return false;
      }
      // And a fresh checkout: nothing an earlier job left in the worktree reaches this one.
      if (ctx_.fresh_worktree != nullptr) {
        if (auto fresh = ctx_.fresh_worktree->refresh(); !fresh) {
          refuse_before(job, fresh.refusals());
          return false;
        }
      }
    }
    const std::size_t n = jobs_started_++;
    state.runner = {ctx_.workspace,    job.id,
                    plan_.base,        plan_.workflow_file,
                    ctx_.runtime_path, make_job_dirs(ctx_.review_root, n)};
    if (auto before = guard_.before_job(state.runner.dirs.home, job.fetch_depth, n == 0); !before) {
      refuse_before(job, before.refusals());
      return false;
    }
    if (ctx_.provisioner != nullptr) {
      auto provision = ctx_.provisioner->prepare(state.runner.dirs);
      if (!provision) {
        refuse_before(job, provision.refusals());
        return false;
      }
      auto& path = state.runner.runtime_path;
      path.insert(path.begin(), provision->path_first.begin(), provision->path_first.end());
      path.insert(path.end(), provision->path_last.begin(), provision->path_last.end());
      state.runner.tool_defaults = std::move(provision->settings.defaults);
      state.runner.tool_settings = std::move(provision->settings.settings);
    }
    return true;
  }

  // CI's step gate: its `if:` (by default, no earlier step of the job failed). nullopt, with
  // `error` set, when the condition could not be evaluated.
  std::optional<bool> step_may_run(const plan::PlannedStep& step, const StepScene& scene,
                                   std::optional<util::Refusal>& error) {
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
      error = v.error();
      error->message = "if: " + step.condition.written + ": " + error->message;
      return std::nullopt;
    }
    return *v;
  }

  // The step with what only the run knows evaluated: its script and env (expr text as written,
  // evaluated once). nullopt, with `error` set, when an expression fails.
  std::optional<plan::PlannedStep> substituted(const plan::PlannedStep& step,
                                               const StepScene& scene,
                                               std::optional<util::Refusal>& error) {
    plan::PlannedStep out = step;
    StatusRuntime status(!scene.job_failed, scene.job_failed, false, ctx_.workspace);
    auto eval = [&](const std::string& text,
                    const std::vector<workflow::Entry>& env) -> std::optional<std::string> {
      auto v = plan::evaluate_field(
          text, scene.contexts != nullptr ? plan::Field::kActionStepValue : plan::Field::kStepValue,
          step_contexts(scene, env), &status);
      if (!v) {
        error = v.error();
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

  // CI's step gate, then the step's run-time values, then the step through its plugin (or the
  // steps of its local action), judged from what the host observed; its report joins the build's
  // (an action's steps after it).
  void run_step(const plan::PlannedStep& planned, StepHost::JobState& state, Frame& frame) {
    const std::size_t at = outcome_.steps.size();
    outcome_.steps.push_back(StepReport{shown(*state.job), planned.step.index, step_name(planned),
                                        planned.step.action, planned.skip ? "skip" : "run",
                                        RunStatus::kNotRun, -1, 0, "", ""});
    StepRun run{planned, frame, outcome_.steps[at]};
    run.report.number = step_number(planned);
    run.label = fmt::format("[{} #{} {}]", shown(*state.job), run.report.number, run.report.name);
    run.what =
        fmt::format("job '{}' step {} '{}'", shown(*state.job), run.report.number, run.report.name);
    const StepScene scene{*state.job,
                          finished_,
                          frame.steps,
                          state.github_env,
                          frame.failed,
                          state.runner.dirs.runner_temp,
                          frame.action != nullptr ? &frame.action->contexts : nullptr,
                          &frame.caller_env};
    std::optional<util::Refusal> error;
    const auto may_run = step_may_run(planned, scene, error);
    if (!planned.condition.written.empty() && may_run) {
      run.report.condition =
          "if: " + planned.condition.written + " is " + (*may_run ? "true" : "false");
    }
    std::optional<plan::PlannedStep> step;
    if (may_run.value_or(false)) {
      step = substituted(planned, scene, error);
    }
    if (error) {
      step_unevaluated(run, *error);
    } else if (!may_run.value_or(false)) {
      step_not_run(run);
    } else {
      execute(*step, run, state);
      record_ran(*step, run);
    }
    // Written back only now: the steps of a local action have taken their places after it.
    outcome_.steps[at] = std::move(run.report);
  }

  // A value of the step (its if:, env or script) could not be evaluated: the step fails.
  void step_unevaluated(StepRun& run, const util::Refusal& error) {
    const std::string text = error.rule + ": " + error.message;
    run.report.status = RunStatus::kFailed;
    run.report.message = text;
    log_.line(fmt::format("{} failed: {}", run.label, text));
    // What a plugin step's outputs would have held is not the pull request's failure: the
    // review cannot know it (run_contexts.h), so the build is refused, not failed.
    const bool refused = error.kind == util::RefusalKind::kUnknowable;
    step_failed(run.frame, run.what + " " + text, refused);
    if (refused) {
      refuse_build({error.rule, run.what + ": " + error.message, std::nullopt});
    }
    record(run, "failure", "failure", {});
  }

  // The gate kept the step from running: a line only when its own `if:` did, not an earlier
  // failure or the launcher's interruption.
  void step_not_run(StepRun& run) {
    if (run.planned.condition.kind != plan::Condition::Kind::kSuccess && !runner_.interrupted()) {
      run.report.message = "if: " + run.planned.condition.written + " is false";
      log_.line(fmt::format("{} not run: {}", run.label, run.report.message));
    }
    record(run, "skipped", "skipped", {});
  }

  // The step, its values substituted, through its plugin or as the steps of its local action.
  void execute(plan::PlannedStep& step, StepRun& run, StepHost::JobState& state) {
    if (run.frame.action != nullptr) {
      // The action's step env sits on the env of the steps that called it.
      step.step.env.insert(step.step.env.begin(), run.frame.caller_env.begin(),
                           run.frame.caller_env.end());
    }
    const auto started = std::chrono::steady_clock::now();
    if (step.local) {
      run.outputs = run_action(step, run.label, state, run.report, run.refused);
    } else {
      run_plugin(step, run, state);
    }
    run.report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  void run_plugin(const plan::PlannedStep& step, StepRun& run, StepHost::JobState& state) {
    REVIEWER_CHECK(step.plugin != nullptr);  // the planner refuses a step without a plugin
    std::string step_dir = fmt::format("{}/steps/{}", state.runner.dirs.root, run.report.number);
    make_dir(step_dir);
    state.runner.action_path = run.frame.action != nullptr ? run.frame.action->action_path : "";
    StepHost host(step, state, runner_, guard_, step_dir, log_, &artifacts_);
    if (!step.release.empty()) {
      host.log(fmt::format("{}@{} taken as {} (the newest reviewed release it can name{})",
                           step.step.action, step.tag, step.release,
                           step.reviewed_on.empty() ? "" : ", reviewed " + step.reviewed_on));
    }
    // The repository files its plugin read at plan time are read again now, as the action reads
    // them when it runs.
    std::vector<std::string> agreed;
    if (auto same = recheck_repository_files(step, state.runner.workspace, agreed); !same) {
      host.fail(same.error().rule, same.error().message);
    } else {
      for (const auto& line : agreed) {
        host.log(line);
      }
      plugins::execute_step(*step.plugin, step.step, host);
    }
    judge_step(step, host, run.report);
    if (host.result()) {
      run.network_sign = host.result()->network_sign;
    }
    run.refused = !host.failures().empty();
    run.outputs = host.outputs();
  }

  // The step that ran: its line, and its outcome for the job and the steps after it.
  void record_ran(const plan::PlannedStep& step, StepRun& run) {
    StepReport& report = run.report;
    // The runner's continue-on-error: the step's outcome is failure, its conclusion success,
    // and the job goes on. A refusal the host recorded is never tolerated.
    const bool tolerated =
        report.status == RunStatus::kFailed && step.step.continue_on_error && !run.refused;
    if (tolerated) {
      report.message += " (continue-on-error: tolerated)";
    }
    log_.line(step_line(run.label + " ", report));
    if (report.status == RunStatus::kFailed && !run.network_sign.empty()) {
      // A diagnosis only: the outcome is the step's. docs/dependencies.md.
      log_.line("reviewer: network: the sandbox has no network, and step " + run.label +
                " appears to have needed it: its output shows a network access (\"" +
                report::printable(run.network_sign) +
                "\"); CI has the network, the review does not (docs/dependencies.md)");
    }
    if (tolerated) {
      report.status = RunStatus::kOk;
      record(run, "failure", "success", std::move(run.outputs));
    } else {
      const bool ok = report.status == RunStatus::kOk;
      record(run, ok ? "success" : "failure", ok ? "success" : "failure", std::move(run.outputs));
      if (!ok) {
        step_failed(run.frame, run.what + " " + report.message, run.refused);
      }
    }
  }

  // The step's outcome and conclusion in its frame's `steps` context, when it has an id.
  static void record(StepRun& run, const std::string& outcome, const std::string& conclusion,
                     std::vector<workflow::Entry> outputs) {
    const plan::PlannedStep& planned = run.planned;
    if (planned.step.id) {
      const bool plugin = planned.step.action != "run" && planned.local == nullptr;
      run.frame.steps[*planned.step.id] =
          StepRecord{outcome, conclusion, std::move(outputs),
                     plugin && outcome != "skipped" ? planned.step.action : std::string()};
    }
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
        log_.line(fmt::format("reviewer: job '{}' output '{}': {}", shown(job), o.name,
                              v.error().message));
        fail_build(fmt::format("job '{}' output '{}' {}", shown(job), o.name, v.error().message));
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
      log_.line(fmt::format("reviewer: job '{}' left processes running; killed: {}", shown(job),
                            fmt::join(report.killed, ", ")));
    }
    auto after = guard_.after_job();
    if (after) {
      return true;
    }
    for (const auto& r : after.refusals()) {
      log_.line("reviewer: refused after job '" + shown(job) + "': " + r.rule + ": " + r.message);
    }
    refuse_build(after.error());
    return false;
  }

  void refuse_before(const plan::PlannedJob& job, const report::Refusals& refusals) {
    for (const auto& r : refusals) {
      log_.line("reviewer: refused before job '" + shown(job) + "': " + r.rule + ": " + r.message);
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
  std::size_t jobs_started_ = 0;
  const std::vector<plan::PlannedJob>* jobs_ = nullptr;  // the workflow whose jobs run now
  std::string prefix_;  // "caller / " while a called workflow's jobs run
  // The build's artifacts, in the launcher's memory from the first job to the last.
  ArtifactStore artifacts_;
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

void check_first_job_ahead(const plan::Plan& plan, WorktreeGuard& guard,
                           const std::string& review_root) {
  const auto jobs = plan::jobs_with_steps(plan.jobs);
  if (jobs.empty()) {
    return;
  }
  // The loop's first before_job is its job 0's (prepare_job), whichever job an `if:` lets start
  // first; the check depends on nothing of the job but its HOME and fetch depth.
  guard.check_first_job_ahead(make_job_dirs(review_root, 0).home, jobs.front()->fetch_depth);
}

}  // namespace reviewer::launch
