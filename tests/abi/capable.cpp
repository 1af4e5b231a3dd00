// A well-formed plugin whose one claim, ACTION_ID, holds CAPABILITIES (abi.h's bits) and whose plan
// asserts FETCH_DEPTH: for the core's rules that read a claim's capabilities, never an action's
// name, and for the refusal of capabilities no claim may hold.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer::sdk::Claim kClaim{ACTION_ID,
                                      {{"0123456789abcdef0123456789abcdef01234567", "v1.0.0"}},
                                      "2026-12-01",
                                      CAPABILITIES};

class Capable final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.assert_fetch_depth(FETCH_DEPTH);
    d.skip("nothing to do");
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};

}  // namespace

REVIEWER_PLUGIN(Capable, kClaim);
