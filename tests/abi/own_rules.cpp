// A well-formed plugin claiming ACTION_ID that refuses every step under RULE_ID and gives that
// rule the catalogue entry RULE_TEXT (SDK 1.11), or none with RULE_WITHOUT_ENTRY: for the checks
// the host makes of a plugin's own rules (their ids and texts, a core rule taken, one rule given by
// two plugins) and for the commands that show them.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer::sdk::Claim kClaim{
    ACTION_ID, {{"0123456789abcdef0123456789abcdef01234567", "v1.0.0"}}, "2026-12-06"};

#if defined(RULE_WITHOUT_ENTRY)
#elif defined(RULE_TEXT_CLEARS_THE_SCREEN)
constexpr reviewer::sdk::Rule kRules[] = {{RULE_ID, "\x1b[2Jcleared"}};
#else
constexpr reviewer::sdk::Rule kRules[] = {{RULE_ID, RULE_TEXT}};
#endif

class OwnRules final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.refuse(RULE_ID, "refused under the plugin's own rule", step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};

}  // namespace

#ifdef RULE_WITHOUT_ENTRY
REVIEWER_PLUGIN(OwnRules, kClaim);
#else
REVIEWER_PLUGIN_WITH_RULES(OwnRules, kClaim, kRules);
#endif
