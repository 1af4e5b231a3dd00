// Which release of the runtime catalogue a setup step installs on a date: setup-node's exact
// versions, ranges (the runner's tool cache first, as tc.find, unless check-latest) and aliases,
// and setup-bun's latest, exact versions and ranges; each rule and refusal with its exact text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/resolve/release_pick.h"
#include "tests/support/catalogue_fixture.h"

namespace reviewer::resolve {
namespace {

constexpr const char* kToday = "2026-12-06";

CatalogueRelease release(std::string version, std::string date) {
  return test_support::catalogue_release(std::move(version), std::move(date));
}

// Built here, not parsed: the test holds pick_release alone. Ascending by version, as the
// catalogue keeps them; 24.23.0, 27.0.0 and bun 1.3.11 are released after kToday.
RuntimeCatalogue catalogue() {
  RuntimeCatalogue c;
  c.source = "matrix/runtimes.json";
  c.node_schedule = test_support::node_schedule("the test schedule");
  c.node = {release("18.0.0", "2022-04-19"),  release("18.20.8", "2025-03-27"),
            release("20.0.0", "2023-04-18"),  release("20.19.5", "2025-09-03"),
            release("22.0.0", "2024-04-24"),  release("22.12.0", "2024-12-03"),
            release("22.22.1", "2026-03-05"), release("22.23.5", "2026-11-10"),
            release("24.0.0", "2025-05-06"),  release("24.18.1", "2026-06-01"),
            release("24.22.3", "2026-11-20"), release("24.23.0", "2026-12-10"),
            release("25.0.0", "2025-10-15"),  release("25.9.0", "2026-03-30"),
            release("26.0.0", "2026-05-05"),  release("26.3.0", "2026-11-25"),
            release("27.0.0", "2027-04-22")};
  c.bun = {release("1.0.0", "2023-09-08"),  release("1.1.0", "2024-04-01"),
           release("1.2.0", "2025-01-22"),  release("1.2.19", "2025-07-19"),
           release("1.2.23", "2025-09-29"), release("1.3.0", "2025-10-10"),
           release("1.3.10", "2026-11-01"), release("1.3.11", "2026-12-20")};
  return c;
}

ReleaseAsk node(std::string spec) {
  return {"node", std::move(spec), false, {24, 22}, kToday, {"ci.yml", 12, 24}};
}

ReleaseAsk bun(std::string spec) {
  return {"bun", std::move(spec), false, {}, kToday, {"ci.yml", 20, 24}};
}

// "rule version" for a pick, "refusal-rule: message" for a refusal.
std::string outcome(const ReleaseAsk& ask, const RuntimeCatalogue& from = catalogue()) {
  auto r = pick_release(ask, from);
  if (!r) {
    EXPECT_EQ(r.error().location, ask.where);
    return r.error().rule + ": " + r.error().message;
  }
  return r->rule + " " + r->release->version;
}

std::string why(const ReleaseAsk& ask) {
  auto r = pick_release(ask, catalogue());
  return r ? r->why : r.error().message;
}

struct Case {
  ReleaseAsk ask;
  const char* want;
};

void expect_all(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    EXPECT_EQ(outcome(c.ask), c.want) << c.ask.tool << " '" << c.ask.spec << "'";
  }
}

TEST(ReleasePick, TheReleaseInTheCatalogueIsOneOfIt) {
  const auto from = catalogue();
  auto r = pick_release(node("24.18.1"), from);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->release, &from.node[9]);
}

TEST(ReleasePick, AnExactNodeVersionIsThatRelease) {
  // Not the cached 24 build (24.22.3): tc.find of an exact version finds only that version.
  expect_all({{node("24.18.1"), "exact 24.18.1"},
              {node("v24.18.1"), "exact 24.18.1"},
              {node("=v22.12.0"), "exact 22.12.0"}});  // semver.clean drops = and v
  EXPECT_EQ(why(node("v24.18.1")),
            "node 'v24.18.1' taken as 24.18.1: an exact version, released 2026-06-01");
}

