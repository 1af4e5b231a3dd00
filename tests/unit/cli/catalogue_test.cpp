// docs/refusals.md is the catalogue `reviewer explain` prints: every rule id the code can give
// must be in it, with what it refuses, and every entry must be a rule the code can give.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "core/cli/refusal_catalogue.h"

namespace reviewer::cli {
namespace {

namespace fs = std::filesystem;

// Error codes that never reach a user as a refusal (they are turned into one that does).
const std::set<std::string> kInternalCodes = {"io-error", "invalid-range", "invalid-version"};

// Rule ids as the code writes them: the first argument of refuse/fail/refusal/stop, or the
// first member of a Refusal or EnvVerdict braced initialiser, or a rule table entry.
std::set<std::string> emitted_rules() {
  static const std::regex kRule(
      R"re((?:refuse|fail|refusal|stop|Refusal\{|push_back\(\{|return \{\{|EnvVerdict\{|JobKeyRule\{"[a-z-]+",|reject_rule\s*=|rule\s*=|kRule\w*\s*=)\(?\s*"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)")re");
  std::set<std::string> out;
  for (const char* root : {"core", "plugins"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(REVIEWER_SOURCE_DIR) / root)) {
      auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".h" && ext != ".hpp") {
        continue;
      }
      std::ifstream in(e.path());
      std::string text((std::istreambuf_iterator<char>(in)), {});
      for (std::sregex_iterator it(text.begin(), text.end(), kRule), end; it != end; ++it) {
        out.insert((*it)[1]);
      }
    }
  }
  for (const auto& c : kInternalCodes) {
    out.erase(c);
  }
  return out;
}

TEST(Catalogue, EveryRuleTheCodeGivesIsCatalogued) {
  auto rules = catalogued_rules();
  std::set<std::string> catalogued(rules.begin(), rules.end());
  auto emitted = emitted_rules();
  ASSERT_GT(emitted.size(), 80u) << "the scan found too little to mean anything";
  std::vector<std::string> missing;
  for (const auto& r : emitted) {
    if (!catalogued.count(r)) {
      missing.push_back(r);
    }
  }
  EXPECT_THAT(missing, ::testing::IsEmpty());
}

TEST(Catalogue, EveryEntrySaysWhatItRefusesAndIsExplainable) {
  for (const auto& rule : catalogued_rules()) {
    auto entry = find_refusal_entry(rule);
    ASSERT_TRUE(entry.has_value()) << rule;
    EXPECT_THAT(*entry, ::testing::ContainsRegex("(Refuses|Fails the build):")) << rule;
  }
}

TEST(Catalogue, RuleIdsAreUnique) {
  auto rules = catalogued_rules();
  std::set<std::string> unique(rules.begin(), rules.end());
  EXPECT_EQ(unique.size(), rules.size());
}

}  // namespace
}  // namespace reviewer::cli
