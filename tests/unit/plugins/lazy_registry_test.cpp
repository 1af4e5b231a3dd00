// The plugin index and the registry that loads a plugin only when a plan uses it: nothing is
// loaded (no plugin code runs) until then, what is loaded is still verified first, an unused
// tampered plugin is left unread by a build and refused by a full load (the self-check), and an
// index that does not describe the install is refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/plugins/plugin_index.h"
#include "core/plugins/write_index.h"
#include "tests/unit/plugins/plugin_dir.h"

namespace reviewer::plugins {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> rules_of(const report::Refusals& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) {
    out.push_back(r.rule);
  }
  return out;
}

// good (test-org/good, whose constructor leaves the marker) and throws (test-org/throws), with
// a manifest and the index `reviewer plugin-index` writes. The index is written from other
// copies of the same bytes: the dynamic loader would hand back a library it already loaded from
// the same inode without running its constructors again, hiding a load from the marker.
struct IndexedDir {
  IndexedDir() {
    PluginDir scratch;
    scratch.add("good");
    scratch.add("throws");
    scratch.write_manifest();
    written = write_index(scratch.path());
    good = d.add("good");
    throws = d.add("throws");
    d.write_manifest();
    if (written.ok()) {
      fs::copy_file(scratch.path() + "/" + kIndexName, d.path() + "/" + kIndexName);
      ::chmod((d.path() + "/" + kIndexName).c_str(), 0644);
    }
  }
  PluginDir d;
  std::string good;
  std::string throws;
  util::Status written = util::ok_status();
};

TEST(LazyRegistry, PlansFromTheIndexWithoutLoadingAnyPlugin) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  Marker marker;
  auto opened = Registry::open(dir.d.path());
  ASSERT_TRUE(opened.ok()) << opened.error().to_string();
  EXPECT_EQ(opened->size(), 2u);
  EXPECT_TRUE(opened->loaded().empty());
  ASSERT_NE(opened->claim("test-org/good"), nullptr);
  EXPECT_EQ(opened->claim("test-org/good")->refs.at(0).tag, "v1.0.0");
  EXPECT_EQ(opened->claim("test-org/unknown"), nullptr);
  EXPECT_FALSE(marker.exists()) << "a plugin was loaded before a plan asked for it";
}

TEST(LazyRegistry, LoadsOnlyThePluginAStepAsksFor) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  Marker marker;
  auto opened = Registry::open(dir.d.path());
  ASSERT_TRUE(opened.ok());
  auto throws = opened->plugin("test-org/throws");
  ASSERT_TRUE(throws.ok());
  ASSERT_NE(*throws, nullptr);
  EXPECT_EQ((*throws)->name, "throws");
  EXPECT_EQ(opened->loaded().size(), 1u);
  EXPECT_FALSE(marker.exists()) << "good.so was loaded though no step used it";
  auto good = opened->plugin("test-org/good");
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(marker.exists());
  EXPECT_EQ(opened->find("test-org/good"), *good);
  auto none = opened->plugin("test-org/unknown");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
}

TEST(LazyRegistry, ATamperedPluginAStepUsesIsRefusedByItsRuleBeforeItRuns) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  std::ofstream(dir.good, std::ios::app) << "tampered";
  Marker marker;
  auto opened = Registry::open(dir.d.path());
  ASSERT_TRUE(opened.ok()) << "an unread plugin cannot be found tampered before it is used";
  auto good = opened->plugin("test-org/good");
  ASSERT_FALSE(good.ok());
  EXPECT_THAT(rules_of(good.refusals()), ElementsAre("plugin-hash-mismatch"));
  EXPECT_THAT(good.error().message, ::testing::StartsWith("'good.so' has SHA-256 "));
  EXPECT_FALSE(marker.exists()) << "the tampered file was loaded";
  // Asked again, the same refusal, and still nothing loaded.
  EXPECT_THAT(rules_of(opened->plugin("test-org/good").refusals()),
              ElementsAre("plugin-hash-mismatch"));
  EXPECT_FALSE(marker.exists());
}

TEST(LazyRegistry, ATamperedPluginNoStepUsesIsLeftUnreadByABuildAndRefusedByTheSelfCheck) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  std::ofstream(dir.good, std::ios::app) << "tampered";
  Marker marker;
  auto opened = Registry::open(dir.d.path());
  ASSERT_TRUE(opened.ok());
  EXPECT_TRUE(opened->plugin("test-org/throws").ok());
  EXPECT_FALSE(marker.exists());
  // What the self-check does: every plugin verified and loaded.
  EXPECT_THAT(rules(Registry::load(dir.d.path())), ElementsAre("plugin-hash-mismatch"));
  EXPECT_FALSE(marker.exists());
}

TEST(LazyRegistry, WithoutAnIndexEveryPluginIsLoadedAsBefore) {
  PluginDir d;
  d.add("good");
  d.write_manifest();
  Marker marker;
  auto opened = Registry::open(d.path());
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->loaded().size(), 1u);
  EXPECT_TRUE(marker.exists());
}

TEST(LazyRegistry, RefusesAnIndexWrittenForOtherBytes) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  // A rebuilt plugin, reinstalled with its manifest but not its index.
  std::ofstream(dir.good, std::ios::app) << "rebuilt";
  dir.d.write_manifest();
  auto opened = Registry::open(dir.d.path());
  ASSERT_THAT(rules(opened), ElementsAre("plugin-index-stale"));
  EXPECT_THAT(opened.error().message,
              ::testing::StartsWith("the plugin index was written for a 'good.so' with SHA-256 "));
}

