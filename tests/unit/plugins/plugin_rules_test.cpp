// A plugin's own rules as the host copies them from its descriptor (SDK 1.11): each entry that
// could be shown wrongly refuses the plugin with plugin-invalid-rule.
#include "core/plugins/plugin_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace reviewer::plugins {
namespace {

using ::testing::HasSubstr;

util::Result<std::vector<PluginRule>> copied(const std::vector<reviewer_rule_entry>& entries) {
  reviewer_plugin_descriptor d{};
  d.rules = entries.empty() ? nullptr : entries.data();
  d.rule_count = entries.size();
  return copy_rules(d, "/plugins/p.so");
}

TEST(PluginRules, WellFormedEntriesAreCopied) {
  auto none = copied({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  auto got = copied({{"p-first", "One.\n\n\tTwo."}, {"p2", "Three."}});
  ASSERT_TRUE(got) << got.error().to_string();
  EXPECT_EQ(*got, (std::vector<PluginRule>{{"p-first", "One.\n\n\tTwo."}, {"p2", "Three."}}));
}

TEST(PluginRules, EveryEntryThatCouldBeShownWronglyIsRefused) {
  const std::string long_text(16 * 1024 + 1, 'x');
  const std::string long_id(65, 'a');
  const std::vector<std::pair<std::vector<reviewer_rule_entry>, std::string>> cases = {
      {{{nullptr, "x"}}, "has the id ''"},
      {{{"", "x"}}, "has the id ''"},
      {{{"Upper", "x"}}, "has the id 'Upper'"},
      {{{"-lead", "x"}}, "has the id '-lead'"},
      {{{"trail-", "x"}}, "has the id 'trail-'"},
      {{{"two--dashes", "x"}}, "has the id 'two--dashes'"},
      {{{"under_score", "x"}}, "has the id 'under_score'"},
      {{{long_id.c_str(), "x"}}, "not lower-case words"},
      {{{"twice", "a"}, {"twice", "b"}}, "'twice' is listed twice"},
      {{{"empty", ""}}, "has an empty catalogue entry"},
      {{{"none", nullptr}}, "has an empty catalogue entry"},
      {{{"long", long_text.c_str()}}, "has a too long catalogue entry"},
      {{{"escape", "red \x1b[31m"}}, "holds a control character"},
      {{{"bell", "ring\a"}}, "holds a control character"},
      {{{"cr", "line\rover"}}, "holds a control character"},
      {{{"del", "x\x7f"}}, "holds a control character"},
  };
  for (const auto& [entries, why] : cases) {
    auto got = copied(entries);
    ASSERT_FALSE(got) << why;
    EXPECT_EQ(got.error().rule, "plugin-invalid-rule") << why;
    EXPECT_THAT(got.error().message, HasSubstr(why));
    EXPECT_EQ(got.error().location->file, "/plugins/p.so");
  }
}

}  // namespace
}  // namespace reviewer::plugins
