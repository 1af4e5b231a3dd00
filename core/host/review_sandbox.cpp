#include "core/host/review_sandbox.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "core/deps/dependencies.h"
#include "core/deps/fetch_phase.h"
#include "core/deps/global_installs.h"
#include "core/host/attested_verdict.h"
#include "core/report/source_excerpt.h"

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;
using report::ExitCode;

// Beyond the jobs' own timeouts: the sandbox's creation and teardown, the launcher's checks.
constexpr std::int64_t kHostMarginSeconds = 5 * 60;

// The launcher ends a job at its timeout-minutes; the host's limit is for a launcher that cannot
// (stopped by a step, killed, hung), and gives it this much beyond. The e2e test of a stopped
// launcher shortens it with REVIEWER_HOST_MARGIN_SECONDS_FOR_TEST (0 to 300, documented in
// docs/host.md as test-only); anything else there is ignored.
std::int64_t host_margin_seconds() {
  const char* text = std::getenv("REVIEWER_HOST_MARGIN_SECONDS_FOR_TEST");
  if (text == nullptr || *text == '\0') {
    return kHostMarginSeconds;
  }
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' && value >= 0 && value <= kHostMarginSeconds ? value : kHostMarginSeconds;
}

deps::FetchPhaseRequest what_to_fetch(const ReviewState& r) {
  const ReviewRequest& request = r.request;
  // The resolved lock goes only where the user asked for reports: the scratch directory is
  // removed with the review.
  deps::FetchPhaseRequest fetch_request;
  fetch_request.worktree = r.clone;
  fetch_request.scratch = r.scratch->path();
  fetch_request.store_dir = request.store_dir;
  fetch_request.reports_dir = request.reports_dir.empty() ? "" : r.reports_dir;
  fetch_request.image = r.resolution->image;
  fetch_request.limits = r.limits;
  if (fetch_request.store_dir.empty()) {
    fetch_request.store_dir = deps::default_store_dir();
  }
  fetch_request.package_managers = deps::package_manager_pins(*r.plan, *r.resolution);
  fetch_request.project_dirs = deps::project_dirs(*r.plan);
  fetch_request.global_installs = deps::global_npm_installs(*r.plan);
  fetch_request.options.registry = request.registry;
  fetch_request.options.max_total_bytes = request.max_dependency_bytes;
  return fetch_request;
}

SandboxSpec sandbox_spec(const ReviewState& r) {
  SandboxSpec spec;
  spec.image = r.resolution->image;
  spec.workspace = r.worktree;
  spec.pristine = r.clone;
  spec.assignment = *r.assignment;
  spec.limit = std::chrono::seconds(r.seconds);
  spec.reports_dir = r.reports_dir;
  spec.nonce = make_nonce();
  spec.dependencies = r.dependencies;
  spec.limits = r.limits;
  return spec;
}

}  // namespace

// Only package.json and the lock file are read, and every tarball is verified against the lock
// before the review may see it.
std::optional<int> fetch_dependencies(ReviewState& r) {
  const ReviewRequest& request = r.request;
  // The reports always come out: the host checks report.json's attestation with the verdict's.
  r.reports_dir = request.reports_dir.empty() ? r.scratch->path() + "/reports"
                                              : fs::absolute(request.reports_dir).string();
  // Without --reports they go to the scratch directory, which must exist to receive them.
  if (std::error_code ec; !fs::create_directories(r.reports_dir, ec) && ec) {
    return say_host_failure({"host-command", "cannot make " + r.reports_dir, std::nullopt});
  }
  r.limits = SandboxLimits{request.pids_limit, request.memory_limit, request.cpu_limit};
  auto dependency_view = deps::fetch_phase(what_to_fetch(r), *r.engine);
  if (!dependency_view) {
    if (deps::is_host_side(dependency_view.error())) {
      return say_host_failure(dependency_view.error());
    }
    return say_refused(dependency_view.refusals(), "", "");
  }
  r.dependencies = std::move(*dependency_view);
  return std::nullopt;
}

std::optional<int> run_sandbox(ReviewState& r) {
  // The clone is the pristine copy every job's worktree starts from (launch/fresh_worktree.h):
  // mounted read-only, beside an empty worktree that the engine gives the sandbox's user.
  r.worktree = r.scratch->path() + "/worktree";
  if (std::error_code ec; !fs::create_directory(r.worktree, ec)) {
    return say_host_failure(
        {"host-command", "cannot make the worktree " + r.worktree, std::nullopt});
  }
  r.seconds = host_margin_seconds();
  // A called workflow's jobs each have their own time limit; the job calling them has none.
  for (const plan::PlannedJob* job : plan::jobs_with_steps(r.plan->jobs)) {
    r.seconds += job->timeout_minutes * 60;
  }
  r.spec = sandbox_spec(r);
  auto ran = r.engine->run(r.spec);
  if (r.request.keep_clone) {
    std::cout << "review: the clone is kept at " << r.clone << ", the last job's worktree at "
              << r.worktree << '\n';
  }
  if (!ran) {
    return say_host_failure(ran.error());
  }
  r.ran = std::move(*ran);
  return std::nullopt;
}

int verify_verdict(const ReviewState& r) {
  const SandboxRun& ran = *r.ran;
  if (ran.timed_out) {
    return say_verdict(ExitCode::kBuildFailed,
                       "review-build-failed: host timeout: the launcher ran past " +
                           std::to_string(r.seconds) + " seconds and was killed");
  }
  if (ran.status >= 0 && ran.status <= 4) {
    // The exit code alone is not the verdict: a step that killed the launcher, or outlived it,
    // could have written the reports and lines; only the launcher knew the nonce.
    const contract::AttestedFacts expected =
        contract::attested_facts(*r.assignment, r.resolution->image);
    const VerdictCheck check = check_verdict(
        ran.status, ran.last_line, r.spec.reports_dir + "/report.json", r.spec.nonce, expected);
    if (!check.trusted) {
      return say_verdict(ExitCode::kBuildFailed, "review-build-failed: unattested verdict: " +
                                                     report::printable(check.why));
    }
    std::cout << "review: the verdict is attested (HMAC-SHA256 keyed by this review's nonce)\n";
    std::cout << check.verdict << std::endl;  // the launcher's verdict, last, as it said it
    return ran.status;
  }
  if (ran.status >= 125 && ran.status <= 127) {  // the engine's own: could not exec
    return say_host_failure({"host-command",
                             r.engine->name() + " could not run the launcher (status " +
                                 std::to_string(ran.status) + ")",
                             std::nullopt});
  }
  return say_verdict(ExitCode::kBuildFailed,
                     "review-build-failed: the launcher ended with status " +
                         std::to_string(ran.status) + " without a verdict");
}

}  // namespace reviewer::host
