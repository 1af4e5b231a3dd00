// actions/upload-artifact: emulated. The plan accepts a step whose name is valid and unique in the
// workflow run, whose `path` patterns the review's search follows exactly, and whose every input
// holds a value the action accepts; at build time the plugin finds the files as the action's
// search does (search.h) and hands them to the host's artifact store, from which a later
// actions/download-artifact step of the build restores them. See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

#include "artifact_name.h"
#include "search.h"

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/upload-artifact",
                                      {
                                          {"bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"},
                                          {"b7c566a772e6b6bfb58ed0dc250532a479d7789f", "v6.0.0"},
                                          {"330a01c490aca151604b8cf639adc76d48f6c5d4", "v5.0.0"},
                                          {"ea165f8d65b6e75b540449e92b4886f43607fa02", "v4.6.2"},
                                      },
                                      "2026-12-01"};

namespace js = reviewer::sdk::js;
using upload_artifact_plugin::may_equal;
using upload_artifact_plugin::name_problem;
using upload_artifact_plugin::uploaded_name;

bool has_archive(std::string_view tag) { return tag == "v7.0.0"; }

// Every input is read with getInput, which trims it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("name"),                     // validated below
    reviewer::sdk::any_value("path", /*required=*/true),  // what CI finds there is never read
    reviewer::sdk::any_value("if-no-files-found"),        // validated below
    reviewer::sdk::any_value("retention-days"),           // validated below
    reviewer::sdk::any_value("compression-level"),        // validated below
    reviewer::sdk::strict_boolean("overwrite"),
    reviewer::sdk::strict_boolean("include-hidden-files"),
    reviewer::sdk::only_at(reviewer::sdk::strict_boolean("archive"), &has_archive),
});

// Values parseInt reads the way CI does, checked as upload-artifact checks them: NaN fails the
// step (failing-input-value); the review accepts only plain whole numbers in range.
void check_number(const reviewer::sdk::StepView& step, std::string_view input, std::int64_t max,
                  bool fails_out_of_range, const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto entry = step.inputs().find(input);
  if (!entry) {
    return;
  }
  const std::string_view v = js::trim(entry->value);
  const auto parsed = js::parse_int(v);
  const std::string what = "actions/upload-artifact '" + std::string(input) + "' is '" +
                           reviewer::sdk::printable(entry->value) + "'";
  const std::string range = "0-" + std::to_string(max);
  bool plain =
      !v.empty() && v.size() <= 3 && v.find_first_not_of("0123456789") == std::string_view::npos;
  if (!parsed || (fails_out_of_range && (*parsed < 0 || *parsed > max))) {
    decision.refuse("failing-input-value", what + ", which fails the step; accepted: " + range,
                    entry->location);
    ok = false;
  } else if (!plain || *parsed > max) {
    decision.refuse("invalid-input-value", what + "; accepted: a whole number " + range,
                    entry->location);
    ok = false;
  }
}

void check_if_no_files_found(const reviewer::sdk::StepView& step,
                             const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto entry = step.inputs().find("if-no-files-found");
  if (!entry) {
    return;
  }
  const std::string_view v = js::trim(entry->value);
  if (v == "warn" || v == "ignore" || v == "error") {
    return;
  }
  decision.refuse("failing-input-value",
                  "actions/upload-artifact 'if-no-files-found' is '" + reviewer::sdk::printable(v) +
                      "', which fails the step (the options are case-sensitive); accepted: "
                      "warn, error, ignore",
                  entry->location);
  ok = false;
}

bool is_uploader(std::string_view action) {
  return action == "actions/upload-artifact" || action == "actions/upload-artifact/merge";
}

// Artifacts are immutable per name per workflow run: a second upload of a name fails, whichever
// job it is in and whatever order the jobs run in, so the name must be unique in the workflow.
void check_unique(const reviewer::sdk::StepView& step, const std::string& name,
                  const reviewer::sdk::JobContext& job, const reviewer::sdk::PlanDecision& decision,
                  bool& ok) {
  auto at = step.inputs().find("name");
  const reviewer::sdk::Location where = at ? at->location : step.uses_location();
  auto steps = job.workflow_steps();
  if (!steps) {
    decision.refuse("artifact-name-not-unique",
                    "the host gives no workflow-wide view, so artifact '" +
                        reviewer::sdk::printable(name) +
                        "' cannot be shown unique in the workflow run",
                    where);
    ok = false;
    return;
  }
  for (const auto other : *steps) {
    if (other.job_id() == step.job_id() && other.index() == step.index()) {
      continue;
    }
    if (!is_uploader(other.action())) {
      continue;
    }
    auto other_name = uploaded_name(other);
    if (other_name && !may_equal(*other_name, name)) {
      continue;
    }
    const auto loc = other.location();
    decision.refuse("artifact-name-not-unique",
                    "artifact '" + reviewer::sdk::printable(name) +
                        "' may also be uploaded by step " + std::to_string(other.index() + 1) +
                        " of job '" + std::string(other.job_id()) + "' (" + std::string(loc.file) +
                        ":" + std::to_string(loc.line) + ", " +
                        (other_name ? "named '" + reviewer::sdk::printable(*other_name) + "'"
                                    : std::string("named after its file")) +
                        "); a second upload of a name fails the step",
                    where);
    ok = false;
  }
}

