// actions/download-artifact: emulated. The plan accepts a download only when every step of the
// workflow that may upload what it asks for runs before it in the review as on GitHub (in a job
// this job needs, transitively, or earlier in this job), and refuses one that reaches outside
// the build (another run, another repository, artifact ids). At build time the plugin asks the
// host to restore the artifacts an earlier emulated upload stored, where the action puts them.
// See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <algorithm>
#include <array>
#include <string>

#include "artifact_name.h"
#include "artifact_pattern.h"

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/download-artifact",
                                      {
                                          {"3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"},
                                          {"37930b1c2abaa49bbe596cd826c3c89aef350131", "v7.0.0"},
                                          {"018cc2cf5baa6db3ef3c5f8a56943fffe632ef53", "v6.0.0"},
                                          {"634f93cb2916e3fdff6788551b99b062d0335ce0", "v5.0.0"},
                                          {"d3f86a106a0bac45b974a628896c90dbdf5c8093", "v4.3.0"},
                                      },
                                      "2026-12-01"};

namespace js = reviewer::sdk::js;
namespace dl = download_artifact_plugin;
using reviewer::sdk::printable;

bool is_v8(std::string_view tag) { return tag.starts_with("v8."); }

// Every input is read with getInput, which trims it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("name"),
    reviewer::sdk::any_value("path"),     // checked below
    reviewer::sdk::any_value("pattern"),  // checked below
    reviewer::sdk::strict_boolean("merge-multiple"),
    reviewer::sdk::refused("artifact-ids",
                           "artifact ids are given out by GitHub at upload time, so the plan "
                           "cannot know which artifacts they name; name the artifact instead"),
    reviewer::sdk::any_value("github-token"),  // artifact-from-another-run below
    reviewer::sdk::any_value("repository"),    // artifact-from-another-run below
    reviewer::sdk::any_value("run-id"),        // artifact-from-another-run below
    reviewer::sdk::only_at(reviewer::sdk::strict_boolean("skip-decompress"), &is_v8),
    reviewer::sdk::only_at(reviewer::sdk::any_value("digest-mismatch"), &is_v8),
});

std::string input(const reviewer::sdk::StepView& step, std::string_view name) {
  auto e = step.inputs().find(name);
  return e ? std::string(js::trim(e->value)) : std::string();
}

bool is_uploader(std::string_view action) {
  return action == "actions/upload-artifact" || action == "actions/upload-artifact/merge";
}

void check_other_run(const reviewer::sdk::StepView& step,
                     const reviewer::sdk::PlanDecision& decision, bool& ok) {
  for (const char* name : {"github-token", "repository", "run-id"}) {
    if (auto e = step.inputs().find(name)) {
      decision.refuse("artifact-from-another-run",
                      std::string("actions/download-artifact '") + name +
                          "' is given: with it the action reads artifacts of another workflow run "
                          "or repository through the API, which the review has no access to; "
                          "only artifacts uploaded earlier in this run are restored",
                      e->location);
      ok = false;
    }
  }
}

void check_v8(const reviewer::sdk::StepView& step, const reviewer::sdk::PlanDecision& decision,
              bool& ok) {
  if (auto e = step.inputs().find("skip-decompress");
      e && reviewer::sdk::is_strict_true(js::trim(e->value))) {
    decision.refuse("invalid-input-value",
                    "actions/download-artifact 'skip-decompress' is '" + printable(e->value) +
                        "': the action then writes the artifact's zip file, which the review "
                        "does not make; accepted: false",
                    e->location);
    ok = false;
  }
  if (auto e = step.inputs().find("digest-mismatch")) {
    const std::string_view v = js::trim(e->value);
    if (!v.empty() && v != "ignore" && v != "info" && v != "warn" && v != "error") {
      decision.refuse("failing-input-value",
                      "actions/download-artifact 'digest-mismatch' is '" + printable(v) +
                          "', which fails the step; accepted: ignore, info, warn, error",
                      e->location);
      ok = false;
    }
  }
}

void check_path_and_pattern(const reviewer::sdk::StepView& step,
                            const reviewer::sdk::PlanDecision& decision, bool& ok) {
  if (auto e = step.inputs().find("path"); e && !dl::destination(js::trim(e->value))) {
    decision.refuse("artifact-path-outside-worktree",
                    "actions/download-artifact 'path' is '" + printable(e->value) +
                        "', which leaves the workspace (absolute, '~' or '..'); the review "
                        "restores artifacts inside the worktree only: give a relative path",
                    e->location);
    ok = false;
  }
  auto pattern = step.inputs().find("pattern");
  if (pattern && input(step, "name").empty()) {
    if (std::string problem = dl::pattern_problem(js::trim(pattern->value)); !problem.empty()) {
      decision.refuse("artifact-pattern-unsupported",
                      "actions/download-artifact 'pattern' '" + printable(pattern->value) + "' " +
                          problem +
                          ", which the review's matching does not follow; accepted: "
                          "literal text with '*' and '?'",
                      pattern->location);
      ok = false;
    }
  }
}

