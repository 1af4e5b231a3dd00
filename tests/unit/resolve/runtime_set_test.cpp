#include "core/resolve/runtime_set.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "tests/support/catalogue_fixture.h"

namespace reviewer::resolve {
namespace {

constexpr const char* kToday = "2026-12-06";

using test_support::catalogue_release;

CatalogueRelease tool(std::string version) { return catalogue_release(std::move(version), ""); }

RuntimeCatalogue catalogue() {
  RuntimeCatalogue c;
  c.source = "matrix/runtimes.json";
  c.node_schedule = test_support::node_schedule("the test schedule");
  c.node = {catalogue_release("22.22.0", "2026-01-10", "10.9.4", "0.34.5"),
            catalogue_release("22.23.5", "2026-11-12", "", ""),
            catalogue_release("24.7.0", "2025-08-27", "11.5.1", "0.34.0"),
            catalogue_release("24.18.1", "2026-07-29", "11.16.0", "0.35.0"),
            catalogue_release("24.22.3", "2026-11-12", "", ""),
            catalogue_release("26.7.0", "2026-08-05", "11.19.0", "none"),
            catalogue_release("26.12.1", "2026-10-22", "", "")};
  c.bun = {catalogue_release("1.2.19", "2025-07-19"), catalogue_release("1.3.10", "2026-02-01")};
  c.npm = {tool("10.9.4"), tool("11.5.1"), tool("11.16.0"), tool("11.19.0")};
  c.corepack = {tool("0.34.0"), tool("0.34.5"), tool("0.35.0")};
  return c;
}

Pin step(std::string runtime, std::string version, std::uint32_t line, bool tool_cache = false) {
  Pin p{std::move(runtime), std::move(version), {".github/workflows/ci.yml", line, 11}};
  p.tool_cache = tool_cache;
  return p;
}

Pin runner_default() {
  return Pin{"node",
             "22",
             {".github/workflows/ci.yml", 4, 14},
             "the runner's default Node 22 (ubuntu-24.04, actions/runner-images #14046)"};
}

TEST(RuntimeSet, AnExactPinIsThatReleaseWithItsBundle) {
  const auto c = catalogue();
  auto set = resolve_runtime_set({step("node", "24.18.1", 9), step("bun", "1.2.19", 10)}, c, kToday,
                                 {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->node->version, "24.18.1");
  EXPECT_EQ(set->npm->version, "11.16.0");
  EXPECT_EQ(set->corepack->version, "0.35.0");
  EXPECT_EQ(set->bun->version, "1.2.19");
  ASSERT_EQ(set->decisions.size(), 2u);
  EXPECT_EQ(set->decisions[0],
            "node '24.18.1' taken as 24.18.1: an exact version, released 2026-07-29");
}

TEST(RuntimeSet, ARunnersDefaultIsTheNewestReleaseOfItsLine) {
  const auto c = catalogue();
  auto set = resolve_runtime_set({runner_default()}, c, kToday, {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->node->version, "22.23.5");
  EXPECT_EQ(set->bun, nullptr);
  EXPECT_EQ(set->decisions[0],
            "the runner's default Node 22 (ubuntu-24.04, actions/runner-images #14046) taken as "
            "22.23.5: the runner image installs its line's newest release when it is built, and "
            "the catalogue's newest on 2026-12-06 stands for it");
}

TEST(RuntimeSet, ABundleNotRecordedIsTheNearestRecordedOneOfItsLineAndSaidSo) {
  const auto c = catalogue();
  auto set = resolve_runtime_set({runner_default()}, c, kToday, {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->npm->version, "10.9.4");
  EXPECT_EQ(set->corepack->version, "0.34.5");
  EXPECT_EQ(set->decisions[1],
            "node 22.23.5: which npm it bundles is not recorded (no release post of it was "
            "read); npm 10.9.4, what node 22.22.0 bundles, stands for it");
}

TEST(RuntimeSet, ALineWithoutCorepackGetsNone) {
  const auto c = catalogue();
  auto set = resolve_runtime_set({step("node", "26.7.0", 9)}, c, kToday, {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->npm->version, "11.19.0");
  EXPECT_EQ(set->corepack, nullptr);
  // 26.12.1 records neither: its line's nearest recorded release, 26.7.0, stands for both.
  set = resolve_runtime_set({step("node", "26.12.1", 9)}, c, kToday, {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->npm->version, "11.19.0");
  EXPECT_EQ(set->corepack, nullptr);
}

TEST(RuntimeSet, AToolCachePinAsksTheRunnersCachedLines) {
  const auto c = catalogue();
  Pin p = step("node", "24", 9, /*tool_cache=*/true);
  p.asked = "24.x";
  auto set = resolve_runtime_set({p}, c, kToday, {24, 22});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->node->version, "24.22.3");
  EXPECT_NE(set->decisions[0].find("tc.find"), std::string::npos) << set->decisions[0];
}

TEST(RuntimeSet, TwoJobsCIAnswersWithDifferentReleasesConflict) {
  const auto c = catalogue();
  auto set =
      resolve_runtime_set({runner_default(), step("node", "24.18.1", 15)}, c, kToday, {24, 22});
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().rule, "conflicting");
  EXPECT_EQ(set.error().message,
            "the runner's default Node 22 (ubuntu-24.04, actions/runner-images #14046) at "
            ".github/workflows/ci.yml:4:14 gives node 22.23.5 and pin at "
            ".github/workflows/ci.yml:15:11 \"24.18.1\" gives 24.18.1: CI runs each job on its own "
            "runner, the review runs the jobs in one sandbox; make them agree, or review the jobs "
            "apart");
  // Two pins CI answers alike agree.
  EXPECT_TRUE(
      resolve_runtime_set({step("node", "22.23.5", 9), runner_default()}, c, kToday, {24, 22}));
}

TEST(RuntimeSet, APinTheCatalogueLacksIsRefusedByName) {
  const auto c = catalogue();
  auto set = resolve_runtime_set({step("node", "24.18.2", 9), step("bun", "1.2.20", 10)}, c, kToday,
                                 {24, 22});
  ASSERT_FALSE(set);
  ASSERT_EQ(set.refusals().size(), 2u);
  EXPECT_EQ(set.refusals()[0].rule, "runtime-not-in-catalogue");
  EXPECT_EQ(set.refusals()[1].rule, "runtime-not-in-catalogue");
}

TEST(RuntimeSet, ALineWithNoRecordedNpmIsRefused) {
  auto c = catalogue();
  c.node[0].npm.clear();
  auto set = resolve_runtime_set({step("node", "22.22.0", 9)}, c, kToday, {24, 22});
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().rule, "runtime-not-in-catalogue");
  EXPECT_EQ(set.error().message,
            "node 22.22.0: which npm it bundles is recorded for no release of its line in the "
            "runtime catalogue (matrix/runtimes.json)");
}

}  // namespace
}  // namespace reviewer::resolve
