// A template plugin: skips `example-org/hello@<reviewed sha>` when its inputs keep the skip
// equivalent to running the action, and refuses anything else by name. Copy this folder, rename
// it, and follow docs/plugin-authoring.md; README.md is the review record, fixtures/ the proof.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

namespace {

// 1. What the plugin claims, once: the action id, lower-case (the core compares ids lower-cased),
//    and its reviewed refs: full commit SHAs, each with the release tag it was confirmed against.
//    The plugin's name is its CMake target's (reviewer_add_plugin), never written here.
constexpr reviewer::sdk::Claim kClaim{"example-org/hello",
                                      {
                                          {"0123456789abcdef0123456789abcdef01234567", "v1.0.0"},
                                      }};

bool is_greeting(std::string_view v) { return v == "hello" || v == "hi"; }

// 2. Every input the action has at the reviewed releases, and which values keep the skip
//    equivalent. An input missing from this list is refused as unknown-action-input.
const std::array kInputs = {
    reviewer::sdk::accepted("greeting", &is_greeting, "hello or hi", /*required=*/true),
    reviewer::sdk::strict_boolean("shout"),  // read with getBooleanInput: `yes` fails the step
    reviewer::sdk::refused("token", "the review has no credentials"),
    reviewer::sdk::any_value("to"),  // refused below, under the plugin's own rule
};

// 3. A refusal the core's catalogue (docs/refusals.md) has no rule for gets a rule of the
//    plugin's own, with its catalogue entry: `reviewer explain` prints it and SARIF links it.
constexpr reviewer::sdk::Rule kRules[] = {
    {"hello-sends-greeting",
     "example-org/hello sends the greeting to the address in `to` over the network. The review "
     "has no network, so whether the real step reaches that address cannot be told, and the "
     "step is not skipped.\n\nRemove `to` from the step, or run it only on `push`."},
};

class Hello final : public reviewer::sdk::Action {
 public:
  // 4. Plan: refuse every reason there is, or skip saying what the skip asserts. check_inputs
  //    works out the reviewed release from the step's ref and the claim.
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    if (!reviewer::sdk::check_inputs(step, kInputs, decision, kClaim)) {
      return;
    }
    if (auto to = step.inputs().find("to")) {
      decision.refuse("hello-sends-greeting",
                      "example-org/hello sends the greeting to '" +
                          reviewer::sdk::printable(to->value) + "', which the review cannot reach",
                      to->location);
      return;
    }
    decision.skip("hello only prints a greeting; nothing later depends on it");
  }
  // 5. Execute: verify what the skip asserted if the host can observe it; otherwise log.
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.log("example-org/hello skipped: it only prints a greeting");
  }
};

}  // namespace

REVIEWER_PLUGIN_WITH_RULES(Hello, kClaim, kRules);
