// actions/cache: reviewed refs are listed; which inputs keep a skip equivalent is not decided
// yet (issue 7), so every step is refused by name rather than approximated.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"},
    {"668228422ae6a00e4ad889ee87cd7109ec5666a7", "v5.0.4"},
    {"cdf6c1fa76f9f475f3d7449005a359c84ca0f306", "v5.0.3"},
    {"8b402f58fbc84540c8b491a91e594a4576fec3d7", "v5.0.2"},
    {"9255dc7a253b0ccc959486e2bca901246202afeb", "v5.0.1"},
    {"a7833574556fa59680c1b7cb190c1735db73ebf0", "v5.0.0"},
    {"0057852bfaa89a56745cba8c7296529d2fc39830", "v4.3.0"},
    {"0400d5f644dc74513175e3cd8d07132dd4860809", "v4.2.4"},
    {"5a3ec84eff668545956fd18022155c47e93e2684", "v4.2.3"},
};
constexpr reviewer_claim kClaims[] = {{"actions/cache", kRefs, std::size(kRefs)}};

class Cache final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    decision.refuse("not-yet-supported",
                    "actions/cache is not stood in for yet: its inputs have not been reviewed",
                    step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.fail("not-yet-supported", "actions/cache cannot be executed");
  }
};

}  // namespace

REVIEWER_PLUGIN("cache", Cache, kClaims);