TEST(LazyRegistry, RefusesAPluginTheIndexDoesNotList) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  dir.d.add("good_twin");
  dir.d.write_manifest();
  auto opened = Registry::open(dir.d.path());
  ASSERT_THAT(rules(opened), ElementsAre("plugin-index-stale"));
  // Each stale index says how to mend it.
  EXPECT_EQ(opened.error().message,
            "'good_twin.so' is installed but not in the plugin index; rewrite the index from the "
            "verified plugins with `reviewer plugin-index " +
                dir.d.path() + "` (as the directory's owner)");
}

TEST(LazyRegistry, RefusesAPluginWhoseDescriptorClaimsOtherThanItsIndexEntry) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  auto index = read_index(dir.d.path());
  ASSERT_TRUE(index.ok() && index->has_value());
  (**index)["good.so"].claims[0].refs[0].tag = "v9.9.9";
  std::ofstream(dir.d.path() + "/" + kIndexName) << *format_index(**index);
  auto opened = Registry::open(dir.d.path());
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->claim("test-org/good")->refs[0].tag, "v9.9.9");
  auto good = opened->plugin("test-org/good");
  ASSERT_FALSE(good.ok());
  EXPECT_EQ(good.error().rule, "plugin-index-stale");
  EXPECT_THAT(good.error().message,
              ::testing::StartsWith("'good.so' claims other actions or reviewed releases than the "
                                    "plugin index says; rewrite the index"));
  EXPECT_THAT(rules(Registry::load(dir.d.path())), ElementsAre("plugin-index-stale"));
}

TEST(LazyRegistry, RefusesAnIndexWritableByOthers) {
  IndexedDir dir;
  ASSERT_TRUE(dir.written.ok());
  ::chmod((dir.d.path() + "/" + kIndexName).c_str(), 0666);
  EXPECT_THAT(rules(Registry::open(dir.d.path())), ElementsAre("plugin-permissions"));
}

TEST(PluginIndex, RoundTripsWhatItWrites) {
  PluginIndex index;
  index["a.so"] = {
      std::string(64, 'a'),
      {{"org/a", {{std::string(40, '1'), "v1"}, {std::string(40, '2'), "v2"}}, "2026-01-02"},
       {"run", {}, ""},
       {"org/c", {}, "", REVIEWER_CAPABILITY_CHECKOUT},
       {"org/h", {}, "", REVIEWER_CAPABILITY_BEFORE_CHECKOUT}}};
  auto text = format_index(index);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "reviewer plugin index 2\nplugin a.so " + std::string(64, 'a') +
                       "\nclaim org/a 2026-01-02 -\nref " + std::string(40, '1') + " v1\nref " +
                       std::string(40, '2') +
                       " v2\nclaim run - -\nclaim org/c - checkout\nclaim org/h - "
                       "before-checkout\n");
  auto parsed = parse_index(*text, "PLUGINS.index");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->at("a.so").claims, index["a.so"].claims);
}

TEST(PluginIndex, RefusesWhatItDoesNotWrite) {
  const struct {
    std::string text;
    std::uint32_t line;
    std::string message;
  } cases[] = {
      {"", 0, "the index is empty; its first line must be 'reviewer plugin index 2'"},
      // An older reviewer's index: read as it is, its claims would lose their capabilities.
      {"reviewer plugin index 1\n", 1,
       "the first line is not 'reviewer plugin index 2' (an index an older reviewer wrote?); "
       "write it anew with `reviewer plugin-index /p`"},
      {"reviewer plugin index 2\nclaim org/a - -\n", 2,
       "line is not 'plugin <file> <sha256>', 'claim <action> <date> <capabilities>' or 'ref "
       "<sha> <tag>' in that nesting"},
      {"reviewer plugin index 2\nplugin a.so " + std::string(64, 'a') + "\nclaim org/a -\n", 3,
       "line is not 'plugin <file> <sha256>', 'claim <action> <date> <capabilities>' or 'ref "
       "<sha> <tag>' in that nesting"},
      {"reviewer plugin index 2\nplugin a.so " + std::string(64, 'a') + "\nclaim org/a - x\n", 3,
       "the capabilities 'x' are not '-' or a ','-joined list of checkout and before-checkout"},
      {"reviewer plugin index 2\nplugin a.so " + std::string(64, 'a') +
           "\nclaim org/a - checkout,checkout\n",
       3,
       "the capabilities 'checkout,checkout' are not '-' or a ','-joined list of checkout and "
       "before-checkout"},
      {"reviewer plugin index 2\nplugin ../a.so " + std::string(64, 'a') + "\n", 2,
       "a plugin line is not 'plugin <file>.so <sha256>'"},
      {"reviewer plugin index 2\nplugin a.so " + std::string(64, 'a') + "\nplugin a.so " +
           std::string(64, 'a') + "\n",
       3, "'a.so' is listed twice"},
  };
  for (const auto& c : cases) {
    auto parsed = parse_index(c.text, "/p/PLUGINS.index");
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_EQ(parsed.error().rule, "plugin-index-invalid");
    EXPECT_EQ(parsed.error().message, c.message) << c.text;
    EXPECT_EQ(parsed.error().location->line, c.line) << c.text;
  }
  PluginIndex spaced;
  spaced["a.so"] = {std::string(64, 'a'), {{"org/a b", {}, ""}}};
  EXPECT_EQ(format_index(spaced).error().rule, "plugin-index-invalid");
}

}  // namespace
}  // namespace reviewer::plugins
