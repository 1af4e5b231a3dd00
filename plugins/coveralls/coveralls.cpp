// coverallsapp/github-action: skipped when the real step cannot fail the job and nothing it leaves
// behind can be seen: `fail-on-error: false` (the default is true) makes the install script exit 0
// on its errors and passes --no-fail to the reporter, the inputs pasted into its bash command
// lines are plain words, the reporter runs on the x64 runner, and the step is the last of its job
// (the action puts ~/bin/coveralls on PATH for later steps). See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"coverallsapp/github-action",
                                      {
                                          {"8d6379e14d29928660c4ba802d8e85393440b329", "v2.3.8"},
                                          {"5cbfd81b66ca5d10c19b062c04de0199c215fb6e", "v2.3.7"},
                                      },
                                      "2026-12-01"};

constexpr std::string_view kAction = "coverallsapp/github-action";

bool is_loose_boolean_or_empty(std::string_view v) {
  return v.empty() || reviewer::sdk::is_loose_boolean(v);
}
bool is_loose_false_or_empty(std::string_view v) {
  return v.empty() || reviewer::sdk::is_loose_false(v);
}

// The action pastes these inputs, unquoted, into `coveralls report|done ...` in a
// `bash -eo pipefail` script. Plain words (letters, digits, `._/+,=@:%~*-`, spaces between them)
// stay arguments; any other character (quotes, `$`, `;`, `&`, `|`, `<`, `>`, backticks, brackets,
// a line break) can end the command or start another, and a word starting with `-` is parsed as
// an option, which the reporter rejects with exit 1 even under --no-fail. Empty is the default.
bool is_plain_words(std::string_view v) {
  // Only spaces: the action's `inputs.x && format('--x {0}', inputs.x)` still writes the option,
  // and bash drops its value.
  if (!v.empty() && v.find_first_not_of(' ') == std::string_view::npos) {
    return false;
  }
  bool word_start = true;
  for (char c : v) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("._/+,=@:%~*-").find(c) != std::string_view::npos;
    if (c == ' ') {
      word_start = true;
      continue;
    }
    if (!plain || (word_start && c == '-')) {
      return false;
    }
    word_start = false;
  }
  return true;
}

bool is_exact_false(std::string_view v) { return v == "false"; }

constexpr std::string_view kBoolean = "true or false (any case)";
constexpr std::string_view kWords =
    "plain words of letters, digits and ._/+,=@:%~*- (none starting with -): the action pastes "
    "the value into the reporter's bash command line, where other characters can fail the step";

