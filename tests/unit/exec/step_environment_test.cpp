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
           "/tmp/review/b/0-test/cache", "/tmp/review/b/0-test/runner-temp"},
          "",
          ""};
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

// With a dependency view mounted, npm reads the lock's tarballs from it by integrity, offline,
// and keeps its log in the job's own cache; without one, npm's cache is the job's own.
TEST(StepEnvironment, PointsNpmAtTheDependencyViewOnlyWhenOneIsMounted) {
  auto plain = build_step_environment(context(), files(), {}, {}, {}, {});
  EXPECT_THAT(plain.entries, Contains("npm_config_cache=/tmp/review/b/0-test/cache/npm"));
  EXPECT_THAT(plain.entries, Not(Contains("npm_config_offline=true")));
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  auto e = build_step_environment(ctx, files(), {}, {}, {}, {});
  EXPECT_THAT(e.entries, Contains("npm_config_cache=/var/cache/reviewer-deps"));
  EXPECT_THAT(e.entries, Contains("npm_config_offline=true"));
  EXPECT_THAT(e.entries, Contains("npm_config_logs_dir=/tmp/review/b/0-test/cache/npm/_logs"));
}

// A workflow cannot point npm back at the network or at another cache: the names are the
// launcher's, in any case.
TEST(StepEnvironment, NpmSettingsOfTheViewAreLauncherOwned) {
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  auto e = build_step_environment(
      ctx, files(), {{"npm_config_offline", "false", {}}, {"NPM_CONFIG_CACHE", "/tmp/x", {}}},
      {{"npm_config_logs_dir", "/workspace", {}}}, {}, {});
  ASSERT_EQ(e.refusals.size(), 3u);
  for (const auto& r : e.refusals) {
    EXPECT_EQ(r.rule, "launcher-owned-env") << r.message;
  }
  EXPECT_THAT(e.entries, Contains("npm_config_offline=true"));
  EXPECT_THAT(e.entries, Contains("npm_config_cache=/var/cache/reviewer-deps"));
}

// pnpm reads the view as a file: registry only when the host placed one; a workflow cannot
// point it back at the network.
TEST(StepEnvironment, PointsPnpmAtTheViewsRegistryOnlyWhenOneIsMounted) {
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  auto npm_only = build_step_environment(ctx, files(), {}, {}, {}, {});
  for (const auto& entry : npm_only.entries) {
    EXPECT_NE(entry.rfind("npm_config_registry=", 0), 0u) << entry;
  }
  ctx.dependency_registry = "file:///var/cache/reviewer-deps/registry/";
  auto e = build_step_environment(
      ctx, files(), {{"NPM_CONFIG_REGISTRY", "https://registry.npmjs.org/", {}}}, {}, {}, {});
  ASSERT_EQ(e.refusals.size(), 1u);
  EXPECT_EQ(e.refusals[0].rule, "launcher-owned-env");
  EXPECT_THAT(e.entries, Contains("npm_config_registry=file:///var/cache/reviewer-deps/registry/"));
  EXPECT_THAT(e.entries, Contains("npm_config_offline=true"));
}

// A plan of pnpm 8 names the loopback in npm_config_registry
// (deps/provision/npm_config_registry.h); pnpm 8 reads npm_config_offline as well and would then
// fetch nothing, so it is left unset.
TEST(StepEnvironment, WithTheLoopbackAsNpmsRegistryOfflineIsLeftUnset) {
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  ctx.dependency_registry = "http://127.0.0.1:40123/";
  ctx.http_registry = "http://127.0.0.1:40123/";
  auto e = build_step_environment(ctx, files(), {}, {}, {}, {});
  EXPECT_THAT(e.entries, Contains("npm_config_registry=http://127.0.0.1:40123/"));
  EXPECT_THAT(e.entries, Contains("npm_config_cache=/var/cache/reviewer-deps"));
  EXPECT_THAT(e.entries, Not(Contains("npm_config_offline=true")));
}

