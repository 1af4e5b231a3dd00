// oven-sh/setup-bun: skipped when the step asks for one exact bun version, which becomes a pin the
// resolver must satisfy and the launcher verifies against the image's bun, and no registry
// configuration (a bunfig.toml write) or download override is in play. See README.md for the
// review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <regex>
#include <string>

namespace {

// GitHub's runner images carry no Bun (actions/runner-images#9521: "decided not to add this
// tool"): `bun` works only after setup-bun core.addPath()s it. The image keeps its bun off every
// step's PATH (docker/run-model/stage-image.sh) at this fixed path, and the skip adds it through
// GITHUB_PATH, as core.addPath does, so a step that calls bun without setup-bun fails as on CI.
constexpr std::string_view kAddBunToPath =
    "printf '%s\\n' /opt/reviewer/runtimes/bun/bin >> \"$GITHUB_PATH\"\n";

constexpr reviewer::sdk::Claim kClaim{"oven-sh/setup-bun",
                                      {
                                          {"0c5077e51419868618aeaa5fe8019c62421857d6", "v2.2.0"},
                                          {"ecf28ddc73e819eb6fa29df6b34ef8921c743461", "v2.1.3"},
                                          {"3d267786b128fe76c2f16a390aa2448b815359f3", "v2.1.2"},
                                          {"db6bcf6eb8d88a8aa03265b887ec7bd84d64cd68", "v2.1.1"},
                                          {"b7a1c7ccf290d58743029c4f6903da283811b979", "v2.1.0"},
                                          {"735343b667d3e6f658f44d0eca948eb6282f2b76", "v2.0.2"},
                                          {"f4d14e03ff726c06358e5557344e1da148b56cf7", "v1.2.2"},
                                      }};

bool has_version_file(std::string_view tag) { return tag != "v1.2.2"; }
bool has_registries(std::string_view tag) {
  return tag == "v2.2.0" || tag == "v2.1.3" || tag == "v2.1.2" || tag == "v2.1.1" ||
         tag == "v2.1.0";
}
bool has_token(std::string_view tag) { return tag == "v2.2.0" || tag == "v2.1.3"; }

// "X.Y.Z" without leading zeros: one release. A "v" prefix, `latest`, `canary`, ranges and
// commit SHAs are all resolved by the action online.
bool is_exact(std::string_view v) {
  static const std::regex kExact(R"((0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))");
  return std::regex_match(v.begin(), v.end(), kExact);
}

constexpr const char* kRegistry = "it writes registry settings into bunfig.toml";

const std::array kInputs = {
    reviewer::sdk::any_value("bun-version"),  // checked below: it becomes the pin
    reviewer::sdk::only_at(
        reviewer::sdk::refused("bun-version-file",
                               "setup-bun reads it with its own rules and may fall back to "
                               "latest; write the exact version in 'bun-version' instead"),
        &has_version_file),
    reviewer::sdk::refused("bun-download-url", "the review has no network and downloads nothing"),
    reviewer::sdk::only_at(reviewer::sdk::refused("registries", kRegistry), &has_registries),
    reviewer::sdk::refused("registry-url", kRegistry),
    reviewer::sdk::refused("scope", kRegistry),
    reviewer::sdk::strict_boolean("no-cache"),
    reviewer::sdk::only_at(reviewer::sdk::refused("token", "the review has no credentials"),
                           &has_token),
};

class SetupBun final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    auto input = step.inputs().find("bun-version");
    if (!input || !is_exact(input->value)) {
      decision.refuse("runtime-version-not-exact",
                      input ? "oven-sh/setup-bun 'bun-version' is '" +
                                  reviewer::sdk::printable(input->value) +
                                  "'; only an exact X.Y.Z can be pinned"
                            : std::string("oven-sh/setup-bun has no 'bun-version': it would read "
                                          "package.json or install the latest bun; write an "
                                          "exact X.Y.Z"),
                      input ? input->location : step.uses_location());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.pin("bun", input->value, input->location);
    decision.skip("bun " + std::string(input->value) +
                  " goes on PATH for the job's later steps (pinned; the launcher verifies the "
                  "image's bun); no registry is configured");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto input = step.inputs().find("bun-version");
    services.log("oven-sh/setup-bun skipped: bun " +
                 std::string(input ? input->value : std::string_view("?")) +
                 " is the image's bun, pinned at plan time and verified by the launcher; it goes "
                 "on PATH for the later steps of this job");
    // The host records the script's outcome: if it fails, so does this step.
    reviewer::sdk::RunRequest request;
    request.script = kAddBunToPath;
    services.run_script(request);
  }
};

}  // namespace

REVIEWER_PLUGIN(SetupBun, kClaim);
