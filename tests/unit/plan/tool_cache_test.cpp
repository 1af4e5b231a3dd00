// setup-node without check-latest asks the runner's tool cache first (`tc.find`: the highest
// cached Node satisfying the spec): for a spec spanning lines the planner pins the cached line CI
// finds when every release of it satisfies the spec, and leaves the spec to the resolver
// otherwise. With check-latest the
// action takes the newest release instead, and the spec stays as written.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/plan/runner_image.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;

constexpr const char* kNode7 = "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020";

TEST(ToolCache, TheRunnersCachedLinesAreTwentyFourAndTwentyTwo) {
  EXPECT_EQ(kRunnerImage.cached_node_lines[0], "24");
  EXPECT_EQ(kRunnerImage.cached_node_lines[1], "22");
}

TEST(ToolCache, TheNewestCachedLineWhollyInTheSpecIsCIs) {
  for (const auto& [spec, line] : std::initializer_list<std::pair<const char*, const char*>>{
           {"*", "24"},
           {"x", "24"},
           {">=20", "24"},
           {">20.1.0", "24"},
           {">=24.0.0-rc.1", "24"},
           {"^22 || ^24", "24"},
           {">=18 <23", "22"},
           {"<24", "22"},
           {"20 - 22", "22"},
       }) {
    EXPECT_EQ(tool_cache_line(spec), std::optional<std::string>(line)) << spec;
  }
}

TEST(ToolCache, WhatTheCachedReleaseOrTheDownloadDecidesIsLeftToTheResolver) {
  for (const char* spec : {
           ">=24.5",       // whether the cached 24.x is 24.5 or later
           "~24.1",        // the same
           "24.19.0",      // an exact release
           "22 || 24.1",   // 24 only partly
           "<=24.2",       // 24 only partly, 22 not reached: the newest cached line decides
           "20.x",         // not cached: CI downloads the newest 20
           "18",           //
           "26",           //
           ">=25",         // newer than every cached line: downloaded
           "lts/*",        // an alias, resolved from the manifest
           "latest",       //
           "not a range",  //
       }) {
    EXPECT_EQ(tool_cache_line(spec), std::nullopt) << spec;
  }
}

// Every pin as "runtime version [asked X]".
std::string pins_of(const std::string& with) {
  const std::string workflow =
      std::string("on: pull_request\njobs:\n  test:\n") +
      "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + kCheckout +
      "\n      - uses: " + kNode7 + "\n        with:\n" + with +
      "          package-manager-cache: false\n";
  std::optional<Plan> plan;
  const std::string planned = testing::plan_over_files(workflow, {}, "test", &plan);
  if (!plan) {
    return planned;
  }
  std::string out;
  for (const auto& p : plan->pins) {
    out += p.runtime + " " + p.version + (p.asked.empty() ? "" : " [asked " + p.asked + "]") + "\n";
  }
  return out;
}

TEST(ToolCache, SetupNodesRangeIsPinnedToTheCachedLine) {
  EXPECT_EQ(pins_of("          node-version: '*'\n"), "node 24 [asked *]\n");
  EXPECT_EQ(pins_of("          node-version: '>=20'\n          check-latest: false\n"),
            "node 24 [asked >=20]\n");
  EXPECT_EQ(pins_of("          node-version: '>=18 <23'\n"), "node 22 [asked >=18 <23]\n");
  // Within one line, or nothing the cache decides: as written.
  EXPECT_EQ(pins_of("          node-version: 22.x\n"), "node 22.x\n");
  EXPECT_EQ(pins_of("          node-version: 24.19.0\n"), "node 24.19.0\n");
  EXPECT_EQ(pins_of("          node-version: 20\n"), "node 20\n");
}

TEST(ToolCache, CheckLatestTakesTheNewestReleaseInstead) {
  EXPECT_EQ(pins_of("          node-version: '*'\n          check-latest: true\n"), "node *\n");
  EXPECT_EQ(pins_of("          node-version: '>=20'\n          check-latest: 'TRUE'\n"),
            "node >=20\n");
}

}  // namespace
}  // namespace reviewer::plan
