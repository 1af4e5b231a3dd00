// Dates its review record with something that is not a date: the plan would print it as one.
#include <reviewer/sdk/plugin.hpp>

namespace {
constexpr reviewer::sdk::Claim kClaim{
    "test-org/bad-date", {{"0123456789abcdef0123456789abcdef01234567", "v1.0.0"}}, "last week"};
class BadDate final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.run();
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};
}  // namespace

REVIEWER_PLUGIN(BadDate, kClaim);
