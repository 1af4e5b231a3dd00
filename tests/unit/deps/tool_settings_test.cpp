// The package managers' settings in a step's environment: where they find what the host
// verified, which a workflow cannot change, and their defaults in the job's scratch.
#include "core/deps/provision/tool_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/workflow/env_policy.h"

namespace reviewer::deps {
namespace {

using exec::build_step_environment;
using exec::RunnerContext;
using exec::StepFiles;
using ::testing::Contains;
using ::testing::Not;

// A job's runner context with the settings `tools` give.
RunnerContext with(const JobTools& tools) {
  RunnerContext ctx{
      "/workspace",
      "test",
      "main",
      ".github/workflows/ci.yml",
      {"/opt/reviewer/runtimes/bun/bin"},
      {"/tmp/review/b/0-test", "/tmp/review/b/0-test/home", "/tmp/review/b/0-test/tmp",
       "/tmp/review/b/0-test/cache", "/tmp/review/b/0-test/runner-temp"}};
  auto settings = tool_settings(tools, ctx.dirs);
  ctx.tool_defaults = settings.defaults;
  ctx.tool_settings = settings.settings;
  return ctx;
}

StepFiles files() { return {"/s/output", "/s/env", "/s/path", "/s/summary"}; }

// With a dependency view mounted, npm reads the lock's tarballs from it by integrity, offline,
// and keeps its log in the job's own cache; without one, npm's cache is the job's own.
TEST(ToolSettings, PointsNpmAtTheDependencyViewOnlyWhenOneIsMounted) {
  auto plain = build_step_environment(with({}), files(), {}, {}, {}, {});
  EXPECT_THAT(plain.entries, Contains("npm_config_cache=/tmp/review/b/0-test/cache/npm"));
  EXPECT_THAT(plain.entries, Not(Contains("npm_config_offline=true")));
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  auto e = build_step_environment(with(tools), files(), {}, {}, {}, {});
  EXPECT_THAT(e.entries, Contains("npm_config_cache=/var/cache/reviewer-deps"));
  EXPECT_THAT(e.entries, Contains("npm_config_offline=true"));
  EXPECT_THAT(e.entries, Contains("npm_config_logs_dir=/tmp/review/b/0-test/cache/npm/_logs"));
}

// A workflow cannot point npm back at the network or at another cache: the names are the
// launcher's, in any case.
TEST(ToolSettings, NpmSettingsOfTheViewAreLauncherOwned) {
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  auto e = build_step_environment(
      with(tools), files(),
      {{"npm_config_offline", "false", {}}, {"NPM_CONFIG_CACHE", "/tmp/x", {}}},
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
TEST(ToolSettings, PointsPnpmAtTheViewsRegistryOnlyWhenOneIsMounted) {
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  auto npm_only = build_step_environment(with(tools), files(), {}, {}, {}, {});
  for (const auto& entry : npm_only.entries) {
    EXPECT_NE(entry.rfind("npm_config_registry=", 0), 0u) << entry;
  }
  tools.npm_registry = "file:///var/cache/reviewer-deps/registry/";
  auto e = build_step_environment(with(tools), files(),
                                  {{"NPM_CONFIG_REGISTRY", "https://registry.npmjs.org/", {}}}, {},
                                  {}, {});
  ASSERT_EQ(e.refusals.size(), 1u);
  EXPECT_EQ(e.refusals[0].rule, "launcher-owned-env");
  EXPECT_THAT(e.entries, Contains("npm_config_registry=file:///var/cache/reviewer-deps/registry/"));
  EXPECT_THAT(e.entries, Contains("npm_config_offline=true"));
}

// A plan of pnpm 8 names the loopback in npm_config_registry
// (deps/provision/npm_config_registry.h); pnpm 8 reads npm_config_offline as well and would then
// fetch nothing, so it is left unset.
TEST(ToolSettings, WithTheLoopbackAsNpmsRegistryOfflineIsLeftUnset) {
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  tools.npm_registry = "http://127.0.0.1:40123/";
  tools.http_registry = "http://127.0.0.1:40123/";
  auto e = build_step_environment(with(tools), files(), {}, {}, {}, {});
  EXPECT_THAT(e.entries, Contains("npm_config_registry=http://127.0.0.1:40123/"));
  EXPECT_THAT(e.entries, Contains("npm_config_cache=/var/cache/reviewer-deps"));
  EXPECT_THAT(e.entries, Not(Contains("npm_config_offline=true")));
}

// pnpm 11 and later read the view through the loopback registry, named only when one runs; a
// workflow cannot point them elsewhere. pnpm 10 keeps the file: registry.
TEST(ToolSettings, PointsPnpm11AndYarn2AtTheLoopbackRegistryOnlyWhenOneRuns) {
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  tools.npm_registry = "file:///var/cache/reviewer-deps/registry/";
  auto none = build_step_environment(with(tools), files(), {}, {}, {}, {});
  for (const auto& entry : none.entries) {
    EXPECT_NE(entry.rfind("pnpm_config_", 0), 0u) << entry;
    EXPECT_NE(entry.rfind("YARN_NPM_", 0), 0u) << entry;
    EXPECT_NE(entry.rfind("YARN_UNSAFE_", 0), 0u) << entry;
  }
  tools.http_registry = "http://127.0.0.1:40123/";
  auto e = build_step_environment(with(tools), files(),
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
TEST(ToolSettings, PointsYarnAtTheViewsMirrorOnlyWhenOneIsMounted) {
  JobTools tools;
  tools.npm_cache = "/var/cache/reviewer-deps";
  auto none = build_step_environment(with(tools), files(), {}, {}, {}, {});
  for (const auto& entry : none.entries) {
    EXPECT_NE(entry.rfind("YARN_", 0), 0u) << entry;
  }
  tools.yarn_mirror = "/var/cache/reviewer-deps/yarn-mirror";
  auto e = build_step_environment(with(tools), files(),
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

// Every name a job's package managers are given is one a workflow, a step's env or GITHUB_ENV
// cannot set: the policy that refuses them is core/workflow's (the planner reads it before any
// dependency exists), so a package manager added here without its names there fails this test.
TEST(ToolSettings, EveryNameItSetsIsRefusedToTheWorkflowAsTheLaunchers) {
  JobTools tools{"/var/cache/reviewer-deps", "http://127.0.0.1:40123/", "http://127.0.0.1:40123/",
                 "/tmp/review/b/0-test/npm-global", "/var/cache/reviewer-deps/yarn-mirror"};
  const auto settings = tool_settings(tools, with({}).dirs);
  std::size_t named = 0;
  for (const auto* list : {&settings.defaults, &settings.settings}) {
    for (const auto& [name, value] : *list) {
      ++named;
      const auto verdict = workflow::check_env_name(name);
      ASSERT_TRUE(verdict) << name << " may be set by a workflow";
      EXPECT_EQ(verdict->rule, "launcher-owned-env") << name;
    }
  }
  EXPECT_GE(named, 9u);
}

}  // namespace
}  // namespace reviewer::deps