// What the action's run() does: search, then the empty-result options, then the path checks of
// the zip specification, then the upload (here: into the host's store).
void upload(const reviewer::sdk::StepView& step, const reviewer::sdk::Services& services) {
  namespace ua = upload_artifact_plugin;
  using Status = reviewer::sdk::Services::ArtifactStatus;
  if (!services.has_artifact_services()) {
    services.fail("artifact-store-unavailable", "the host offers no artifact store (SDK 1.3)");
    return;
  }
  const std::string name = uploaded_name(step).value_or("artifact");
  const std::string path_input(js::trim(step.inputs().find("path")->value));
  auto hidden = step.inputs().find("include-hidden-files");
  const bool include_hidden = hidden && reviewer::sdk::is_strict_true(js::trim(hidden->value));
  const auto patterns = ua::parse_patterns(path_input);
  const auto roots = ua::search_paths(patterns);
  ua::Found found;
  for (const auto& root : roots) {
    std::vector<reviewer::sdk::Services::WorktreeEntry> entries;
    const Status walked = services.walk_worktree(root, entries);
    if (walked == Status::kRefused) {
      return;  // the host failed the step, naming why
    }
    std::vector<ua::Met> met;
    for (auto& e : entries) {
      met.push_back({std::move(e.path), static_cast<ua::Met::Kind>(e.kind)});
    }
    ua::search(patterns, root, met, include_hidden, found);
    if (found.link) {
      services.fail("artifact-link",
                    "'" + reviewer::sdk::printable(*found.link) +
                        "' is a symbolic link, which the real upload follows and the review does "
                        "not (it reads nothing outside the worktree)");
      return;
    }
  }
  if (found.files.empty()) {
    auto option = step.inputs().find("if-no-files-found");
    const std::string_view mode = option ? js::trim(option->value) : "warn";
    const std::string message = "No files were found with the provided path: " + path_input +
                                ". No artifacts will be uploaded.";
    if (mode == "error") {
      services.fail("artifact-no-files", message);
    } else {
      services.log((mode == "warn" ? "warning: " : "") + message);
    }
    return;
  }
  const std::string root = ua::artifact_root(roots, found.files);
  std::vector<reviewer::sdk::Services::ArtifactFile> files;
  for (const auto& f : found.files) {
    std::string inside = ua::path_inside(root, f);
    if (std::string problem = ua::file_path_problem(inside); !problem.empty()) {
      services.fail("artifact-file-name-invalid",
                    "the path for one of the files in artifact is not valid: /" +
                        reviewer::sdk::printable(inside) + " " + problem);
      return;
    }
    files.push_back({f, std::move(inside)});
  }
  if (services.store_artifact(name, files) == Status::kDone) {
    services.log("artifact '" + name +
                 "' uploaded to the review's store: " + std::to_string(files.size()) + " file" +
                 (files.size() == 1 ? "" : "s") + (root.empty() ? "" : " below " + root));
  }
}

class UploadArtifact final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    check_if_no_files_found(step, decision, ok);
    // `archive: false` names the artifact after the one file found and fails on more than one.
    if (auto archive = step.inputs().find("archive");
        archive && has_archive(tag) && reviewer::sdk::is_strict_false(archive->value)) {
      decision.refuse("invalid-input-value",
                      "actions/upload-artifact 'archive' is '" +
                          reviewer::sdk::printable(archive->value) +
                          "': the upload then fails on more than one file and is named after the "
                          "file, neither of which the plan can see; accepted: true",
                      archive->location);
      ok = false;
    }
    if (auto path = step.inputs().find("path")) {
      if (auto problem = upload_artifact_plugin::path_problem(js::trim(path->value))) {
        decision.refuse(problem->rule, problem->message, path->location);
        ok = false;
      }
    }
    check_number(step, "retention-days", 90, false, decision, ok);
    check_number(step, "compression-level", 9, true, decision, ok);
    auto name = uploaded_name(step);
    if (name) {
      if (std::string problem = name_problem(*name); !problem.empty()) {
        auto at = step.inputs().find("name");
        decision.refuse("artifact-name-invalid",
                        "actions/upload-artifact artifact name '" +
                            reviewer::sdk::printable(*name) + "' " + problem + "; the upload fails",
                        at ? at->location : step.uses_location());
        ok = false;
      } else {
        check_unique(step, *name, job, decision, ok);
      }
    }
    if (!ok || !name) {
      return;
    }
    decision.run();
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    upload(step, services);
  }
};

}  // namespace

REVIEWER_PLUGIN(UploadArtifact, kClaim);
