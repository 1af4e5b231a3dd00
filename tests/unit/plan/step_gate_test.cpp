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

// The launcher opens the plugin directory through its index: planning a workflow verifies and
// loads the plugins its steps use and no other.
TEST(StepGate, PlanningLoadsOnlyThePluginsTheStepsUse) {
  auto opened = plugins::Registry::open(REVIEWER_BINARY_DIR "/plugins");
  ASSERT_TRUE(opened) << report::to_text(opened.error());
  EXPECT_EQ(opened->size(), 12u);
  EXPECT_TRUE(opened->loaded().empty());
  const std::string text =
      std::string("on: pull_request\njobs:\n  build:\n") +
      "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + testing::kCheckout +
      "\n      - run: make\n";
  auto result = plan_text(text, {".github/workflows/ci.yml", "build", "main"}, *opened);
  ASSERT_TRUE(result) << report::to_text(result.error());
  std::vector<std::string> names;
  for (const auto* p : opened->loaded()) {
    names.push_back(p->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"checkout", "run"}));
  EXPECT_EQ(result->jobs.at(0).steps[0].plugin, opened->find("actions/checkout"));
}

TEST(StepGate, AnUnreviewedRefIsRefusedWithoutLoadingThePlugin) {
  auto opened = plugins::Registry::open(REVIEWER_BINARY_DIR "/plugins");
  ASSERT_TRUE(opened);
  const std::string text =
      std::string("on: pull_request\njobs:\n  build:\n") +
      "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + testing::kCheckout +
      "\n      - uses: actions/cache@v0.0.1\n";
  auto result = plan_text(text, {".github/workflows/ci.yml", "build", "main"}, *opened);
  ASSERT_FALSE(result);
  std::vector<std::string> rules;
  for (const auto& r : result.refusals()) {
    rules.push_back(r.rule);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{"unreviewed-action-ref"}));
  ASSERT_EQ(opened->loaded().size(), 1u);
  EXPECT_EQ(opened->loaded()[0]->name, "checkout");
}

}  // namespace
}  // namespace reviewer::plan
