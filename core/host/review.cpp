#include "core/host/review.h"

#include <filesystem>
#include <iostream>
#include <optional>

#include "core/contract/assignment.h"
#include "core/deps/dependencies.h"
#include "core/exec/host_process.h"
#include "core/host/clone.h"
#include "core/host/engine.h"
#include "core/host/host_identity.h"
#include "core/host/interruption.h"
#include "core/host/leftovers.h"
#include "core/host/review_sandbox.h"
#include "core/host/review_state.h"
#include "core/plan/event_facts.h"
#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/report/source_excerpt.h"
#include "core/resolve/resolver.h"
#include "core/util/install_layout.h"
#include "core/yaml/bounded_loader.h"  // Bounds

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;

util::Result<std::unique_ptr<Engine>> choose_engine(const ReviewRequest& r) {
  std::string engine = r.engine;
  if (engine.empty()) {
    engine = exec::command_output({"sh", "-c", "command -v podman"}) ? "podman" : "namespaces";
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

// A phase ends the review with an exit code, having said why; nullopt lets the next one run.
using Phase = std::optional<int> (*)(ReviewState&);

// The assignment the sandbox is to carry, checked as the launcher will check it.
std::optional<int> validate_assignment(ReviewState& r) {
  const ReviewRequest& request = r.request;
  contract::Assignment asked = request.assignment;
  if (!request.event_file.empty()) {
    auto facts = plan::read_event_file(request.event_file, asked.base);
    if (!facts) {
      return say_usage(report::printable(facts.error().to_string()));
    }
    asked.event = plan::event_facts_json(*facts);
  }
  auto assignment = contract::check_assignment(std::move(asked));
  if (!assignment || assignment->job.empty() || assignment->base.empty()) {
    return say_usage(assignment ? "--job and --base must not be empty"
                                : report::printable(assignment.error().to_string()));
  }
  r.assignment = std::move(*assignment);
  return std::nullopt;
}

// Whatever of the request can be refused before anything is cloned.
std::optional<int> validate(ReviewState& r) {
  const ReviewRequest& request = r.request;
  if (auto ended = validate_assignment(r)) {
    return ended;
  }
  auto engine = choose_engine(request);
  if (!engine) {
    return say_usage(engine.error().message);
  }
  r.engine = std::move(*engine);
  // What reviews killed outright (SIGKILL) left on this host goes first.
  for (const auto& line :
       collect_leftovers(r.engine->name() == "podman" ? util::data_directory() + "/engine.sh" : "",
                         review_temp_dir())) {
    std::cout << "review: " << line << '\n';
  }
  if (!request.reports_dir.empty()) {
    std::error_code ec;
    fs::create_directories(request.reports_dir, ec);
    if (!fs::is_directory(request.reports_dir, ec)) {
      return say_usage("--reports " + request.reports_dir + " is not a directory that can be made");
    }
  }
  if (!deps::valid_registry(request.registry)) {
    return say_usage("--registry \"" + report::printable(request.registry) +
                     "\" is not an https URL ending in '/'");
  }
  return std::nullopt;
}

// A shallow clone of the head, in a scratch directory of its own, to plan from.
std::optional<int> clone_head(ReviewState& r) {
  const ReviewRequest& request = r.request;
  r.scratch.emplace();
  if (r.scratch->path().empty()) {
    return say_host_failure({"host-command", "cannot make a scratch directory", std::nullopt});
  }
  if (request.keep_clone) {
    r.scratch->keep();
  }
  r.clone = r.scratch->path() + "/workspace";
  auto head = make_clone(request.repository, request.head, HistoryShape::kShallow, r.clone);
  if (!head) {
    if (head.error().kind == util::RefusalKind::kSource) {
      return say_usage(report::printable(head.error().message));
    }
    return say_host_failure(head.error());
  }
  r.head = std::move(*head);
  std::cout << "review: " << report::printable(request.repository) << " at " << r.head << ", job "
            << r.assignment->job << " of " << r.assignment->workflow << " into "
            << r.assignment->base << '\n';
  return std::nullopt;
}

// Plan from the head's own workflow file, with the same plugins the image carries.
std::optional<int> plan_review(ReviewState& r) {
  auto registry = plugins::Registry::open(util::plugin_directory());
  if (!registry) {
    return say_refused(registry.refusals(), "", "");
  }
  r.registry = std::move(*registry);
  // --pinned-only: the reference spec's rule (reviewed SHAs only), applied where the review
  // is planned before any sandbox; a plan refused here never reaches the launcher.
  const CommittedFiles files(r.clone);
  const contract::Assignment& assigned = *r.assignment;
  const plan::PlanRequest plan_request = contract::plan_request(assigned, &files);
  auto text = committed_workflow(r.clone, assigned.workflow, yaml::Bounds{}.max_bytes + 1);
  if (!text) {
    return say_refused(text.refusals(), "", "");
  }
  auto planned = plan::plan_text(*text, plan_request, *r.registry);
  if (!planned) {
    return say_refused(planned.refusals(), assigned.workflow, *text);
  }
  r.plan = std::move(*planned);
  return std::nullopt;
}

// One clone serves every job of the closure, and the planner refused mixed shapes.
std::optional<int> clone_history(ReviewState& r) {
  if (plan::jobs_with_steps(r.plan->jobs).front()->fetch_depth != 0) {
    return std::nullopt;
  }
  std::error_code ec;
  fs::remove_all(r.clone, ec);
  auto full = make_clone(r.request.repository, r.head, HistoryShape::kFull, r.clone);
  if (!full) {
    return say_host_failure(full.error());
  }
  std::cout << "review: full history (fetch-depth: 0)\n";
  return std::nullopt;
}

// What the resolution chose, and why where CI's choice could differ.
void say_resolution(const ReviewState& r) {
  const resolve::Resolution& resolution = *r.resolution;
  for (const auto& note : resolution.notes) {
    std::cout << "review: " << report::printable(note) << '\n';
  }
  for (const auto& pin : r.plan->pins) {
    if (!pin.asked.empty()) {
      std::cout << "review: " << pin.runtime << " '" << report::printable(pin.asked) << "' at "
                << pin.location.to_string() << " is taken as " << pin.runtime << " " << pin.version
                << ": without check-latest, CI's setup-node takes the runner's "
                << "cached release of that line first (docs/resolver.md, \"The runner's tool "
                   "cache\")\n";
    }
  }
  std::cout << "review: image " << resolution.image << " (" << r.image_id << ")";
  for (const auto& [runtime, version] : resolution.runtimes) {
    std::cout << ", " << runtime << ' ' << version;
  }
  std::cout << ", engine " << r.engine->name() << std::endl;
}

// The one matrix image the worktree and the plan's pins select, as this host's engine has it.
std::optional<int> resolve_image(ReviewState& r) {
  const std::vector<resolve::Pin> pins = plan::resolver_pins(*r.plan);
  const std::string matrix_path = util::data_directory() + "/runtime-matrix.json";
  auto matrix = resolve::load_runtime_table(matrix_path);
  if (!matrix) {
    return say_host_failure(matrix.error());
  }
  auto resolved = resolve::resolve(r.clone, *matrix, pins);
  if (!resolved) {
    return say_refused(resolved.refusals(), "", "");
  }
  r.resolution = std::move(*resolved);
  auto image_id = r.engine->image_id(r.resolution->image);
  if (!image_id) {
    return say_host_failure(image_id.error());
  }
  r.image_id = std::move(*image_id);
  say_resolution(r);
  return std::nullopt;
}

}  // namespace

int review(const ReviewRequest& request) {
  // Before any thread: a TERM, INT or HUP from here on removes what the review holds.
  handle_interruptions();
  // What names this review's sandboxes and clone on the host (leftovers.h).
  std::cout << "review: host process " << this_process_identity() << '\n';
  ReviewState r(request);
  for (const Phase phase : {validate, clone_head, plan_review, clone_history, resolve_image,
                            fetch_dependencies, run_sandbox}) {
    if (auto ended = phase(r)) {
      return *ended;
    }
  }
  return verify_verdict(r);
}

}  // namespace reviewer::host