// Whether upload step `up` may store what this download asks for: an artifact named `name`, one
// matching `pattern`, or any artifact at all.
bool may_supply(const reviewer::sdk::StepView& up, const std::string& name,
                const std::string& pattern) {
  auto uploaded = upload_artifact_plugin::uploaded_name(up);
  if (!uploaded) {
    return true;
  }
  if (!name.empty()) {
    return upload_artifact_plugin::may_equal(*uploaded, name);
  }
  if (pattern.empty() || uploaded->find("${{") != std::string::npos) {
    return true;
  }
  return dl::pattern_matches(pattern, *uploaded);
}

// GitHub lists every artifact of the run uploaded so far: the review may stand in only when
// every step that may upload a wanted artifact has finished before this one on GitHub as well.
void check_sources(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
                   const reviewer::sdk::PlanDecision& decision, bool& ok) {
  const std::string name = input(step, "name");
  const std::string pattern = input(step, "pattern");
  auto steps = job.workflow_steps();
  auto earlier = job.earlier_jobs();
  if (!steps || !earlier) {
    decision.refuse("artifact-outside-closure",
                    "the host does not say which steps run before this one, so where the "
                    "artifact comes from cannot be shown",
                    step.uses_location());
    ok = false;
    return;
  }
  const std::string wanted = !name.empty()      ? "artifact '" + printable(name) + "'"
                             : !pattern.empty() ? "artifacts matching '" + printable(pattern) + "'"
                                                : "every artifact of the run";
  int before = 0;
  for (const auto up : *steps) {
    if (!is_uploader(up.action()) || !may_supply(up, name, pattern)) {
      continue;
    }
    const bool earlier_job =
        std::find(earlier->begin(), earlier->end(), up.job_id()) != earlier->end();
    const bool earlier_step = up.job_id() == step.job_id() && up.index() < step.index();
    if (earlier_job || earlier_step) {
      ++before;
      continue;
    }
    const auto loc = up.location();
    decision.refuse("artifact-outside-closure",
                    wanted + " may be uploaded by step " + std::to_string(up.index() + 1) +
                        " of job '" + std::string(up.job_id()) + "' (" + std::string(loc.file) +
                        ":" + std::to_string(loc.line) +
                        "), which does not finish before this step on GitHub (job '" +
                        std::string(step.job_id()) +
                        "' does not need it, or it comes later); what GitHub would list depends on "
                        "timing the review does not reproduce",
                    step.uses_location());
    ok = false;
  }
  if (!name.empty() && before == 0 && ok) {
    decision.refuse("artifact-not-uploaded",
                    "no step of the workflow that runs before this one uploads artifact '" +
                        printable(name) +
                        "'; on GitHub it could only come from another run (or the step fails)",
                    step.inputs().find("name")->location);
    ok = false;
  }
}

class DownloadArtifact final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
            reviewer::sdk::PlanDecision& decision) override {
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    check_other_run(step, decision, ok);
    check_v8(step, decision, ok);
    check_path_and_pattern(step, decision, ok);
    if (ok) {
      check_sources(step, job, decision, ok);
    }
    if (ok) {
      decision.run();
    }
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    using Status = reviewer::sdk::Services::ArtifactStatus;
    if (!services.has_artifact_services()) {
      services.fail("artifact-store-unavailable", "the host offers no artifact store (SDK 1.3)");
      return;
    }
    const std::string dest = dl::destination(input(step, "path")).value_or("");
    const std::string name = input(step, "name");
    if (!name.empty()) {
      const Status r = services.restore_artifact(name, dest);
      if (r == Status::kMissing) {
        services.fail("artifact-not-found", "Artifact '" + printable(name) +
                                                "' not found: no earlier step of this build "
                                                "uploaded it (the real step fails the same way)");
      } else if (r == Status::kDone) {
        services.log("artifact '" + name + "' restored to " + (dest.empty() ? "." : dest));
      }
      return;
    }
    const std::string pattern = input(step, "pattern");
    std::vector<std::string> names;
    for (auto& n : services.list_artifacts().value_or(std::vector<std::string>{})) {
      if (pattern.empty() || dl::pattern_matches(pattern, n)) {
        names.push_back(std::move(n));
      }
    }
    auto merge = step.inputs().find("merge-multiple");
    // v5.0.0 added `artifacts.length === 1` to the conditions for downloading into `path` itself.
    const bool one_into_path = names.size() == 1 && kClaim.tag_of(step.ref()) != "v4.3.0";
    const bool together =
        (merge && reviewer::sdk::is_strict_true(js::trim(merge->value))) || one_into_path;
    for (const auto& n : names) {
      if (services.restore_artifact(n, together ? dest : dl::below(dest, n)) != Status::kDone) {
        return;
      }
    }
    services.log("Total of " + std::to_string(names.size()) + " artifact(s) downloaded");
  }
};

}  // namespace

REVIEWER_PLUGIN(DownloadArtifact, kClaim);
