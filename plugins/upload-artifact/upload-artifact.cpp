// actions/upload-artifact: skipped, because an upload is a side effect outside the job that no
// later step of the review can observe, provided the real step cannot fail: a missing file only
// warns (if-no-files-found not `error`), the artifact name is valid and no other step of the
// workflow run may upload the same name, and every input holds a value the action accepts. See
// README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

#include "artifact_name.h"

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/upload-artifact",
                                      {
                                          {"bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"},
                                          {"b7c566a772e6b6bfb58ed0dc250532a479d7789f", "v6.0.0"},
                                          {"330a01c490aca151604b8cf639adc76d48f6c5d4", "v5.0.0"},
                                          {"ea165f8d65b6e75b540449e92b4886f43607fa02", "v4.6.2"},
                                      }};

namespace js = reviewer::sdk::js;
using upload_artifact_plugin::may_equal;
using upload_artifact_plugin::name_problem;
using upload_artifact_plugin::uploaded_name;

bool has_archive(std::string_view tag) { return tag == "v7.0.0"; }

const std::array kInputs = {
    reviewer::sdk::any_value("name"),                     // validated below
    reviewer::sdk::any_value("path", /*required=*/true),  // what CI finds there is never read
    reviewer::sdk::any_value("if-no-files-found"),        // validated below
    reviewer::sdk::any_value("retention-days"),           // validated below
    reviewer::sdk::any_value("compression-level"),        // validated below
    reviewer::sdk::strict_boolean("overwrite"),
    reviewer::sdk::strict_boolean("include-hidden-files"),
    reviewer::sdk::only_at(reviewer::sdk::strict_boolean("archive"), &has_archive),
};

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
  if (v == "warn" || v == "ignore") {
    return;
  }
  if (v == "error") {
    decision.refuse("invalid-input-value",
                    "actions/upload-artifact 'if-no-files-found' is 'error': CI fails when the "
                    "path matches nothing, which the review does not look at; accepted: warn, "
                    "ignore",
                    entry->location);
  } else {
    decision.refuse("failing-input-value",
                    "actions/upload-artifact 'if-no-files-found' is '" +
                        reviewer::sdk::printable(v) +
                        "', which fails the step (the options are case-sensitive); accepted: "
                        "warn, ignore",
                    entry->location);
  }
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
    decision.skip("artifact '" + *name +
                  "' is not uploaded; no later step can read it, and the real upload cannot "
                  "fail on these inputs");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto name = uploaded_name(step);
    services.log("actions/upload-artifact skipped: artifact '" + name.value_or("?") +
                 "' is not uploaded from the review");
  }
};

}  // namespace

REVIEWER_PLUGIN(UploadArtifact, kClaim);