const std::array kInputs = {
    // The install script compares `[ "<fail-on-error>" == "false" ]` in bash (case-sensitive,
    // untrimmed), so only the exact `false` keeps its download and checksum errors from failing
    // the step; the action.yml default is 'true'.
    reviewer::sdk::defaults_to(
        reviewer::sdk::accepted("fail-on-error", &is_exact_false,
                                "false (exactly): otherwise the real step fails when the install "
                                "or the upload fails (Coveralls unreachable, no coverage file, no "
                                "repo token on a fork), which the review cannot reproduce"),
        "true"),
    // Checked below: empty, or the run's GITHUB_TOKEN, which with fail-on-error false cannot
    // change the outcome and is never handed to anything by the skip.
    reviewer::sdk::or_run_token(reviewer::sdk::any_value("github-token")),
    reviewer::sdk::any_value("coverage-reporter-version"),   // checked below
    reviewer::sdk::any_value("coverage-reporter-platform"),  // checked below
    // `--debug` makes the reporter re-raise unexpected errors, which then fail the step even
    // with --no-fail.
    reviewer::sdk::accepted("debug", &is_loose_false_or_empty,
                            "false (with --debug the reporter re-raises unexpected errors, "
                            "which fail the step even when fail-on-error is false)"),
    reviewer::sdk::accepted("measure", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("allow-empty", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("parallel", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("parallel-finished", &is_loose_boolean_or_empty, kBoolean),
    reviewer::sdk::accepted("file", &is_plain_words, kWords),
    reviewer::sdk::accepted("path-to-lcov", &is_plain_words, kWords),
    reviewer::sdk::accepted("files", &is_plain_words, kWords),
    reviewer::sdk::accepted("format", &is_plain_words, kWords),
    reviewer::sdk::accepted("base-path", &is_plain_words, kWords),
    reviewer::sdk::accepted("build-number", &is_plain_words, kWords),
    // Passed to the reporter in its environment, never through a shell: any value.
    reviewer::sdk::any_value("flag-name"),
    reviewer::sdk::any_value("carryforward"),
    reviewer::sdk::any_value("coveralls-endpoint"),
    reviewer::sdk::any_value("git-branch"),
    reviewer::sdk::any_value("git-commit"),
    reviewer::sdk::any_value("compare-ref"),
    reviewer::sdk::any_value("compare-sha"),
};

// The token is never quoted in a message: a literal one is still a credential.
void check_token(const reviewer::sdk::StepView& step, const reviewer::sdk::PlanDecision& decision,
                 bool& ok) {
  auto token = step.inputs().find("github-token");
  if (!token || token->value.empty() || step.is_run_token("github-token")) {
    return;
  }
  decision.refuse("action-input-refused",
                  std::string(kAction) +
                      " input 'github-token' holds a non-empty value: a repo token is a "
                      "credential and the review has none",
                  token->location);
  ok = false;
}

// A release that does not exist downloads GitHub's "Not Found" page as the checksum file; the
// script's `grep` for the asset then fails under `bash -e -o pipefail`, whatever fail-on-error
// says, and the review cannot look the release up.
void check_reporter(const reviewer::sdk::StepView& step,
                    const reviewer::sdk::PlanDecision& decision, bool& ok) {
  if (auto v = step.inputs().find("coverage-reporter-version");
      v && !v->value.empty() && v->value != "latest") {
    decision.refuse("invalid-input-value",
                    std::string(kAction) + " 'coverage-reporter-version' is '" +
                        reviewer::sdk::printable(v->value) +
                        "': a release that does not exist fails the install step whatever "
                        "fail-on-error says, and the review cannot look it up; accepted: latest",
                    v->location);
    ok = false;
  }
  auto p = step.inputs().find("coverage-reporter-platform");
  if (!p || p->value.empty() || p->value == "auto-detect" || p->value == "x86_64") {
    return;
  }
  const std::string what = std::string(kAction) + " 'coverage-reporter-platform' is '" +
                           reviewer::sdk::printable(p->value) + "'";
  if (p->value == "aarch64" || p->value == "arm64") {
    decision.refuse("failing-input-value",
                    what +
                        ": the arm64 reporter cannot execute on CI's x64 runner, which fails the "
                        "report step; accepted: auto-detect, x86_64",
                    p->location);
  } else {
    decision.refuse("invalid-input-value",
                    what + ", which the action only warns about; accepted: auto-detect, x86_64",
                    p->location);
  }
  ok = false;
}

class Coveralls final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
            reviewer::sdk::PlanDecision& decision) override {
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    check_token(step, decision, ok);
    check_reporter(step, decision, ok);
    if (step.index() + 1 < job.step_count()) {
      decision.refuse("coverage-upload-not-last",
                      std::string(kAction) + " is step " + std::to_string(step.index() + 1) +
                          " of " + std::to_string(job.step_count()) +
                          ": the real action puts ~/bin/coveralls on PATH for the later steps, "
                          "which the skip does not; make the upload the job's last step",
                      step.uses_location());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.skip(
        "the coverage report is not sent; with fail-on-error false the real step exits 0 on "
        "every install and upload error, and it is the job's last step");
  }

  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.log(
        "coverallsapp/github-action skipped: no coverage is sent from the review; CI's step "
        "cannot fail on these inputs");
  }
};

}  // namespace

REVIEWER_PLUGIN(Coveralls, kClaim);
