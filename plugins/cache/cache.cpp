// actions/cache: skipped as a complete cache miss with no save, which is what a cold CI run
// restores, provided a miss cannot fail the step (fail-on-cache-miss false) and the keys pass the
// validation that fails the real step even when skipping would not. See README.md for the record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

#include "cache_keys.h"

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/cache",
                                      {
                                          {"27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"},
                                          {"668228422ae6a00e4ad889ee87cd7109ec5666a7", "v5.0.4"},
                                          {"cdf6c1fa76f9f475f3d7449005a359c84ca0f306", "v5.0.3"},
                                          {"8b402f58fbc84540c8b491a91e594a4576fec3d7", "v5.0.2"},
                                          {"9255dc7a253b0ccc959486e2bca901246202afeb", "v5.0.1"},
                                          {"a7833574556fa59680c1b7cb190c1735db73ebf0", "v5.0.0"},
                                          {"0057852bfaa89a56745cba8c7296529d2fc39830", "v4.3.0"},
                                      },
                                      "2026-11-30"};

// actions/cache reads its booleans as value.toLowerCase() === "true" (never failing).
// Every input is read with getInput, which trims it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("path", /*required=*/true),
    reviewer::sdk::any_value("key", /*required=*/true),  // validated below
    reviewer::sdk::any_value("restore-keys"),            // validated below
    reviewer::sdk::any_value("upload-chunk-size"),       // read only when saving
    reviewer::sdk::accepted("enableCrossOsArchive", &reviewer::sdk::is_loose_boolean,
                            "true or false"),
    reviewer::sdk::accepted("fail-on-cache-miss", &reviewer::sdk::is_loose_false,
                            "false (the review's skip is a miss, which would fail the step)"),
    reviewer::sdk::accepted("lookup-only", &reviewer::sdk::is_loose_boolean, "true or false"),
    reviewer::sdk::accepted("save-always", &reviewer::sdk::is_loose_boolean,
                            "true or false (deprecated, no effect)"),
});

// The checks restoreCache makes before it looks anything up: a failing one fails the CI step.
bool check_keys(const reviewer::sdk::StepView& step, const reviewer::sdk::PlanDecision& decision) {
  bool ok = true;
  std::size_t count = 0;
  if (auto key = step.inputs().find("key")) {
    ++count;
    std::string problem = cache_plugin::key_problem(reviewer::sdk::js::trim(key->value));
    if (!problem.empty()) {
      decision.refuse("cache-key-invalid", "actions/cache 'key' " + problem, key->location);
      ok = false;
    }
  }
  if (auto restore = step.inputs().find("restore-keys")) {
    auto lines = cache_plugin::restore_key_lines(restore->value);
    count += lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string problem = cache_plugin::key_problem(lines[i]);
      if (!problem.empty()) {
        decision.refuse(
            "cache-key-invalid",
            "actions/cache 'restore-keys' line " + std::to_string(i + 1) + " " + problem,
            restore->location);
        ok = false;
      }
    }
    if (count > cache_plugin::kMaxKeys) {
      decision.refuse("cache-too-many-keys",
                      "actions/cache has " + std::to_string(count) +
                          " keys (key and restore-keys); keys are limited to a maximum of 10",
                      restore->location);
      ok = false;
    }
  }
  return ok;
}

class Cache final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    ok = check_keys(step, decision) && ok;
    if (!ok) {
      return;
    }
    decision.skip("a cache miss: nothing is restored and nothing is saved, as in a cold CI run");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto key = step.inputs().find("key");
    services.log("actions/cache skipped as a cache miss for key '" +
                 std::string(key ? key->value : std::string_view()) +
                 "': nothing restored, nothing saved");
    // On a miss the action leaves `cache-hit` unset (restoreImpl.ts, actions/cache#1466), which
    // an expression reads as ''. Written empty, it reads the same; without it the launcher
    // would refuse the read as an output the plugin does not know (docs/fidelity.md).
    reviewer::sdk::RunRequest request;
    request.script = "echo 'cache-hit=' >> \"$GITHUB_OUTPUT\"\n";
    services.run_script(request);
  }
};

}  // namespace

REVIEWER_PLUGIN(Cache, kClaim);
