#include "core/launch/launcher.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "core/credentials/image_credentials.h"
#include "core/deps/provision/provisioner.h"
#include "core/exec/line_writer.h"
#include "core/exec/supervisor.h"
#include "core/git/warm_up.h"
#include "core/launch/assignment_integrity.h"
#include "core/launch/become_sandbox_user.h"
#include "core/launch/build_preparation.h"
#include "core/launch/build_report.h"
#include "core/launch/fresh_worktree.h"
#include "core/launch/git_worktree_guard.h"
#include "core/launch/image_checksums.h"
#include "core/launch/image_in_runtime_table.h"
#include "core/launch/image_info.h"
#include "core/launch/job_loop.h"
#include "core/launch/job_scratch.h"
#include "core/launch/keyring_filter.h"
#include "core/launch/launcher_arguments.h"
#include "core/launch/read_assignment.h"
#include "core/launch/runtime_resolution.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/util/check.h"
#include "core/util/install_layout.h"
#include "core/util/text.h"

namespace reviewer::launch {
namespace {

constexpr const char* kWorkspace = "/workspace";

// What this run's verdict is attested with; every verdict line goes through finish(), which is
// reached from a dozen places before and after the build, hence one per process.
ReportAttestation& attestation() {
  static ReportAttestation a;
  return a;
}

// The verdict line, ending with its attestation when the host gave a nonce: the MAC over the
// verdict's kind, the assignment, the image and the report's digest (empty before any report).
int finish(report::ExitCode code, const std::string& line) {
  // A name the pull request chose may stand in the verdict: escaped, so it cannot end the line.
  std::string out;
  util::append_printable(out, line);
  ReportAttestation& a = attestation();
  if (a.nonce) {
    contract::AttestedFacts f = a.facts;
    f.verdict = contract::verdict_kind(line);
    out += contract::kLineMarker + contract::attestation_mac(*a.nonce, f);
  }
  exec::write_all(1, out + "\n");
  return report::to_int(code);
}

int refused(const report::Refusal& r) {
  return finish(report::ExitCode::kRefused, "review-build-refused: " + report::to_text(r));
}

int refused_all(const report::Refusals& rs) {
  for (std::size_t i = 1; i < rs.size(); ++i) {
    exec::write_all(1, "reviewer: also refused: " + report::to_text(rs[i]) + "\n");
  }
  return refused(rs.front());
}

// The image's corepack, when it carries one.
std::string corepack_of(const ImageInfo& image) {
  const auto it = image.runtimes.find("corepack");
  return it == image.runtimes.end() ? "" : it->second.path;
}

// Who the launcher is for this run, settled before anything of the pull request is read.
struct Start {
  Mode mode;
  InitEnvironment init;
  // The self-check builds nothing, so it needs no assignment: an operator checks an image
  // created without one. Empty then.
  contract::Assignment assignment;
};

// Everything up to the launcher's first line (the assignment-integrity probe's); a refusal ends
// the run before anything else.
util::Result<Start> start(const std::vector<std::string>& args, char** caller_env) {
  // Steps run as the same user: without this, one could ptrace the launcher or read its memory
  // and rewrite the verdict. Steps get their own dumpable flag back at exec.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Before anything can start a child: the host's nonce leaves the environment every step
  // inherits from, and lives on only in this non-dumpable process.
  auto nonce = contract::take_nonce();
  if (!nonce) {
    return nonce.refusals();
  }
  attestation().nonce = std::move(*nonce);
  auto mode = parse_arguments(args);
  if (!mode) {
    return mode.refusals();
  }
  // Opened while the launcher may still be root (init_environment.h); then root is given up,
  // before anything of the pull request is read, and whether or not the open worked.
  auto init = InitEnvironment::open("/proc/1/environ");
  auto started = become_sandbox_user();
  if (!started) {
    return started.refusals();
  }
  // Before any child: no step may reach a kernel keyring (keyring_filter.h), whatever profile
  // the engine applied.
  if (auto filtered = deny_kernel_keyrings(); !filtered) {
    return filtered.refusals();
  }
  if (!init) {
    return init.refusals();
  }
  contract::Assignment assignment;
  if (*mode == Mode::kBuild) {
    auto assigned = read_assignment(*init);
    if (!assigned) {
      return assigned.refusals();
    }
    assignment = std::move(*assigned);
    if (auto caller = contract::check_caller_environment(assignment, caller_env); !caller) {
      return caller.refusals();
    }
  }
  attestation().facts = contract::attested_facts(assignment, "");
  // Whether a step could rewrite the assignment in PID 1's memory, tried for real and said
  // before anything else runs (docs/threat-model.md, "The assignment").
  const IntegrityProbe integrity = probe_assignment_integrity();
  exec::write_all(1, "reviewer: assignment-integrity: " + integrity.describe() + "\n");
  return Start{*mode, std::move(*init), std::move(assignment)};
}

int self_check(const ImageInfo& image, const resolve::RuntimeTable& matrix, std::size_t plugins,
               const InitEnvironment& init, char** caller_env) {
  // The versions printed above could come from any binary; the bytes must be the table's.
  if (auto bad = check_runtime_checksums(image, matrix); !bad) {
    return refused_all(bad.refusals());
  }
  // The image must hold no credential a review build could use (docs/threat-model.md).
  auto init_block = init.read();
  if (!init_block) {
    return refused(init_block.error());
  }
  if (auto found = credentials::find_image_credentials(caller_env, *init_block); !found) {
    return refused_all(found.refusals());
  }
  return finish(report::ExitCode::kOk,
                fmt::format("review-self-check-ok: image {} with {} plugins", image.name, plugins));
}

// A build that ended before its first step: the launcher's own failure, or its refusals.
int end_early(BuildPreparation& prep, const std::string& workflow, exec::LogSink& log) {
  REVIEWER_CHECK(prep.end() != BuildPreparation::End::kNone);
  const report::Refusals& why = prep.why();
  switch (prep.end()) {
    case BuildPreparation::End::kNone:
    case BuildPreparation::End::kNoWorktree:
    case BuildPreparation::End::kNoScratch:
      return finish(report::ExitCode::kInternal, "review-build-failed: " + why.front().message);
    case BuildPreparation::End::kShapeRefused:
      return refused_all(why);
    case BuildPreparation::End::kPlanRefused:
      // Each refusal with the line it points at and a caret, as `reviewer plan` shows them; the
      // verdict stays the last line.
      for (const auto& r : why) {
        exec::write_all(
            1, "reviewer: refused: " + report::to_text(r, workflow, prep.workflow_text()) + "\n");
      }
      return refused(why.front());
    case BuildPreparation::End::kUnresolved:
      break;
  }
  // The reports still say what was planned and why nothing of it ran.
  BuildOutcome outcome{
      BuildOutcome::Verdict::kRefused, report::to_text(why.front()), why.front(), {}, {}};
  publish_build_reports(prep.scratch(), prep.plan(), outcome, log, &attestation());
  return refused_all(why);
}

int verdict(const BuildOutcome& outcome) {
  switch (outcome.verdict) {
    case BuildOutcome::Verdict::kOk:
      return finish(report::ExitCode::kOk, "review-build-ok");
    case BuildOutcome::Verdict::kRefused:
      return refused(*outcome.refusal);
    case BuildOutcome::Verdict::kFailed:
      break;
  }
  return finish(report::ExitCode::kBuildFailed, "review-build-failed: " + outcome.summary);
}

int build(BuildPreparation& prep, exec::Supervisor& supervisor, exec::LogSink& log,
          const Start& started, const ImageInfo& image) {
  const plan::Plan& plan = prep.plan();
  exec::write_all(1, fmt::format("reviewer: building job '{}' of {} ({} job(s)) in image {}\n",
                                 plan.job, plan.workflow_file, plan.jobs.size(), image.name));
  deps::Provisioner provisioner(deps::find_dependency_view(), corepack_of(image), plan.pins,
                                [&log](const std::string& line) { log.line(line); });
  auto outcome = run_plan(plan, supervisor, prep.guard(), prep.scratch(), log,
                          LoopContext{kWorkspace, prep.scratch().build_dir(), image.path,
                                      &provisioner, prep.fresh_worktree()});
  // A step that rewrote PID 1's environment fails the build it ran in, whatever its verdict.
  if (auto same = check_assignment_unchanged(started.assignment, started.init); !same) {
    outcome.verdict = BuildOutcome::Verdict::kFailed;
    outcome.summary = same.error().to_string();
  }
  publish_build_reports(prep.scratch(), plan, outcome, log, &attestation());
  for (const auto& line : summary_table(outcome)) {
    log.line(line);
  }
  rusage self{};
  ::getrusage(RUSAGE_SELF, &self);
  exec::write_all(1, fmt::format("reviewer: launcher peak RSS {} KiB\n", self.ru_maxrss));
  return verdict(outcome);
}

}  // namespace

int run_launcher(const std::vector<std::string>& args, char** caller_env) {
  auto started = start(args, caller_env);
  if (!started) {
    return refused(started.error());
  }
  const Mode mode = started->mode;
  const contract::Assignment& assignment = started->assignment;
  // Signals are routed to the supervisor from here on, so an interruption at any later point
  // still kills what was started.
  exec::Supervisor supervisor(1, exec::KillPolicy{});
  // The runtimes are asked first (image_info.h): node's own start-up is the longest wait before
  // the first step, and everything up to the build runs while it answers. A broken image.json is
  // still named only where it was, after the plugins (nothing is asked then). bun is on a step's
  // PATH only after oven-sh/setup-bun (runners carry none), whose every accepted step pins it: a
  // build asks it once its plan is known to reach it.
  auto image = read_image_info(util::data_directory() + "/image.json");
  PendingRuntimeCheck runtimes(!image                     ? ImageInfo{}
                               : mode == Mode::kSelfCheck ? *image
                                                          : without_runtime(*image, "bun"));
  // After the supervisor blocked the signals it routes, so the thread inherits that mask.
  const git::Libgit2WarmUp libgit2_warm_up;
  // A build verifies and loads the plugins its plan uses; the self-check every one of them.
  auto loaded = mode == Mode::kSelfCheck ? plugins::Registry::load(util::plugin_directory())
                                         : plugins::Registry::open(util::plugin_directory());
  if (!loaded) {
    return refused_all(loaded.refusals());
  }
  if (!image) {
    return refused(image.error());
  }
  attestation().facts.image = image->name;
  auto matrix = load_trusted_matrix();
  if (!matrix) {
    return refused(matrix.error());
  }
  // The image's own description is not enough: its versions must be the matrix image's, or a
  // description naming one image while carrying another's runtimes would pass.
  if (auto bad = check_image_against_runtime_table(*image, *matrix); !bad) {
    return refused_all(bad.refusals());
  }
  // A build makes all it can before its first step while the runtimes answer; the self-check
  // makes nothing.
  std::optional<BuildPreparation> prep;
  if (mode == Mode::kBuild) {
    prep.emplace(kWorkspace, assignment, *loaded, *image, *matrix, runtimes);
  }
  // The one gate: every verdict from here on, and the build's first step, wait for the runtimes,
  // and a mismatch of theirs is given first, as it would have been had they been checked before
  // anything else.
  if (const auto& bad = runtimes.wait(); !bad) {
    return refused_all(bad.refusals());
  }
  if (mode == Mode::kSelfCheck) {
    return self_check(*image, *matrix, loaded->size(), started->init, caller_env);
  }
  exec::FdLogSink log(1);
  if (prep->end() != BuildPreparation::End::kNone) {
    return end_early(*prep, assignment.workflow, log);
  }
  return build(*prep, supervisor, log, *started, *image);
}

}  // namespace reviewer::launch
