// SocketDev/action: skipped in the free firewall mode without a Socket token. The action only
// installs the `sfw` wrapper that later steps call (`sfw npm ci`); the review image carries an
// `sfw` that runs its arguments unwrapped, and the skipped step puts it on PATH for the job's
// later steps as the action does (docs/fidelity.md, "Socket Firewall", says what that loses).
// See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <cctype>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"socketdev/action",
                                      {
                                          {"937f824ec476dfd164d4a4d9995751427b0be143", "v1.3.0"},
                                          {"4337a545deecc20f19a909e52db7a2f6ba292f42", "v1.2.0"},
                                      },
                                      "2026-11-30"};  // v1.1.7 (5d968587) is a confirmed tag, but
                                                      // its action.yml inputs are not on record.
// Action ids are compared lower-cased: `SocketDev/action` is claimed as "socketdev/action".

bool has_patch_inputs(std::string_view tag) { return tag == "v1.3.0"; }

// The action lower-cases job-summary before it reads it.
bool is_job_summary(std::string_view v) {
  using reviewer::sdk::equals_ignoring_case;
  return equals_ignoring_case(v, "all") || equals_ignoring_case(v, "errors") ||
         equals_ignoring_case(v, "none") || equals_ignoring_case(v, "true") ||
         equals_ignoring_case(v, "false");
}
bool is_latest(std::string_view v) { return v == "latest"; }

// The action core.addPath()s the directory it downloaded sfw to, so sfw exists only for the job's
// later steps; a step that calls it without the action fails with "command not found" on CI.
// The image therefore keeps its sfw off every step's PATH (docker/run-model/stage-image.sh) at
// this fixed path, and the skip adds it through GITHUB_PATH, as core.addPath does.
constexpr std::string_view kAddSfwToPath =
    "printf '%s\\n' /opt/reviewer/runtimes/sfw/bin >> \"$GITHUB_PATH\"\n";

constexpr const char* kPatch = "it belongs to patch mode, which changes the worktree";
constexpr const char* kToken = "the review has no credentials";

// Every input is read with getInput or getBooleanInput (src/main.js at both releases).
const std::array kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("mode", /*required=*/true),  // validated below
    reviewer::sdk::refused("github-token", kToken),
    reviewer::sdk::refused("socket-token",
                           "with a token the action installs the enterprise firewall, and the "
                           "review has no credentials"),
    reviewer::sdk::strict_boolean("use-cache"),
    reviewer::sdk::accepted("job-summary", &is_job_summary,
                            "all, errors, none, true or false, in any case"),
    reviewer::sdk::accepted("firewall-version", &is_latest,
                            "latest (another version may not exist, which fails the step, and "
                            "the review cannot look it up)"),
    reviewer::sdk::only_at(reviewer::sdk::refused("patch-version", kPatch), &has_patch_inputs),
    reviewer::sdk::only_at(reviewer::sdk::refused("patch-ecosystems", kPatch), &has_patch_inputs),
    reviewer::sdk::only_at(reviewer::sdk::strict_boolean("patch-dry-run"), &has_patch_inputs),
    reviewer::sdk::only_at(reviewer::sdk::refused("patch-cwd", kPatch), &has_patch_inputs),
});

// `mode` is lower-cased by the action; `firewall` without a socket-token is the free edition.
// Patch mode exists from v1.3; before, like `cli` at every release, it is an unsupported mode.
void check_mode(const reviewer::sdk::StepView& step, std::string_view tag,
                const reviewer::sdk::PlanDecision& decision, bool& ok) {
  auto mode = step.inputs().find("mode");
  if (!mode || reviewer::sdk::js::trim(mode->value).empty()) {
    return;  // missing-required-input
  }
  std::string m(reviewer::sdk::js::trim(mode->value));
  for (auto& c : m) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (m == "firewall" || m == "firewall-free") {
    return;
  }
  ok = false;
  const std::string what =
      "SocketDev/action 'mode' is '" + reviewer::sdk::printable(mode->value) + "'";
  if (m == "firewall-enterprise" || (m == "patch" && has_patch_inputs(tag))) {
    decision.refuse("invalid-input-value",
                    what +
                        (m == "patch" ? ": patch mode rewrites dependencies in the worktree"
                                      : ": the enterprise firewall needs a Socket token") +
                        "; accepted: firewall, firewall-free",
                    mode->location);
  } else {
    decision.refuse("failing-input-value",
                    what +
                        ", which the action rejects (Unsupported mode); accepted: firewall, "
                        "firewall-free",
                    mode->location);
  }
}

class SocketFirewall final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    check_mode(step, tag, decision, ok);
    if (!ok) {
      return;
    }
    decision.skip(
        "the image's sfw stands in for the free Socket Firewall: the step puts it on PATH for "
        "the job's later steps, and it runs its arguments unwrapped, without blocking packages "
        "(docs/fidelity.md, Socket Firewall)");
  }

  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.log(
        "SocketDev/action skipped: the image's sfw goes on PATH for the later steps of this "
        "job, where `sfw ...` runs its command unwrapped (the review has no network, so nothing "
        "is fetched to block)");
    // The host records the script's outcome: if it fails, so does this step.
    reviewer::sdk::RunRequest request;
    request.script = kAddSfwToPath;
    services.run_script(request);
  }
};

}  // namespace

REVIEWER_PLUGIN(SocketFirewall, kClaim);
