// Claims an action with a short SHA: a plugin must list full 40-hex commit SHAs.
#include <reviewer/sdk/plugin.hpp>

namespace {
constexpr reviewer::sdk::Claim kClaim{"test-org/bad-claim", {{"0123456", "v1"}}};
class BadClaim final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.run();
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};
}  // namespace

REVIEWER_PLUGIN(BadClaim, kClaim);
