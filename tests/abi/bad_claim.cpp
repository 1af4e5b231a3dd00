// Claims an action with a short SHA: a plugin must list full 40-hex commit SHAs.
#include <reviewer/sdk/plugin.hpp>

namespace {
constexpr reviewer_reviewed_ref kRefs[] = {{"0123456", "v1"}};
constexpr reviewer_claim kClaims[] = {{"test-org/bad-claim", kRefs, 1}};
class BadClaim final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.run();
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};
}  // namespace

REVIEWER_PLUGIN("bad_claim", BadClaim, kClaims);
