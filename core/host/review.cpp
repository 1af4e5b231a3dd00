#include "core/host/review.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/host/attested_verdict.h"
#include "core/host/clone.h"
#include "core/host/dependencies.h"
#include "core/host/engine.h"
#include "core/host/fetch_phase.h"
#include "core/host/host_identity.h"
#include "core/host/host_process.h"
#include "core/host/interruption.h"
#include "core/host/leftovers.h"
#include "core/launch/assignment.h"
#include "core/plan/event_facts.h"
#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/report/source_excerpt.h"
#include "core/resolve/resolver.h"
#include "core/util/install_layout.h"
#include "core/yaml/bounded_loader.h"  // Bounds

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

int say(ExitCode code, const std::string& verdict) {
  std::cout << verdict << std::endl;
  return report::to_int(code);
}

int host_failure(const util::Refusal& e) {
  std::cerr << "reviewer review: " << report::printable(e.to_string()) << '\n';
  return say(ExitCode::kInternal, "review-build-failed: host: " + report::printable(e.rule));
}

int refused(const report::Refusals& refusals, const std::string& file, const std::string& text) {
  for (const auto& r : refusals) {
    std::cout << report::to_text(r, file, text) << '\n';
  }
  return say(ExitCode::kRefused, "review-build-refused: " + report::to_text(refusals.front()));
}

std::string temp_dir() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != 0 ? tmp : "/tmp";
}

// A scratch directory for the clone, removed when the review ends unless it is to be kept, also
// when the review is interrupted (interruption.h). It names this process in its owner file, so
// that `reviewer gc` removes it once this process is gone (leftovers.h).
class Scratch {
 public:
  Scratch() {
    std::string pattern = temp_dir() + "/" + kScratchPrefix + "XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) {
      path_ = pattern;
      held_ = hold_directory(path_);
      std::ofstream(path_ + "/" + kScratchOwnerFile) << this_process_identity() << '\n';
    }
  }
  ~Scratch() {
    if (!path_.empty() && !keep_) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& path() const { return path_; }
  void keep() {
    keep_ = true;
    held_ = Held();
    std::error_code ec;
    fs::remove(path_ + "/" + kScratchOwnerFile, ec);
  }

 private:
  std::string path_;
  bool keep_ = false;
  Held held_;
};

util::Result<std::unique_ptr<Engine>> choose_engine(const ReviewRequest& r) {
  std::string engine = r.engine;
  if (engine.empty()) {
    engine = command_output({"sh", "-c", "command -v podman"}) ? "podman" : "namespaces";
  }
  if (engine == "podman") {
    return make_container_engine(engine);
  }
  // Every review has a user namespace of its own (docs/threat-model.md); docker can only remap
  // all of its containers into one range, which reviews would share.
  if (engine == "docker") {
    return util::Refusal{"review-usage",
                         "--engine docker cannot give each review a user namespace of its own "
                         "(docker remaps all containers into one range); use podman or "
                         "namespaces",
                         std::nullopt};
  }
  if (engine == "namespaces") {
    if (r.stage.empty()) {
      return util::Refusal{"review-usage",
                           "the namespaces engine needs --stage DIR (an install staged by "
                           "docker/run-model/stage-image.sh); or install podman",
                           std::nullopt};
    }
    return make_namespace_engine(fs::absolute(r.stage).string());
  }
  return util::Refusal{"review-usage",
                       "--engine \"" + engine + "\" is not podman, docker or namespaces",
                       std::nullopt};
}

}  // namespace

