// The job rules that once named actions/checkout read a claim's capabilities instead: plugins
// under other names (tests/abi/capable.cpp) show that the core knows no action by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/report/render.h"
#include "tests/unit/plugins/plugin_dir.h"

namespace reviewer::plan {
namespace {

using ::testing::HasSubstr;

constexpr const char* kSha = "@0123456789abcdef0123456789abcdef01234567";

class Capabilities : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.add("capable_checkout");
    dir_.add("capable_before");
    dir_.write_manifest();
    auto loaded = plugins::Registry::load(dir_.path());
    ASSERT_TRUE(loaded.ok()) << report::to_text(loaded.error());
    registry_.emplace(std::move(*loaded));
  }

  // The job's steps are `uses:` of these actions, in order.
  util::Result<Plan> plan(std::initializer_list<std::string> actions) {
    std::string text =
        "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n";
    for (const auto& a : actions) {
      text += a == "run" ? "      - run: make\n" : "      - uses: " + a + kSha + "\n";
    }
    return plan_text(text, {".github/workflows/ci.yml", "build", "main"}, *registry_);
  }

  plugins::PluginDir dir_;
  std::optional<plugins::Registry> registry_;
};

TEST_F(Capabilities, AStepClaimingCheckoutBeginsAJobAndSetsItsFetchDepth) {
  auto planned = plan({"test-org/checkout", "test-org/before"});
  ASSERT_TRUE(planned.ok()) << report::to_text(planned.error());
  // capable_checkout asserts 0; capable_before asserts 7, which no job takes from a step that
  // does not check out.
  EXPECT_EQ(planned->jobs.front().fetch_depth, 0);
}

TEST_F(Capabilities, StepsClaimingBeforeCheckoutMayComeFirst) {
  auto planned = plan({"test-org/before", "test-org/before", "test-org/checkout"});
  ASSERT_TRUE(planned.ok()) << report::to_text(planned.error());
  EXPECT_EQ(planned->jobs.front().fetch_depth, 0);
}

TEST_F(Capabilities, AnyOtherStepBeforeTheCheckoutIsRefusedAndNamesTheCheckouts) {
  for (const auto& steps : {std::initializer_list<std::string>{"run", "test-org/checkout"},
                            {"test-org/before", "run", "test-org/checkout"}}) {
    auto planned = plan(steps);
    ASSERT_FALSE(planned.ok());
    EXPECT_EQ(planned.error().rule, "first-step-not-checkout");
    EXPECT_THAT(planned.error().message,
                HasSubstr("job 'build' must begin with a checkout (test-org/checkout), as the "
                          "host's clone stands in for it"));
  }
}

TEST(CapabilityClaims, BitsNoSdkDefinesAndACheckoutBeforeTheCheckoutAreRefused) {
  const struct {
    const char* plugin;
    const char* message;
  } cases[] = {
      {"capable_unknown", "action 'test-org/unknown' claims capability bits no SDK defines (4)"},
      {"capable_both",
       "action 'test-org/both' claims both checkout and before-checkout: a checkout writes the "
       "worktree"},
  };
  for (const auto& c : cases) {
    plugins::PluginDir dir;
    dir.add(c.plugin);
    dir.write_manifest();
    auto loaded = plugins::Registry::load(dir.path());
    ASSERT_FALSE(loaded.ok()) << c.plugin;
    EXPECT_EQ(loaded.error().rule, "plugin-invalid-claim");
    EXPECT_EQ(loaded.error().message, c.message);
  }
}

}  // namespace
}  // namespace reviewer::plan
