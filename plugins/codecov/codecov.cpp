// codecov/codecov-action: skipped when the real step cannot fail the job and nothing it leaves
// behind can be seen: every upload error only warns (fail_ci_if_error false), no OIDC token is
// fetched, no Codecov token is passed, and the step is the last of its job (the action writes
// files, GITHUB_ENV variables and git config that later steps could see). See README.md for the
// review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <span>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"codecov/codecov-action",
                                      {
                                          {"671740ac38dd9b0130fbe1cec585b89eea48d3de", "v5.5.2"},
                                          {"5a1091511ad55cbe89839c7260b706298ca349f7", "v5.5.1"},
                                          {"fdcc8476540edceab3de004e990f80d881c6cc00", "v5.5.0"},
                                          {"b9fd7d16f6d7d1b5d2bec1a2887e65ceed900238", "v4.6.0"},
                                      },
                                      "2026-12-01"};

constexpr std::string_view kAction = "codecov/codecov-action";

// v4 is a JavaScript action (dist/index.js); v5 is a composite action around dist/codecov.sh.
bool is_v4(std::string_view tag) { return tag == "v4.6.0"; }
bool is_v5(std::string_view tag) { return !is_v4(tag); }

bool is_loose_boolean_or_empty(std::string_view v) {
  return v.empty() || reviewer::sdk::is_loose_boolean(v);
}
bool is_run_command(std::string_view v) {
  return v.empty() || v == "upload-coverage" || v == "empty-upload" || v == "pr-base-picking" ||
         v == "send-notifications";
}

constexpr std::string_view kBoolean = "true or false (any case)";

