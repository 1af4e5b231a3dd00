// oven-sh/setup-bun: reviewed refs are listed; which inputs keep a skip equivalent is not decided
// yet (issue 7), so every step is refused by name rather than approximated.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"0c5077e51419868618aeaa5fe8019c62421857d6", "v2.2.0"},
    {"ecf28ddc73e819eb6fa29df6b34ef8921c743461", "v2.1.3"},
    {"3d267786b128fe76c2f16a390aa2448b815359f3", "v2.1.2"},
    {"db6bcf6eb8d88a8aa03265b887ec7bd84d64cd68", "v2.1.1"},
    {"b7a1c7ccf290d58743029c4f6903da283811b979", "v2.1.0"},
    {"735343b667d3e6f658f44d0eca948eb6282f2b76", "v2.0.2"},
    {"f4d14e03ff726c06358e5557344e1da148b56cf7", "v1.2.2"},
};
constexpr reviewer_claim kClaims[] = {{"oven-sh/setup-bun", kRefs, std::size(kRefs)}};

class SetupBun final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    decision.refuse("not-yet-supported",
                    "oven-sh/setup-bun is not stood in for yet: its inputs have not been reviewed",
                    step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.fail("not-yet-supported", "oven-sh/setup-bun cannot be executed");
  }
};

}  // namespace

REVIEWER_PLUGIN("setup-bun", SetupBun, kClaims);
