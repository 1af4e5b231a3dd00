// actions/setup-node: reviewed refs are listed; which inputs keep a skip equivalent is not decided
// yet (issue 7), so every step is refused by name rather than approximated.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"820762786026740c76f36085b0efc47a31fe5020", "v7.0.0"},
    {"249970729cb0ef3589644e2896645e5dc5ba9c38", "v6.5.0"},
    {"48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e", "v6.4.0"},
    {"53b83947a5a98c8d113130e565377fae1a50d02f", "v6.3.0"},
    {"6044e13b5dc448c55e2357c09f80417699197238", "v6.2.0"},
    {"395ad3262231945c25e8478fd5baf05154b1d79f", "v6.1.0"},
    {"2028fbc5c25fe9cf00d9f06a71cc4710d4507903", "v6.0.0"},
    {"a0853c24544627f65ddf259abe73b1d18a591444", "v5.0.0"},
    {"49933ea5288caeca8642d1e84afbd3f7d6820020", "v4.4.0"},
};
constexpr reviewer_claim kClaims[] = {{"actions/setup-node", kRefs, std::size(kRefs)}};

class SetupNode final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    decision.refuse("not-yet-supported",
                    "actions/setup-node is not stood in for yet: its inputs have not been reviewed",
                    step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.fail("not-yet-supported", "actions/setup-node cannot be executed");
  }
};

}  // namespace

REVIEWER_PLUGIN("setup-node", SetupNode, kClaims);