TEST(ReleasePick, AnExactVersionTheCatalogueLacksNamesTheNewestOfItsLine) {
  EXPECT_EQ(outcome(node("24.19.0")),
            "runtime-not-in-catalogue: node '24.19.0' is not in the runtime catalogue "
            "(matrix/runtimes.json) on 2026-12-06; the newest node 24 release it holds by then is "
            "24.22.3");
  EXPECT_EQ(outcome(node("16.20.2")),
            "runtime-not-in-catalogue: node '16.20.2' is not in the runtime catalogue "
            "(matrix/runtimes.json) on 2026-12-06; it holds no node 16 release by then");
  EXPECT_EQ(outcome(bun("1.2.20")),
            "runtime-not-in-catalogue: bun '1.2.20' is not in the runtime catalogue "
            "(matrix/runtimes.json) on 2026-12-06; the newest bun 1 release it holds by then is "
            "1.3.10");
}

TEST(ReleasePick, AReleaseAfterTheDateDidNotExist) {
  // 24.23.0 is in the catalogue, dated 2026-12-10: not yet on 2026-12-06, exact or in a range.
  EXPECT_EQ(outcome(node("24.23.0")),
            "runtime-not-in-catalogue: node '24.23.0' is not in the runtime catalogue "
            "(matrix/runtimes.json) on 2026-12-06; the newest node 24 release it holds by then is "
            "24.22.3");
  auto later = node("24.23.0");
  later.today = "2026-12-10";
  EXPECT_EQ(outcome(later), "exact 24.23.0");
  expect_all({{node("24.x"), "tool-cache-line 24.22.3"},
              {node("^24.1"), "tool-cache-line 24.22.3"},
              {bun("latest"), "latest 1.3.10"},
              {bun("1.3"), "newest-match 1.3.10"}});
  EXPECT_EQ(outcome(node("27")),
            "runtime-not-in-catalogue: no node release the runtime catalogue "
            "(matrix/runtimes.json) holds on 2026-12-06 satisfies '27'; the newest node release "
            "it holds by then is 26.3.0");
}

TEST(ReleasePick, ARangeACachedBuildSatisfiesTakesTheHighestSuchBuild) {
  // The cache holds one build of 24 and of 22, taken as 24.22.3 and 22.23.5.
  expect_all({
      {node("24.x"), "tool-cache-line 24.22.3"},
      {node("24"), "tool-cache-line 24.22.3"},
      {node("v24"), "tool-cache-line 24.22.3"},
      {node(">=20"), "tool-cache-line 24.22.3"},  // not 26.3.0: the cache answers first
      {node("*"), "tool-cache-line 24.22.3"},
      {node(">=20 <23"), "tool-cache-line 22.23.5"},      // 24.22.3 is outside, 22.23.5 inside
      {node("22.x || 24.x"), "tool-cache-line 24.22.3"},  // the higher cached build
      // Ranges covering a cached line only partly: the cached build satisfies them.
      {node(">=24.5"), "tool-cache-line 24.22.3"},  // not 26.3.0
      {node("^24.1.0"), "tool-cache-line 24.22.3"},
      {node("^22.1"), "tool-cache-line 22.23.5"},
      {node("~22.23.0"), "tool-cache-line 22.23.5"},
  });
  EXPECT_EQ(why(node(">=24.5")),
            "node '>=24.5' taken as 24.22.3: setup-node's tc.find takes the highest build in the "
            "runner's tool cache that satisfies it, here line 24's; the runner's exact cached "
            "build is not known, so the catalogue's newest 24 release on 2026-12-06 stands for "
            "it");
  auto reversed = node("22.x || 24.x");
  reversed.tool_cache_lines = {22, 24};  // the order the caller lists them in does not matter
  EXPECT_EQ(outcome(reversed), "tool-cache-line 24.22.3");
  auto uncatalogued = node(">=20");
  uncatalogued.tool_cache_lines = {28, 24};  // no release of 28: it stands for no build
  EXPECT_EQ(outcome(uncatalogued), "tool-cache-line 24.22.3");
}

