// Throws from plan() and execute(): the SDK must turn both into values at the boundary.
#include <reviewer/sdk/plugin.hpp>

#include <stdexcept>

namespace {
constexpr reviewer::sdk::Claim kClaim{"test-org/throws",
                                      {{"89abcdef0123456789abcdef0123456789abcdef", "v1.0.0"}}};
class Throws final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision&) override {
    throw std::runtime_error("plan exploded");
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {
    throw std::runtime_error("execute exploded");
  }
};
}  // namespace

REVIEWER_PLUGIN(Throws, kClaim);