int review(const ReviewRequest& request) {
  // Before any thread: a TERM, INT or HUP from here on removes what the review holds.
  handle_interruptions();
  // What names this review's sandboxes and clone on the host (leftovers.h).
  std::cout << "review: host process " << this_process_identity() << '\n';
  std::string matrix_lines;
  for (const auto& m : request.matrix) {
    matrix_lines += (matrix_lines.empty() ? "" : "\n") + m;
  }
  launch::Assignment asked;
  asked.workflow = request.workflow;
  asked.job = request.job;
  asked.base = request.base;
  asked.matrix = matrix_lines;
  asked.pinned_only = request.pinned_only;
  asked.same_repository = request.same_repository;
  if (!request.event_file.empty()) {
    auto facts = plan::read_event_file(request.event_file, request.base);
    if (!facts) {
      std::cerr << "reviewer review: " << report::printable(facts.error().to_string()) << '\n';
      return report::to_int(ExitCode::kUsage);
    }
    asked.event = plan::event_facts_json(*facts);
  }
  auto assignment = launch::check_assignment(std::move(asked));
  if (!assignment || request.job.empty() || request.base.empty()) {
    std::cerr << "reviewer review: "
              << (assignment ? "--job and --base must not be empty"
                             : report::printable(assignment.error().to_string()))
              << '\n';
    return report::to_int(ExitCode::kUsage);
  }
  auto engine = choose_engine(request);
  if (!engine) {
    std::cerr << "reviewer review: " << engine.error().message << '\n';
    return report::to_int(ExitCode::kUsage);
  }
  // What reviews killed outright (SIGKILL) left on this host goes first.
  for (const auto& line :
       collect_leftovers((*engine)->name() == "podman" ? util::data_directory() + "/engine.sh" : "",
                         temp_dir())) {
    std::cout << "review: " << line << '\n';
  }
  if (!request.reports_dir.empty()) {
    std::error_code ec;
    fs::create_directories(request.reports_dir, ec);
    if (!fs::is_directory(request.reports_dir, ec)) {
      std::cerr << "reviewer review: --reports " << request.reports_dir
                << " is not a directory that can be made\n";
      return report::to_int(ExitCode::kUsage);
    }
  }
  if (!valid_registry(request.registry)) {
    std::cerr << "reviewer review: --registry \"" << report::printable(request.registry)
              << "\" is not an https URL ending in '/'\n";
    return report::to_int(ExitCode::kUsage);
  }
  Scratch scratch;
  if (scratch.path().empty()) {
    return host_failure({"host-command", "cannot make a scratch directory", std::nullopt});
  }
  if (request.keep_clone) {
    scratch.keep();
  }
  std::string clone = scratch.path() + "/workspace";

  // Plan from the head's own workflow file, with the same plugins the image carries.
  auto head = make_clone(request.repository, request.head, HistoryShape::kShallow, clone);
  if (!head) {
    if (head.error().rule == "review-source") {
      std::cerr << "reviewer review: " << report::printable(head.error().message) << '\n';
      return report::to_int(ExitCode::kUsage);
    }
    return host_failure(head.error());
  }
  std::cout << "review: " << report::printable(request.repository) << " at " << *head << ", job "
            << request.job << " of " << request.workflow << " into " << request.base << '\n';
  auto registry = plugins::Registry::open(util::plugin_directory());
  if (!registry) {
    return refused(registry.refusals(), "", "");
  }
  // --pinned-only: the reference spec's rule (reviewed SHAs only), applied where the review
  // is planned before any sandbox; a plan refused here never reaches the launcher.
  const CommittedFiles files(clone);
  const plan::PlanRequest plan_request{request.workflow,
                                       request.job,
                                       request.base,
                                       assignment->matrix_choice,
                                       request.pinned_only,
                                       &files,
                                       assignment->event_facts,
                                       request.same_repository};
  auto text = committed_workflow(clone, request.workflow, yaml::Bounds{}.max_bytes + 1);
  if (!text) {
    return refused(text.refusals(), "", "");
  }
  auto planned = plan::plan_text(*text, plan_request, *registry);
  if (!planned) {
    return refused(planned.refusals(), request.workflow, *text);
  }
  const plan::Plan& plan = *planned;

  // One clone serves every job of the closure, and the planner refused mixed shapes.
  if (plan::jobs_with_steps(plan.jobs).front()->fetch_depth == 0) {
    std::error_code ec;
    fs::remove_all(clone, ec);
    auto full = make_clone(request.repository, *head, HistoryShape::kFull, clone);
    if (!full) {
      return host_failure(full.error());
    }
    std::cout << "review: full history (fetch-depth: 0)\n";
  }

  const std::vector<resolve::Pin> pins = plan::resolver_pins(plan);
  const std::string matrix_path = util::data_directory() + "/runtime-matrix.json";
  auto matrix = resolve::load_matrix(matrix_path);
  if (!matrix) {
    return host_failure(matrix.error());
  }
  auto resolved = resolve::resolve(clone, *matrix, pins);
  if (!resolved) {
    return refused(resolved.refusals(), "", "");
  }
  const auto& resolution = *resolved;
  auto image_id = (*engine)->image_id(resolution.image);
  if (!image_id) {
    return host_failure(image_id.error());
  }
  for (const auto& note : resolution.notes) {
    std::cout << "review: " << report::printable(note) << '\n';
  }
  for (const auto& pin : plan.pins) {
    if (!pin.asked.empty()) {
      std::cout << "review: " << pin.runtime << " '" << report::printable(pin.asked) << "' at "
                << pin.location.to_string() << " is taken as " << pin.runtime << " " << pin.version
                << ": without check-latest, CI's setup-node takes the runner's "
                << "cached release of that line first (docs/resolver.md, \"The runner's tool "
                   "cache\")\n";
    }
  }
  std::cout << "review: image " << resolution.image << " (" << *image_id << ")";
  for (const auto& [runtime, version] : resolution.runtimes) {
    std::cout << ", " << runtime << ' ' << version;
  }
  std::cout << ", engine " << (*engine)->name() << std::endl;

  // The reports always come out: the host checks report.json's attestation with the verdict's.
  const std::string reports_dir = request.reports_dir.empty()
                                      ? scratch.path() + "/reports"
                                      : fs::absolute(request.reports_dir).string();
  // Without --reports they go to the scratch directory, which must exist to receive them.
  if (std::error_code ec; !fs::create_directories(reports_dir, ec) && ec) {
    return host_failure({"host-command", "cannot make " + reports_dir, std::nullopt});
  }
  // The fetch phase, before the review's sandbox exists: only package.json and the lock file are
  // read, and every tarball is verified against the lock before the review may see it.
  const SandboxLimits limits{request.pids_limit, request.memory_limit, request.cpu_limit};
  // The resolved lock goes only where the user asked for reports: the scratch directory is
  // removed with the review.
  FetchPhaseRequest fetch_request;
  fetch_request.worktree = clone;
  fetch_request.scratch = scratch.path();
  fetch_request.store_dir = request.store_dir;
  fetch_request.reports_dir = request.reports_dir.empty() ? "" : reports_dir;
  fetch_request.image = resolution.image;
  fetch_request.limits = limits;
  if (fetch_request.store_dir.empty()) {
    fetch_request.store_dir = default_store_dir();
  }
  fetch_request.package_managers = package_manager_pins(plan, resolution);
  fetch_request.project_dirs = project_dirs(plan);
  fetch_request.global_installs = global_npm_installs(plan);
  fetch_request.options.registry = request.registry;
  fetch_request.options.max_total_bytes = request.max_dependency_bytes;
  auto dependency_view = fetch_phase(fetch_request, **engine);
  if (!dependency_view) {
    if (is_host_side(dependency_view.error())) {
      return host_failure(dependency_view.error());
    }
    return refused(dependency_view.refusals(), "", "");
  }

  // The clone is the pristine copy every job's worktree starts from (launch/fresh_worktree.h):
  // mounted read-only, beside an empty worktree that the engine gives the sandbox's user.
  const std::string worktree = scratch.path() + "/worktree";
  if (std::error_code ec; !fs::create_directory(worktree, ec)) {
    return host_failure({"host-command", "cannot make the worktree " + worktree, std::nullopt});
  }
  std::int64_t seconds = host_margin_seconds();
  // A called workflow's jobs each have their own time limit; the job calling them has none.
  for (const plan::PlannedJob* job : plan::jobs_with_steps(plan.jobs)) {
    seconds += job->timeout_minutes * 60;
  }
  SandboxSpec spec;
  spec.image = resolution.image;
  spec.workspace = worktree;
  spec.pristine = clone;
  spec.workflow = request.workflow;
  spec.job = request.job;
  spec.base = request.base;
  spec.matrix = matrix_lines;
  spec.pinned_only = request.pinned_only;
  spec.event = assignment->event;
  spec.same_repository = request.same_repository;
  spec.limit = std::chrono::seconds(seconds);
  spec.reports_dir = reports_dir;
  spec.nonce = make_nonce();
  spec.dependencies = *dependency_view;
  spec.limits = limits;
  auto ran = (*engine)->run(spec);
  if (request.keep_clone) {
    std::cout << "review: the clone is kept at " << clone << ", the last job's worktree at "
              << worktree << '\n';
  }
  if (!ran) {
    return host_failure(ran.error());
  }
  if (ran->timed_out) {
    return say(ExitCode::kBuildFailed, "review-build-failed: host timeout: the launcher ran past " +
                                           std::to_string(seconds) + " seconds and was killed");
  }
  if (ran->status >= 0 && ran->status <= 4) {
    // The exit code alone is not the verdict: a step that killed the launcher, or outlived it,
    // could have written the reports and lines; only the launcher knew the nonce.
    launch::AttestedFacts expected{"",           request.workflow, request.job, request.base,
                                   matrix_lines, resolution.image, ""};
    const VerdictCheck check = check_verdict(
        ran->status, ran->last_line, spec.reports_dir + "/report.json", spec.nonce, expected);
    if (!check.trusted) {
      return say(ExitCode::kBuildFailed,
                 "review-build-failed: unattested verdict: " + report::printable(check.why));
    }
    std::cout << "review: the verdict is attested (HMAC-SHA256 keyed by this review's nonce)\n";
    std::cout << check.verdict << std::endl;  // the launcher's verdict, last, as it said it
    return ran->status;
  }
  if (ran->status >= 125 && ran->status <= 127) {  // the engine's own: could not exec
    return host_failure({"host-command",
                         (*engine)->name() + " could not run the launcher (status " +
                             std::to_string(ran->status) + ")",
                         std::nullopt});
  }
  return say(ExitCode::kBuildFailed, "review-build-failed: the launcher ended with status " +
                                         std::to_string(ran->status) + " without a verdict");
}

}  // namespace reviewer::host
