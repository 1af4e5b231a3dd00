// The plan decides, once, which plugin runs each step and whether it runs after a failure; the
// launcher reads both from the plan (core/launch/job_loop.cpp) and never looks them up again.
#include <gtest/gtest.h>

#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

TEST(StepGate, ThePlanCarriesEachStepsPluginAndCondition) {
  const std::string text =
      std::string("on: pull_request\njobs:\n  build:\n") +
      "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + testing::kCheckout +
      "\n      - run: make\n"
      "      - run: make report\n        if: ${{ always() }}\n"
      "      - run: make check\n        if: success()\n";
  auto result = plan_text(text, {".github/workflows/ci.yml", "build", "main"}, testing::registry());
  ASSERT_TRUE(result) << report::to_text(result.error());
  const auto& steps = result->jobs.at(0).steps;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].plugin, testing::registry().find("actions/checkout"));
  EXPECT_EQ(steps[1].plugin, testing::registry().find("run"));
  EXPECT_EQ(steps[1].plugin->name, "run");
  using K = Condition::Kind;
  EXPECT_EQ(steps[0].condition.kind, K::kSuccess);
  EXPECT_EQ(steps[1].condition.kind, K::kSuccess);
  EXPECT_EQ(steps[2].condition.kind, K::kExpression);
  EXPECT_EQ(steps[2].condition.expression, "always()");
  EXPECT_EQ(steps[3].condition.kind, K::kExpression);
  EXPECT_EQ(steps[3].condition.expression, "success()");
}

}  // namespace
}  // namespace reviewer::plan
