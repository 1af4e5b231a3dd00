// socketdev/action: reviewed refs are listed; which inputs keep a skip equivalent is not decided
// yet (issue 7), so every step is refused by name rather than approximated.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"937f824ec476dfd164d4a4d9995751427b0be143", "v1.3.0"},
    {"4337a545deecc20f19a909e52db7a2f6ba292f42", "v1.2.0"},
    {"5d96858722636452306752590794679d7a3d6083", "v1.1.7"},
};
constexpr reviewer_claim kClaims[] = {{"socketdev/action", kRefs, std::size(kRefs)}};

class SocketFirewall final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    decision.refuse("not-yet-supported",
                    "socketdev/action is not stood in for yet: its inputs have not been reviewed",
                    step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.fail("not-yet-supported", "socketdev/action cannot be executed");
  }
};

}  // namespace

REVIEWER_PLUGIN("socket-firewall", SocketFirewall, kClaims);
