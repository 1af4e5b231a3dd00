// A template plugin: skips `example-org/hello@<reviewed sha>` when its one input is a literal
// greeting, and refuses anything else by name. Copy it, rename it, and follow
// docs/plugin-authoring.md.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"0123456789abcdef0123456789abcdef01234567", "v1.0.0"},
};
constexpr reviewer_claim kClaims[] = {{"example-org/hello", kRefs, 1}};

class Hello final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    bool refused = false;
    for (const auto& input : step.inputs()) {
      if (input.name != "greeting") {
        decision.refuse("unknown-action-input",
                        "example-org/hello has no input '" + std::string(input.name) + "'",
                        input.location);
        refused = true;
      }
    }
    if (!refused) decision.skip("hello only prints a greeting; nothing later depends on it");
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.log("hello: skipped");
  }
};

}  // namespace

REVIEWER_PLUGIN("hello", Hello, kClaims);
