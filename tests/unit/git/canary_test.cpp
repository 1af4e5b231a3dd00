// The canaries are live (real git runs them) and the guards never run them.

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class CanaryTest : public GitFixture {};

TEST_F(CanaryTest, RealGitStatusRunsTheCanaries) {
  clone(1);
  arm_canaries();
  (void)sh_output(wt(), "git status --porcelain", home());
  EXPECT_TRUE(any_canary_ran()) << "the canary kit is not live; the no-execution tests prove "
                                   "nothing";
}

TEST_F(CanaryTest, NoGuardRunsTheCanaries) {
  clone(1);
  const Baseline b = pin();
  arm_canaries();
  const report::Refusals r = before(b, 1);
  // The kit writes .git/info/attributes too, which the git directory pin refuses.
  EXPECT_RULES(
      r, {std::string(kRuleConfigKey), std::string(kRuleHooks), std::string(kRuleGitDirChanged)});
  expect_nothing_executed(b, 1);
}

TEST_F(CanaryTest, FilterSelectedByATrackedAttributesFileDoesNotRun) {
  use_private_source();
  sh(src(),
     "printf '* filter=evil\\n' > .gitattributes && git add .gitattributes && "
     "git commit -qm attrs",
     home());
  clone(1);
  const Baseline b = pin();
  EXPECT_TRUE(before(b, 1).empty()) << describe(before(b, 1));
  expect_nothing_executed(b, 1);
}

}  // namespace
}  // namespace reviewer::git::testing