TEST(ReleasePick, TheCachedBuildIsTheNewestOfItsLineOnTheDate) {
  // 24.23.0 (2026-12-10) is not yet the cached 24 build on 2026-12-06: 24.22.3 is, and it does
  // not satisfy '>=24.23', so CI downloads the newest match.
  EXPECT_EQ(outcome(node(">=24.23")), "newest-match 26.3.0");
  auto later = node(">=24.23");
  later.today = "2026-12-10";
  EXPECT_EQ(outcome(later), "tool-cache-line 24.23.0");
  // A prerelease is never the cached build.
  auto from = catalogue();
  from.node.insert(from.node.begin() + 11, release("24.23.0-rc.1", "2026-12-01"));
  EXPECT_EQ(outcome(node(">=24.5"), from), "tool-cache-line 24.22.3");
}

TEST(ReleasePick, ARangeNoCachedBuildSatisfiesTakesTheNewestMatch) {
  expect_all({
      {node(">=24.99"), "newest-match 26.3.0"},  // the cached 24.22.3 is below it
      {node("25.x"), "newest-match 25.9.0"},     // no cached line
      {node(">=25"), "newest-match 26.3.0"},
      {node("~22.22.0"), "newest-match 22.22.1"},  // the cached 22.23.5 is above it
  });
  EXPECT_EQ(why(node(">=24.99")),
            "node '>=24.99' taken as 26.3.0: the catalogue's newest release satisfying it on "
            "2026-12-06 (no build the runner's tool cache holds satisfies it)");
  auto no_cache = node("24.x");
  no_cache.tool_cache_lines = {};
  EXPECT_EQ(outcome(no_cache), "newest-match 24.22.3");
}

TEST(ReleasePick, CheckLatestSkipsTheToolCache) {
  auto ask = node(">=20");
  ask.check_latest = true;
  EXPECT_EQ(outcome(ask), "newest-match 26.3.0");
  EXPECT_EQ(why(ask),
            "node '>=20' taken as 26.3.0: the catalogue's newest release satisfying it on "
            "2026-12-06 (check-latest: setup-node skips the tool cache)");
  ask.spec = "24.x";
  EXPECT_EQ(outcome(ask), "newest-match 24.22.3");
  ask.spec = ">=24.5";
  EXPECT_EQ(outcome(ask), "newest-match 26.3.0");
}

TEST(ReleasePick, ARangeNothingSatisfiesIsNotInTheCatalogue) {
  EXPECT_EQ(outcome(node(">=28")),
            "runtime-not-in-catalogue: no node release the runtime catalogue "
            "(matrix/runtimes.json) holds on 2026-12-06 satisfies '>=28'; the newest node release "
            "it holds by then is 26.3.0");
}

TEST(ReleasePick, PrereleasesNeverMatch) {
  auto from = catalogue();
  from.node.insert(from.node.begin() + 16, release("26.4.0-rc.1", "2026-12-01"));
  EXPECT_EQ(outcome(node(">=25"), from), "newest-match 26.3.0");
  EXPECT_EQ(outcome(node("latest"), from), "alias 26.3.0");
  EXPECT_EQ(outcome(node("lts/*"), from), "alias 26.3.0");
}

TEST(ReleasePick, AnAliasTakesTheNewestReleaseOfItsLine) {
  expect_all({
      {node("lts/*"), "alias 26.3.0"},
      {node("lts/-1"), "alias 24.22.3"},
      {node("lts/-2"), "alias 22.23.5"},
      {node("lts/krypton"), "alias 24.22.3"},
      {node("lts/KRYPTON"), "alias 24.22.3"},  // setup-node lower-cases the codename
      {node("lts/Iron"), "alias 20.19.5"},
      {node("node"), "alias 26.3.0"},
      {node("latest"), "alias 26.3.0"},
      {node("current"), "alias 26.3.0"},
  });
}

