// Property: whatever the bytes, loading and planning end in a plan or in catalogued refusals,
// quickly. A deterministic, always-on complement to tests/fuzz/plan_fuzzer.cpp: mutations of
// the repository's seed workflows (byte flips, YAML punctuation, aliases, truncation,
// duplication).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

std::string mutate(std::string s, std::mt19937& rng) {
  static const std::string kTokens[] = {
      "&a ",      "*a",   "[",      "]",     "{", "}",  ": ", "- ",       "\n  ",
      "${{ x }}", "<<: ", "!!str ", "---\n", "'", "\"", "\t", "\xc3\xa9", "needs: build\n",
      "? "};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const std::size_t at = rng() % s.size();
    switch (rng() % 5) {
      case 0:
        s[at] = static_cast<char>(rng() % 256);
        break;
      case 1:
        s.insert(at, kTokens[rng() % std::size(kTokens)]);
        break;
      case 2:
        s.erase(at, rng() % 64);
        break;
      case 3:
        s.insert(at, s.substr(rng() % s.size(), rng() % 256));
        break;
      default:
        s.resize(at);
        break;
    }
  }
  return s;
}

// The seeds are the repository's own workflows, so the property holds on a clone with nothing
// beside it: the seed workflows, the fuzzer's seeds and the bundled example.
std::vector<std::string> seed_workflows() {
  const std::filesystem::path source(REVIEWER_SOURCE_DIR);
  std::vector<std::string> seeds;
  for (const auto& dir : {source / "tests/data/workflows", source / "tests/fuzz/seeds",
                          source / "examples/node-app/.github/workflows"}) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() == ".yml" || e.path().extension() == ".yaml") {
        seeds.push_back(testing::read_file(e.path()));
      }
    }
  }
  return seeds;
}

TEST(Property, MutatedWorkflowsArePlannedOrRefusedByName) {
  std::vector<std::string> seeds = seed_workflows();
  std::sort(seeds.begin(), seeds.end());
  ASSERT_GE(seeds.size(), 9u) << "a seed workflow is missing";
  const std::set<std::string> known = testing::catalogued_rule_ids();
  std::mt19937 rng(20260611);
  int planned = 0;
  for (int i = 0; i < 600; ++i) {
    const std::string text = mutate(seeds[rng() % seeds.size()], rng);
    const auto start = std::chrono::steady_clock::now();
    testing::Planned r;
    testing::plan_text(text, "build", "main", &r);
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << text;
    ASSERT_NE(r.plan.has_value(), !r.refusals.empty()) << text;
    planned += r.plan ? 1 : 0;
    for (const auto& refusal : r.refusals) {
      ASSERT_TRUE(known.count(refusal.rule)) << refusal.rule << " is not catalogued\n" << text;
    }
  }
  std::cout << "property: 600 mutated workflows, " << planned << " planned\n";
}

}  // namespace
}  // namespace reviewer::plan