// pnpm 11 and later read the view through the loopback registry, named only when one runs; a
// workflow cannot point them elsewhere. pnpm 10 keeps the file: registry.
TEST(StepEnvironment, PointsPnpm11AndYarn2AtTheLoopbackRegistryOnlyWhenOneRuns) {
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  ctx.dependency_registry = "file:///var/cache/reviewer-deps/registry/";
  auto none = build_step_environment(ctx, files(), {}, {}, {}, {});
  for (const auto& entry : none.entries) {
    EXPECT_NE(entry.rfind("pnpm_config_", 0), 0u) << entry;
    EXPECT_NE(entry.rfind("YARN_NPM_", 0), 0u) << entry;
    EXPECT_NE(entry.rfind("YARN_UNSAFE_", 0), 0u) << entry;
  }
  ctx.http_registry = "http://127.0.0.1:40123/";
  auto e = build_step_environment(ctx, files(),
                                  {{"PNPM_CONFIG_REGISTRY", "https://registry.npmjs.org/", {}},
                                   {"pnpm_config_registry", "https://registry.npmjs.org/", {}},
                                   {"YARN_NPM_REGISTRY_SERVER", "https://registry.yarnpkg.com", {}},
                                   {"YARN_UNSAFE_HTTP_WHITELIST", "*", {}}},
                                  {}, {}, {});
  ASSERT_EQ(e.refusals.size(), 4u);
  for (const auto& r : e.refusals) {
    EXPECT_EQ(r.rule, "launcher-owned-env") << r.message;
  }
  EXPECT_THAT(e.entries, Contains("pnpm_config_registry=http://127.0.0.1:40123/"));
  // yarn joins the path to the server with its own slash.
  EXPECT_THAT(e.entries, Contains("YARN_NPM_REGISTRY_SERVER=http://127.0.0.1:40123"));
  EXPECT_THAT(e.entries, Contains("YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1"));
  EXPECT_THAT(e.entries, Contains("npm_config_registry=file:///var/cache/reviewer-deps/registry/"));
}

// yarn 1 reads the view's offline mirror only when the host made one for a yarn.lock; a workflow
// can neither point it elsewhere (launcher-owned) nor set any other yarn setting by env (YARN_*
// redirects configuration). yarn's cache stays the default under the job's XDG_CACHE_HOME.
TEST(StepEnvironment, PointsYarnAtTheViewsMirrorOnlyWhenOneIsMounted) {
  RunnerContext ctx = context();
  ctx.dependency_cache = "/var/cache/reviewer-deps";
  auto none = build_step_environment(ctx, files(), {}, {}, {}, {});
  for (const auto& entry : none.entries) {
    EXPECT_NE(entry.rfind("YARN_", 0), 0u) << entry;
  }
  ctx.yarn_mirror = "/var/cache/reviewer-deps/yarn-mirror";
  auto e = build_step_environment(ctx, files(),
                                  {{"YARN_YARN_OFFLINE_MIRROR", "/workspace/mirror", {}},
                                   {"yarn_yarn_offline_mirror", "/x", {}},
                                   {"YARN_OFFLINE", "false", {}}},
                                  {}, {}, {});
  ASSERT_EQ(e.refusals.size(), 3u);
  EXPECT_EQ(e.refusals[0].rule, "launcher-owned-env");
  EXPECT_EQ(e.refusals[1].rule, "launcher-owned-env");
  EXPECT_EQ(e.refusals[2].rule, "config-redirecting-env");
  EXPECT_THAT(e.entries, Contains("YARN_YARN_OFFLINE_MIRROR=/var/cache/reviewer-deps/yarn-mirror"));
  EXPECT_THAT(e.entries, Contains("XDG_CACHE_HOME=/tmp/review/b/0-test/cache"));
}

}  // namespace
}  // namespace reviewer::exec