TEST(ReleasePick, AnLtsAliasSaysWhenTheToolCacheAnswersIt) {
  EXPECT_EQ(why(node("lts/-1")),
            "node 'lts/-1' taken as 24.22.3: the LTS line 1 before the newest on 2026-12-06: "
            "'Krypton', LTS since 2025-10-28; the catalogue's newest 24 release on 2026-12-06; "
            "setup-node finds line 24 in the runner's tool cache, whose exact build is not known "
            "here, so that release stands for it");
  // Line 26 is not cached; with check-latest the cache is not asked.
  EXPECT_EQ(why(node("lts/*")),
            "node 'lts/*' taken as 26.3.0: the newest LTS line on 2026-12-06: 'Lithium', LTS "
            "since 2026-10-28; the catalogue's newest 26 release on 2026-12-06");
  auto ask = node("lts/-1");
  ask.check_latest = true;
  EXPECT_EQ(why(ask),
            "node 'lts/-1' taken as 24.22.3: the LTS line 1 before the newest on 2026-12-06: "
            "'Krypton', LTS since 2025-10-28; the catalogue's newest 24 release on 2026-12-06");
}

TEST(ReleasePick, AnAliasNoLineAnswersIsInvalid) {
  EXPECT_EQ(outcome(node("lts/-9")),
            "invalid-declaration: node lts/-9 names no Node.js line on 2026-12-06: the LTS line 9 "
            "before the newest does not exist yet (the matrix's release schedule, the test "
            "schedule)");
}

TEST(ReleasePick, AnAliasLineWithoutReleasesIsNotInTheCatalogue) {
  auto from = catalogue();
  std::erase_if(from.node, [](const auto& r) { return r.version.starts_with("26."); });
  EXPECT_EQ(outcome(node("latest"), from),
            "runtime-not-in-catalogue: node 'latest' names line 26 (the newest released line on "
            "2026-12-06, out since 2026-05-05), of which the runtime catalogue "
            "(matrix/runtimes.json) holds no release on 2026-12-06");
}

TEST(ReleasePick, BunLatestExactAndRanges) {
  expect_all({
      {bun("latest"), "latest 1.3.10"},
      {bun(""), "latest 1.3.10"},  // setup-bun with no version takes the latest
      {bun("1.2.19"), "exact 1.2.19"},
      {bun("v1.2.19"), "exact 1.2.19"},
      {bun("1.x"), "newest-match 1.3.10"},
      {bun("1.2"), "newest-match 1.2.23"},
      {bun("1.2.x"), "newest-match 1.2.23"},
      {bun("^1.2"), "newest-match 1.3.10"},
      {bun("~1.2.0"), "newest-match 1.2.23"},
      {bun(">=1.1 <1.3"), "newest-match 1.2.23"},
  });
  EXPECT_EQ(why(bun("")),
            "bun with no version taken as 1.3.10: the catalogue's newest bun release on "
            "2026-12-06");
  EXPECT_EQ(why(bun("1.2")),
            "bun '1.2' taken as 1.2.23: the catalogue's newest release satisfying it on "
            "2026-12-06");
}

TEST(ReleasePick, BunNeverAsksAToolCache) {
  auto ask = bun("1.x");
  ask.tool_cache_lines = {1};
  EXPECT_EQ(outcome(ask), "newest-match 1.3.10");
}

TEST(ReleasePick, BunCanaryIsNotInTheCatalogue) {
  EXPECT_EQ(outcome(bun("canary")),
            "runtime-not-in-catalogue: bun 'canary' asks for a canary build, which the runtime "
            "catalogue (matrix/runtimes.json) does not hold: it lists releases only");
}

TEST(ReleasePick, WhatTheActionCannotReadIsInvalid) {
  EXPECT_EQ(outcome(node("foo")).substr(0, 83),
            "invalid-declaration: node 'foo' is neither a version nor a range setup-node reads (");
  EXPECT_EQ(outcome(bun("Latest")).substr(0, 84),
            "invalid-declaration: bun 'Latest' is neither a version nor a range setup-bun reads (");
  EXPECT_EQ(outcome(node("")),
            "invalid-declaration: node '' names no release: setup-node installs nothing for an "
            "empty node-version");
  EXPECT_EQ(outcome({"deno", "2.0.0", false, {}, kToday, {"ci.yml", 3, 4}}),
            "invalid-declaration: a setup step installs node or bun here, not 'deno'");
  auto undated = node("24.x");
  undated.today = "";
  EXPECT_EQ(outcome(undated),
            "invalid-declaration: node '24.x' cannot be resolved: the review has no date "
            "(YYYY-MM-DD)");
}

}  // namespace
}  // namespace reviewer::resolve
