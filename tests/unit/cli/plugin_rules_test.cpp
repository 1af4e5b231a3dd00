// A plugin's own refusal rules (SDK 1.11): `reviewer explain` prints their entries, a plan's SARIF
// carries them, `reviewer fixtures` fails a case whose rule no catalogue holds, and the host
// refuses an entry that could be shown wrongly (a core rule's id, one given twice, a malformed id,
// a text holding a terminal escape) with plugin-invalid-rule.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"
#include "tests/unit/cli/author_dir.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class PluginRules : public ::testing::Test {
 protected:
  std::pair<int, std::string> explain(const std::string& rule, const std::string& extra) {
    return testing::run_reviewer("explain " + rule + extra);
  }
  std::pair<int, std::string> sarif(const std::string& action, const std::string& extra) {
    root_.write("ci.yml",
                "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
                "    steps:\n"
                "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
                "      - uses: " +
                    action + "@0123456789abcdef0123456789abcdef01234567\n");
    return testing::run_reviewer("plan --workflow " + (root_ / "ci.yml") +
                                 " --job build --base main --format sarif" + extra);
  }
  test_support::TempDir root_;
};

TEST_F(PluginRules, ExplainPrintsAPluginsOwnEntryOnlyWithThatPlugin) {
  auto [missing, none] = explain("test-own-rule", "");
  EXPECT_EQ(missing, 2) << none;
  EXPECT_THAT(none, HasSubstr("no refusal rule 'test-own-rule'"));
  const std::string dir = author_dir(root_, "mine", "own_rule");
  auto [code, out] = explain("test-own-rule", " --plugin-dir " + dir);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("### `test-own-rule`"));
  EXPECT_THAT(out, HasSubstr("A rule of plugin `own_rule`"));
  EXPECT_THAT(out, HasSubstr("What the test plugin refuses, and why."));
}

TEST_F(PluginRules, APlansSarifCarriesThePluginsEntryAsTheRulesHelp) {
  auto [code, out] =
      sarif("test-org/own", " --plugin-dir " + author_dir(root_, "mine", "own_rule"));
  EXPECT_EQ(code, 3) << out;
  EXPECT_THAT(out, HasSubstr("\"ruleId\": \"test-own-rule\""));
  EXPECT_THAT(out, HasSubstr("\"markdown\": \"What the test plugin refuses, and why.\""));
  EXPECT_THAT(out, Not(HasSubstr("docs/refusals.md#test-own-rule")));
}

TEST_F(PluginRules, AnEntryForARuleTheCoreHoldsIsRefused) {
  const std::string dir = author_dir(root_, "mine", "own_rule_core");
  auto [core, entry] = explain("unknown-action-input", " --plugin-dir " + dir);
  EXPECT_EQ(core, 0) << entry;  // the core's entry, which needs no plugin
  EXPECT_THAT(entry, Not(HasSubstr("Taken.")));
  auto [code, out] = sarif("test-org/core", " --plugin-dir " + dir);
  EXPECT_EQ(code, 3) << out;
  EXPECT_THAT(out, HasSubstr("plugin-invalid-rule"));
  EXPECT_THAT(out, HasSubstr("the core's catalogue (docs/refusals.md) already holds that rule"));
}

TEST_F(PluginRules, TheInstallsIndexIsNotWrittenOverARuleTheCoreHolds) {
  const std::string good = author_dir(root_, "good", "own_rule");
  auto [written, out] = testing::run_reviewer("plugin-index " + good);
  EXPECT_EQ(written, 0) << out;
  EXPECT_TRUE(std::filesystem::exists(good + "/PLUGINS.index"));
  const std::string taken = author_dir(root_, "taken", "own_rule_core");
  auto [refused, why] = testing::run_reviewer("plugin-index " + taken);
  EXPECT_EQ(refused, 3) << why;
  EXPECT_THAT(why, HasSubstr("plugin-invalid-rule"));
  EXPECT_THAT(why, HasSubstr("gives rule 'unknown-action-input' an entry of its own"));
  EXPECT_FALSE(std::filesystem::exists(taken + "/PLUGINS.index"));
}

TEST_F(PluginRules, OneRuleGivenByTwoPluginsIsRefused) {
  const std::string a = author_dir(root_, "a", "own_rule");
  const std::string b = author_dir(root_, "b", "own_rule_twin");
  auto [code, out] = explain("test-own-rule", " --plugin-dir " + a + " --plugin-dir " + b);
  EXPECT_EQ(code, 2) << out;
  EXPECT_THAT(out, HasSubstr("plugin-invalid-rule"));
  EXPECT_THAT(out, HasSubstr("both give rule 'test-own-rule' an entry"));
}

TEST_F(PluginRules, AMalformedIdOrATextWithAnEscapeRefusesThePlugin) {
  auto [bad_id, why_id] =
      explain("test-x", " --plugin-dir " + author_dir(root_, "id", "own_rule_bad_id"));
  EXPECT_EQ(bad_id, 2) << why_id;
  EXPECT_THAT(why_id, HasSubstr("plugin-invalid-rule"));
  EXPECT_THAT(why_id, HasSubstr("has the id 'Test_Rule'"));
  auto [escape, why_escape] =
      explain("test-escape", " --plugin-dir " + author_dir(root_, "escape", "own_rule_escape"));
  EXPECT_EQ(escape, 2) << why_escape;
  EXPECT_THAT(why_escape, HasSubstr("plugin-invalid-rule"));
  EXPECT_THAT(why_escape, HasSubstr("holds a control character"));
  EXPECT_THAT(why_escape, Not(HasSubstr("\x1b")));
}

TEST_F(PluginRules, AFixtureWhoseRuleNoCatalogueHoldsFails) {
  for (const auto& [plugin, action, rule] :
       {std::tuple{"own_rule", "test-org/own", "test-own-rule"},
        std::tuple{"own_rule_none", "test-org/none", "test-uncatalogued"}}) {
    const std::string source = root_ / (std::string(plugin) + "-source");
    root_.write(std::string(plugin) + "-source/fixtures/cases.yml",
                std::string("cases:\n  - name: refused\n    steps:\n") +
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
                    "      - uses: " +
                    action + "@0123456789abcdef0123456789abcdef01234567\n" + "    expect: refuse " +
                    rule + "\n");
    auto [code, out] = testing::run_reviewer("fixtures " + source + " --plugin-dir " +
                                             author_dir(root_, plugin, plugin));
    if (std::string(plugin) == "own_rule") {
      EXPECT_EQ(code, 0) << out;
      EXPECT_THAT(out, HasSubstr("1 passed, 0 failed"));
    } else {
      EXPECT_EQ(code, 1) << out;
      EXPECT_THAT(out, HasSubstr("refusal rule 'test-uncatalogued' is in no catalogue"));
    }
  }
}

}  // namespace
}  // namespace reviewer::cli
