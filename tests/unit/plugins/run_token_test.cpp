// An input that is the run's GITHUB_TOKEN reaches a plugin flagged as such (SDK 1.7); a plugin
// built with an older SDK would read the expression as a literal value, so the host refuses the
// step for it without asking.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include <reviewer/sdk/abi.h>

#include "core/plugins/invoke.h"

namespace reviewer::plugins {
namespace {

using ::testing::HasSubstr;

// What the plugin saw: how many run-token inputs, and whether plan ran at all.
struct Seen {
  int plans = 0;
  std::size_t run_tokens = 0;
  std::string first;
};
Seen g_seen;

reviewer_action_handle create() { return reinterpret_cast<reviewer_action_handle>(&g_seen); }
void destroy(reviewer_action_handle) {}
void plan(reviewer_action_handle, const reviewer_step_view* step, const reviewer_job_context*,
          const reviewer_plan_sink* sink) {
  ++g_seen.plans;
  g_seen.run_tokens = step->run_token_input_count;
  if (step->run_token_input_count > 0) {
    g_seen.first.assign(step->run_token_inputs[0].data, step->run_token_inputs[0].size);
  }
  sink->skip(sink->host, {"ok", 2});
}

reviewer_plugin_descriptor descriptor(const char* sdk) {
  reviewer_plugin_descriptor d{};
  d.abi_version = REVIEWER_ABI_VERSION;
  d.struct_size = sizeof(d);
  d.sdk_version = sdk;
  d.name = "fake";
  d.create = &create;
  d.destroy = &destroy;
  d.plan = &plan;
  return d;
}

workflow::Step step_with_token() {
  workflow::Step s;
  s.job_id = "test";
  s.action = "test-org/fake";
  s.ref = "v1";
  s.inputs.push_back({"name", "x", {}});
  workflow::Entry token{"github-token", "${{ secrets.GITHUB_TOKEN }}", {}};
  token.run_token = true;
  s.inputs.push_back(token);
  return s;
}

TEST(RunToken, ReachesAPluginOfSdk17Flagged) {
  g_seen = {};
  const auto d = descriptor("1.7.0");
  PluginLibrary lib{"fake", "/nonexistent", &d, {}};
  const auto out = plan_step(lib, step_with_token(), JobInfo{"test", "ci.yml", 1});
  EXPECT_EQ(out.decision, PlanOutcome::Decision::kSkip);
  EXPECT_EQ(g_seen.plans, 1);
  EXPECT_EQ(g_seen.run_tokens, 1u);
  EXPECT_EQ(g_seen.first, "github-token");
}

TEST(RunToken, IsRefusedForAPluginOfAnOlderSdkWithoutAskingIt) {
  for (const char* sdk : {"1.6.0", "0.9.9", "garbage"}) {
    g_seen = {};
    const auto d = descriptor(sdk);
    PluginLibrary lib{"fake", "/nonexistent", &d, {}};
    const auto out = plan_step(lib, step_with_token(), JobInfo{"test", "ci.yml", 1});
    EXPECT_EQ(out.decision, PlanOutcome::Decision::kRefuse) << sdk;
    ASSERT_EQ(out.refusals.size(), 1u) << sdk;
    EXPECT_EQ(out.refusals[0].rule, "expression-value-unknown");
    EXPECT_THAT(out.refusals[0].message, HasSubstr("'github-token'"));
    EXPECT_EQ(g_seen.plans, 0) << sdk;
  }
}

TEST(RunToken, AnOlderPluginStillPlansStepsWithoutIt) {
  g_seen = {};
  const auto d = descriptor("1.6.0");
  PluginLibrary lib{"fake", "/nonexistent", &d, {}};
  workflow::Step s = step_with_token();
  s.inputs.pop_back();
  const auto out = plan_step(lib, s, JobInfo{"test", "ci.yml", 1});
  EXPECT_EQ(out.decision, PlanOutcome::Decision::kSkip);
  EXPECT_EQ(g_seen.run_tokens, 0u);
}

}  // namespace
}  // namespace reviewer::plugins
