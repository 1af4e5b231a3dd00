#include "core/exec/step_environment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::exec {
namespace {

using ::testing::Contains;
using ::testing::Not;

RunnerContext context() {
  return {"/workspace",
          "test",
          "main",
          ".github/workflows/ci.yml",
          {"/opt/reviewer/runtimes/bun/bin"},
          {"/tmp/review/b/0-test", "/tmp/review/b/0-test/home", "/tmp/review/b/0-test/tmp",
           "/tmp/review/b/0-test/cache", "/tmp/review/b/0-test/runner-temp"}};
}

StepFiles files() { return {"/s/output", "/s/env", "/s/path", "/s/summary"}; }

constexpr const char* kSfw = "/opt/reviewer/runtimes/sfw/bin";

TEST(StepEnvironment, IsBuiltFromTheAllowlistWithAFixedPath) {
  auto e = build_step_environment(context(), files(), {{"NODE_ENV", "test", {}}}, {},
                                  {"/workspace/node_modules/.bin"}, {{"FOO", "bar", {}}});
  ASSERT_TRUE(e.refusals.empty());
  EXPECT_THAT(e.entries, Contains("PATH=/workspace/node_modules/.bin:/opt/reviewer/runtimes/bun/"
                                  "bin:/usr/local/bin:/usr/bin:/bin"));
  EXPECT_THAT(e.entries, Contains("HOME=/tmp/review/b/0-test/home"));
  EXPECT_THAT(e.entries, Contains("TMPDIR=/tmp/review/b/0-test/tmp"));
  EXPECT_THAT(e.entries, Contains("CI=true"));
  EXPECT_THAT(e.entries, Contains("GITHUB_BASE_REF=main"));
  EXPECT_THAT(e.entries, Contains("GITHUB_ENV=/s/env"));
  EXPECT_THAT(e.entries, Contains("NODE_ENV=test"));
  EXPECT_THAT(e.entries, Contains("FOO=bar"));
  for (const auto& entry : e.entries) {
    EXPECT_FALSE(entry.starts_with("REVIEWER_")) << entry;
    EXPECT_THAT(entry, Not(::testing::HasSubstr("TOKEN"))) << entry;
  }
}

// Only the image's runtime dirs (image.json `path`) are on every step's PATH. A tool an action
// installs, such as SocketDev/action's sfw, is there only once a step put its directory in
// GITHUB_PATH, and then before everything else, the newest entry first, as on the runner.
TEST(StepEnvironment, PathIsGithubPathNewestFirstThenTheImageThenTheSystem) {
  auto before = build_step_environment(context(), files(), {}, {}, {}, {});
  EXPECT_THAT(before.entries,
              Contains("PATH=/opt/reviewer/runtimes/bun/bin:/usr/local/bin:/usr/bin:/bin"));
  auto after = build_step_environment(context(), files(), {}, {}, {"/w/bin", kSfw}, {});
  EXPECT_THAT(after.entries, Contains("PATH=/opt/reviewer/runtimes/sfw/bin:/w/bin:/opt/reviewer/"
                                      "runtimes/bun/bin:/usr/local/bin:/usr/bin:/bin"));
}

// Workflow, job and step env cannot set PATH (the launcher owns it): GITHUB_PATH is the only way
// onto it, so the image's PATH holds until a step writes there.
TEST(StepEnvironment, EnvCannotPutADirectoryOnPath) {
  auto e = build_step_environment(context(), files(), {{"PATH", kSfw, {}}}, {}, {},
                                  {{"PATH", kSfw, {}}});
  ASSERT_EQ(e.refusals.size(), 2u);
  EXPECT_EQ(e.refusals[0].rule, "launcher-owned-env");
  EXPECT_THAT(e.entries,
              Contains("PATH=/opt/reviewer/runtimes/bun/bin:/usr/local/bin:/usr/bin:/bin"));
}

TEST(StepEnvironment, LaterLevelsWinAndGithubEnvSitsBetweenJobAndStep) {
  auto e = build_step_environment(context(), files(), {{"A", "job", {}}, {"B", "job", {}}},
                                  {{"B", "github-env", {}}, {"C", "github-env", {}}}, {},
                                  {{"C", "step", {}}});
  EXPECT_THAT(e.entries, Contains("A=job"));
  EXPECT_THAT(e.entries, Contains("B=github-env"));
  EXPECT_THAT(e.entries, Contains("C=step"));
}

TEST(StepEnvironment, IsRecheckedRightBeforeTheSpawn) {
  auto e = build_step_environment(context(), files(), {{"SHELLOPTS", "noexec", {}}}, {}, {},
                                  {{"HOME", "/root", {}}});
  ASSERT_EQ(e.refusals.size(), 2u);
  EXPECT_EQ(e.refusals[0].rule, "config-redirecting-env");
  EXPECT_EQ(e.refusals[1].rule, "launcher-owned-env");
  EXPECT_THAT(e.entries, Not(Contains("SHELLOPTS=noexec")));
  EXPECT_THAT(e.entries, Contains("HOME=/tmp/review/b/0-test/home"));
}

// The package managers' settings (deps/provision/tool_settings.h) come in two lists: the
// defaults before the workflow's env, which may change them, and the settings after it, which
// stand whatever a workflow writes (the env policy refuses such a name as well).
TEST(StepEnvironment, ToolDefaultsComeBeforeTheWorkflowsEnvAndToolSettingsAfterIt) {
  RunnerContext ctx = context();
  ctx.tool_defaults = {{"TOOL_HOME", "/tmp/review/b/0-test/cache/tool"}, {"TOOL_MODE", "a"}};
  ctx.tool_settings = {{"TOOL_MODE", "b"}};
  auto e = build_step_environment(ctx, files(), {{"TOOL_HOME", "/elsewhere", {}}}, {}, {},
                                  {{"TOOL_MODE", "c", {}}});
  EXPECT_TRUE(e.refusals.empty());
  EXPECT_THAT(e.entries, Contains("TOOL_HOME=/elsewhere"));
  EXPECT_THAT(e.entries, Contains("TOOL_MODE=b"));
  auto plain = build_step_environment(context(), files(), {}, {}, {}, {});
  for (const auto& entry : plain.entries) {
    EXPECT_NE(entry.rfind("TOOL_", 0), 0u) << entry;
  }
}

}  // namespace
}  // namespace reviewer::exec
