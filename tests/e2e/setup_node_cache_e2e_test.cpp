// actions/setup-node's npm cache in the review: a cold restore changes nothing, so the step is a
// skip when the lock file the action looks for is in the worktree, and fails as the action fails
// when it is not. The launcher reads the file for the plugin without following links.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

// A release tag and a node range, as real workflows write them.
const std::string kCachedSetup =
    "      - uses: actions/setup-node@v6\n        with:\n          node-version: 22.x\n"
    "          cache: npm\n      - run: node --version\n";

TEST_F(LauncherE2E, SetupNodeCachingNpmIsASkipWhenTheLockFileExists) {
  ExampleRepo repo;
  repo.write("package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {}}\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", kCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("the npm cache would restore nothing"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// The action's outputs as it sets them: `node-version` is `node --version` of the node on PATH,
// and a cold npm cache is `cache-hit` false. The cache's primary key is CI's hash of the lock,
// which the plugin does not write: reading it is refused by name.
TEST_F(LauncherE2E, SetupNodeSetsTheOutputsTheActionSetsOnAColdCache) {
  ExampleRepo repo;
  repo.write("package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {}}\n");
  const std::string setup =
      "      - id: node\n        uses: actions/setup-node@v6\n        with:\n"
      "          node-version: 22.x\n          cache: npm\n";
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test", setup +
                               "      - run: |\n"
                               "          echo \"node=[${{ steps.node.outputs.node-version }}]\"\n"
                               "          echo \"actual=[$(node --version)]\"\n"
                               "          echo \"hit=[${{ steps.node.outputs.cache-hit }}]\"\n") +
               job("keys", setup + "      - run: echo \"key=[${{ "
                                   "steps.node.outputs.cache-primary-key }}]\"\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto at = r.output.find("] actual=[v");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string actual = r.output.substr(at + 10, r.output.find(']', at + 10) - (at + 10));
  EXPECT_THAT(r.output, HasSubstr("] node=[" + actual + "]\n"));
  EXPECT_THAT(r.output, HasSubstr("] hit=[false]\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
  auto keys = run_launcher(repo.workspace(), assigned_job("keys"));
  EXPECT_EQ(keys.exit_code, 3) << keys.output;
  EXPECT_THAT(keys.last_line(), HasSubstr("action-output-unavailable"));
  EXPECT_THAT(keys.last_line(), HasSubstr("only node-version, cache-hit"));
  EXPECT_THAT(keys.last_line(), HasSubstr("'cache-primary-key'"));
}

TEST_F(LauncherE2E, SetupNodeCachingNpmFailsWithoutALockFileAsTheActionDoes) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("setup-node-lock-missing"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

TEST_F(LauncherE2E, ALockFileALinkPointsAtIsNotFollowed) {
  ExampleRepo repo;
  // The attack: the lock file the step names is a committed link out of the worktree. (A link
  // named package-lock.json is refused earlier still, by the worktree shape check.)
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - uses: actions/setup-node@v6\n        with:\n"
                          "          node-version: 22.x\n          cache: npm\n"
                          "          cache-dependency-path: deps/lock.json\n")));
  run_command("cd " + repo.source() + " && mkdir -p deps && ln -s /etc/passwd deps/lock.json");
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("setup-node-lock-missing"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

TEST_F(LauncherE2E, AutomaticCachingChecksTheLockOnlyWhenPackageJsonNamesNpm) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - uses: actions/setup-node@v6\n        with:\n"
                          "          node-version: '22'\n      - run: node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("names no npm package manager"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// A step that puts a stand-in `tool` on the PATH of the later steps: it logs every call (`tool
// asked: ARGS` on stderr) and then runs `answer` (sh, with the call's arguments).
std::string stand_in_on_path(const std::string& tool, const std::string& answer) {
  return "      - run: |\n"
         "          mkdir -p \"$HOME/bin\"\n"
         "          printf '#!/bin/sh\\necho \"" +
         tool + " asked: $*\" >&2\\n" + answer + "\\n' > \"$HOME/bin/" + tool +
         "\"\n"
         "          chmod +x \"$HOME/bin/" +
         tool +
         "\"\n"
         "          echo \"$HOME/bin\" >> \"$GITHUB_PATH\"\n";
}

// setup-node with node 22.x and `cache: manager`.
std::string cached_setup(const std::string& manager) {
  return "      - uses: actions/setup-node@v6\n        with:\n          node-version: 22.x\n"
         "          cache: " +
         manager + "\n";
}

// cache: pnpm asks pnpm for its store first, as the action does. A step puts a `pnpm` on the PATH
// here (in a real review it is pnpm/action-setup's, from the store: tests/image), which answers
// `store path` and logs that it was asked.
const std::string kPnpmOnPath = stand_in_on_path("pnpm", "echo /tmp/pnpm-store");
const std::string kPnpmCachedSetup = cached_setup("pnpm");

TEST_F(LauncherE2E, SetupNodeCachingPnpmAsksPnpmForItsStoreAndNeedsItsLock) {
  ExampleRepo repo;
  repo.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", kPnpmOnPath + kPnpmCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("pnpm asked: store path --silent"));
  EXPECT_THAT(r.output, HasSubstr("pnpm's store: /tmp/pnpm-store"));
  EXPECT_THAT(r.output, HasSubstr("pnpm cache is not found (a cold cache restores nothing)"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, SetupNodeCachingPnpmFailsWithoutPnpmAsTheActionDoes) {
  ExampleRepo repo;
  repo.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", kPnpmCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("Unable to locate executable file: pnpm"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

TEST_F(LauncherE2E, SetupNodeCachingPnpmFailsWithoutPnpmsLockAsTheActionDoes) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kPnpmOnPath + kPnpmCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("pnpm asked: store path --silent"));
  EXPECT_THAT(r.output, HasSubstr("setup-node-lock-missing: Dependencies lock file is not found in "
                                  "the worktree. Supported file patterns: pnpm-lock.yaml"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

// cache: yarn asks yarn for its version and cache folder first, as the action does. A step puts a
// `yarn` on the PATH here (in a real review it is the runner's yarn from the store: tests/image).
const std::string kYarnOnPath = stand_in_on_path(
    "yarn",
    "case \"$1\" in --version) echo 1.22.22 ;; cache) echo /tmp/yarn-cache ;; *) echo undefined "
    ";; esac");
const std::string kYarnCachedSetup = cached_setup("yarn");

TEST_F(LauncherE2E, SetupNodeCachingYarnAsksYarnForItsCacheAndNeedsItsLock) {
  ExampleRepo repo;
  repo.write("yarn.lock", "# yarn lockfile v1\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", kYarnOnPath + kYarnCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("yarn asked: --version"));
  EXPECT_THAT(r.output, HasSubstr("yarn asked: cache dir"));
  EXPECT_THAT(r.output, HasSubstr("yarn 1.22.22's cache folder: /tmp/yarn-cache"));
  EXPECT_THAT(r.output, HasSubstr("yarn asked: config get enableGlobalCache"));
  EXPECT_THAT(r.output, HasSubstr("yarn cache is not found (a cold cache restores nothing)"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, SetupNodeCachingYarnFailsWithoutYarnsLockAsTheActionDoes) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kYarnOnPath + kYarnCachedSetup)));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("setup-node-lock-missing: Dependencies lock file is not found in "
                                  "the worktree. Supported file patterns: yarn.lock"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

}  // namespace
}  // namespace reviewer::e2e
