// actions/setup-node: skipped when the step asks for one exact node version, which becomes a pin
// the resolver must satisfy and the launcher verifies against the image's node, and when nothing
// else the step does (registry auth files, package caches, mirrors) is in play. See README.md for
// the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <regex>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/setup-node",
                                      {
                                          {"820762786026740c76f36085b0efc47a31fe5020", "v7.0.0"},
                                          {"249970729cb0ef3589644e2896645e5dc5ba9c38", "v6.5.0"},
                                          {"48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e", "v6.4.0"},
                                          {"53b83947a5a98c8d113130e565377fae1a50d02f", "v6.3.0"},
                                          {"6044e13b5dc448c55e2357c09f80417699197238", "v6.2.0"},
                                          {"395ad3262231945c25e8478fd5baf05154b1d79f", "v6.1.0"},
                                          {"2028fbc5c25fe9cf00d9f06a71cc4710d4507903", "v6.0.0"},
                                          {"a0853c24544627f65ddf259abe73b1d18a591444", "v5.0.0"},
                                          {"49933ea5288caeca8642d1e84afbd3f7d6820020", "v4.4.0"},
                                      }};

// always-auth was removed in v6; package-manager-cache (automatic caching) arrived in v5.
bool has_always_auth(std::string_view tag) { return tag == "v5.0.0" || tag == "v4.4.0"; }
bool has_package_manager_cache(std::string_view tag) { return tag != "v4.4.0"; }

bool is_x64(std::string_view v) { return v == "x64"; }

// "X.Y.Z" with an optional "v", without leading zeros: one version, nothing to resolve.
std::optional<std::string> exact_version(std::string_view v) {
  static const std::regex kExact(R"(v?((0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(v.begin(), v.end(), m, kExact)) {
    return std::nullopt;
  }
  return m[1].str();
}

constexpr const char* kCache =
    "a cold run fails the step when no lock file is found, and the plan cannot see the "
    "worktree; remove it (see plugins/setup-node/README.md)";

const std::array kInputs = {
    reviewer::sdk::any_value("node-version"),  // checked below: it becomes the pin
    reviewer::sdk::refused("node-version-file",
                           "setup-node reads it with its own rules (ranges, aliases); write the "
                           "exact version in 'node-version' instead"),
    reviewer::sdk::accepted("architecture", &is_x64, "x64 (the image's node)"),
    reviewer::sdk::accepted("check-latest", &reviewer::sdk::is_loose_false,
                            "false (true looks for a newer release online)"),
    reviewer::sdk::refused("registry-url", "it writes an .npmrc with registry authentication"),
    reviewer::sdk::any_value("scope"),  // read only together with registry-url
    reviewer::sdk::only_at(reviewer::sdk::any_value("always-auth"), &has_always_auth),
    reviewer::sdk::refused("token", "the review has no credentials"),
    reviewer::sdk::refused("cache", kCache),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("package-manager-cache", &reviewer::sdk::is_loose_false,
                                "false (automatic caching fails a cold run "
                                "without a lock file)"),
        &has_package_manager_cache),
    reviewer::sdk::any_value("cache-dependency-path"),  // read only when caching
    reviewer::sdk::refused("mirror", "the review has no network and downloads nothing"),
    reviewer::sdk::refused("mirror-token", "the review has no credentials"),
};

class SetupNode final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    // From v5 the action caches on its own unless told not to; v6+ only when package.json names
    // npm, which the plan cannot see.
    if (has_package_manager_cache(tag) && !step.inputs().find("package-manager-cache")) {
      decision.refuse("setup-node-auto-cache",
                      "actions/setup-node " + std::string(tag) +
                          " caches automatically when package.json names npm as its package "
                          "manager, and a cold run without a lock file fails the step; add "
                          "'package-manager-cache: false'",
                      step.uses_location());
      ok = false;
    }
    auto input = step.inputs().find("node-version");
    std::optional<std::string> version;
    if (input) {
      version = exact_version(input->value);
    }
    if (!version) {
      decision.refuse("runtime-version-not-exact",
                      input ? "actions/setup-node 'node-version' is '" +
                                  reviewer::sdk::printable(input->value) +
                                  "'; only an exact X.Y.Z (optionally with 'v') can be pinned"
                            : std::string("actions/setup-node has no 'node-version': it would use "
                                          "the runner's preinstalled node; write an exact X.Y.Z"),
                      input ? input->location : step.uses_location());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.pin("node", *version, input->location);
    decision.skip("node " + *version +
                  " is on PATH (pinned; the launcher verifies the image's node); no registry, "
                  "cache or mirror is configured");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto input = step.inputs().find("node-version");
    services.log("actions/setup-node skipped: node " +
                 std::string(input ? input->value : std::string_view("?")) +
                 " is the image's node, pinned at plan time and verified by the launcher");
  }
};

}  // namespace

REVIEWER_PLUGIN(SetupNode, kClaim);