// Inputs that change only what is uploaded, how, or what is printed: any value keeps the step
// from failing, because v4 catches every error of the uploader and v5's codecov.sh turns each one
// into a warning unless fail_ci_if_error is true. Booleans are held to a clear true or false.
const std::array kInputs = std::array{
    reviewer::sdk::any_value("token"),              // checked below: only empty
    reviewer::sdk::any_value("fail_ci_if_error"),   // checked below
    reviewer::sdk::any_value("use_oidc"),           // checked below
    reviewer::sdk::any_value("working-directory"),  // checked below (v5)
    reviewer::sdk::any_value("codecov_yml_path"),
    reviewer::sdk::any_value("commit_parent"),
    reviewer::sdk::any_value("directory"),
    reviewer::sdk::accepted("disable_file_fixes", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("disable_search", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("disable_safe_directory", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("dry_run", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::any_value("env_vars"),
    reviewer::sdk::any_value("exclude"),
    reviewer::sdk::any_value("files"),
    reviewer::sdk::any_value("flags"),
    reviewer::sdk::any_value("git_service"),
    reviewer::sdk::accepted("handle_no_reports_found", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::any_value("job_code"),
    reviewer::sdk::any_value("name"),
    reviewer::sdk::any_value("network_filter"),
    reviewer::sdk::any_value("network_prefix"),
    reviewer::sdk::any_value("os"),
    reviewer::sdk::any_value("override_branch"),
    reviewer::sdk::any_value("override_build"),
    reviewer::sdk::any_value("override_build_url"),
    reviewer::sdk::any_value("override_commit"),
    reviewer::sdk::any_value("override_pr"),
    reviewer::sdk::any_value("plugins"),
    reviewer::sdk::any_value("report_code"),
    reviewer::sdk::any_value("root_dir"),
    reviewer::sdk::any_value("slug"),
    reviewer::sdk::any_value("url"),
    reviewer::sdk::accepted("use_legacy_upload_endpoint", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("verbose", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::any_value("version"),
    // v4.6.0 only.
    reviewer::sdk::only_at(reviewer::sdk::any_value("file"), &is_v4),
    reviewer::sdk::only_at(reviewer::sdk::any_value("plugin"), &is_v4),
    // v5.5.x only.
    reviewer::sdk::only_at(reviewer::sdk::any_value("base_sha"), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("binary"), &is_v5),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("disable_telem", &is_loose_boolean_or_empty, kBoolean), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::accepted("force", &is_loose_boolean_or_empty, kBoolean),
                           &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("gcov_args"), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("gcov_executable"), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("gcov_ignore"), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("gcov_include"), &is_v5),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("recurse_submodules", &is_loose_boolean_or_empty, kBoolean),
        &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("report_type"), &is_v5),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("run_command", &is_run_command,
                                "upload-coverage, empty-upload, pr-base-picking or "
                                "send-notifications"),
        &is_v5),
    // v5.5.2 pastes it into a `sh` script: only a plain boolean is known to keep that script whole.
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("skip_validation", &is_loose_boolean_or_empty, kBoolean), &is_v5),
    reviewer::sdk::only_at(reviewer::sdk::any_value("swift_project"), &is_v5),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("use_pypi", &is_loose_boolean_or_empty, kBoolean), &is_v5),
};
// v4 reads every input with core.getInput, which trims it; v5's composite steps paste
// `${{ inputs.x }}` as written, so there a value is checked as written.
const std::array kInputsV4 = reviewer::sdk::read_by_get_input(kInputs);

std::span<const reviewer::sdk::InputSpec> inputs_at(std::string_view tag) {
  if (is_v4(tag)) {
    return kInputsV4;
  }
  return kInputs;
}

std::string_view as_read(std::string_view value, std::string_view tag) {
  return is_v4(tag) ? reviewer::sdk::js::trim(value) : value;
}

// A value that both releases read as false: v4's isTrue() is false for it, v5's codecov.sh and
// its bash `== 'true'` tests do not take it as true, and it is written plainly enough to be sure
// the author meant false.
bool reads_false(std::string_view v) { return v.empty() || reviewer::sdk::is_loose_false(v); }

void check_false(const reviewer::sdk::StepView& step, std::string_view tag, std::string_view input,
                 std::string_view why, const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto entry = step.inputs().find(input);
  if (!entry || reads_false(as_read(entry->value, tag))) {
    return;
  }
  decision.refuse("invalid-input-value",
                  std::string(kAction) + " '" + std::string(input) + "' is '" +
                      reviewer::sdk::printable(entry->value) + "': " + std::string(why) +
                      "; accepted: false",
                  entry->location);
  ok = false;
}

// The token is never quoted in a message: a literal one is still a credential.
void check_token(const reviewer::sdk::StepView& step, std::string_view tag,
                 const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto token = step.inputs().find("token");
  // The run's GITHUB_TOKEN is check_inputs' to refuse: it is no literal credential.
  if (!token || as_read(token->value, tag).empty() || step.is_run_token("token")) {
    return;
  }
  decision.refuse("action-input-refused",
                  std::string(kAction) +
                      " input 'token' holds a non-empty value: a Codecov token is a credential and "
                      "the review has none (a fork pull request's ${{ secrets.CODECOV_TOKEN }} is "
                      "empty, and accepted)",
                  token->location);
  ok = false;
}

// v5 runs its composite steps with the runner's bash, which cannot start in a directory that does
// not exist when the step runs; whether it does is not visible to the plan.
void check_working_directory(const reviewer::sdk::StepView& step, std::string_view tag,
                             const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto wd = step.inputs().find("working-directory");
  if (!wd || wd->value.empty() || !is_v5(tag)) {
    return;
  }
  decision.refuse("invalid-input-value",
                  std::string(kAction) + " 'working-directory' is '" +
                      reviewer::sdk::printable(wd->value) +
                      "': the uploader step fails when that directory does not exist as it runs, "
                      "which the plan cannot see; accepted: empty (the worktree)",
                  wd->location);
  ok = false;
}

// v5's dist/codecov.sh reads CC_* variables the action itself does not set (CC_CLI_TYPE exits 1
// on an unknown value whatever fail_ci_if_error says; CC_TOKEN and CC_TOKEN_VAR are eval'ed).
void check_env(const reviewer::sdk::StepView& step, std::string_view tag,
               const reviewer::sdk::PlanDecision& decision, bool& ok) {
  if (!is_v5(tag)) {
    return;
  }
  for (const auto e : step.env()) {
    if (e.name.substr(0, 3) != "CC_") {
      continue;
    }
    decision.refuse("action-input-refused",
                    std::string(kAction) + " step env '" + reviewer::sdk::printable(e.name) +
                        "' steers the action's uploader script (dist/codecov.sh), which can then "
                        "fail the step or run other code; remove it",
                    e.location);
    ok = false;
  }
}

class Codecov final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, inputs_at(tag), decision, kClaim);
    check_false(step, tag, "fail_ci_if_error",
                "the real step then fails when the upload fails (no report found, Codecov "
                "unreachable or refusing the upload), which the review cannot reproduce",
                decision, ok);
    check_false(step, tag, "use_oidc",
                "the real step then asks for an OIDC token and fails when the job cannot get one "
                "(without id-token permission, as on a fork pull request)",
                decision, ok);
    check_token(step, tag, decision, ok);
    check_working_directory(step, tag, decision, ok);
    check_env(step, tag, decision, ok);
    if (step.index() + 1 < job.step_count()) {
      decision.refuse("coverage-upload-not-last",
                      std::string(kAction) + " is step " + std::to_string(step.index() + 1) +
                          " of " + std::to_string(job.step_count()) +
                          ": the real action leaves things the later steps can see (the "
                          "uploader's files, GITHUB_ENV variables, safe.directory in the global "
                          "git config), which the skip does not; make the upload the job's last "
                          "step",
                      step.uses_location());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.skip(
        "the coverage upload is not made; with fail_ci_if_error false the real step turns every "
        "upload error into a warning, and it is the job's last step");
  }

  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.log(
        "codecov/codecov-action skipped: no coverage is uploaded from the review; CI's step "
        "cannot fail on these inputs");
  }
};

}  // namespace

REVIEWER_PLUGIN(Codecov, kClaim);
