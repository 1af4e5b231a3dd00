#include "core/deps/catalogue/node_release_notes.h"

#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

using test_support::TempDir;

std::string post(const std::string& date, const std::string& commits) {
  return "---\ndate: '" + date + "T16:19:07.684Z'\ncategory: release\n---\n\n### Commits\n\n" +
         commits;
}

TEST(NodeReleaseNotes, ThePostGivesItsDateAndTheNewestUpgradeItNames) {
  const auto note = read_node_release_note(
      post("2025-05-06",
           "- **deps**: upgrade npm to 11.1.0\n- **deps**: upgrade npm to 11.3.0\n"
           "- **deps**: upgrade npm to 11.2.0\n- **deps**: update corepack to 0.32.0\n"));
  EXPECT_EQ(note.date, "2025-05-06");
  EXPECT_EQ(note.npm, "11.3.0");
  EXPECT_EQ(note.corepack, "0.32.0");
  EXPECT_FALSE(note.drops_corepack);
}

TEST(NodeReleaseNotes, ARevertedUpgradeIsNotWhatTheReleaseBundles) {
  const auto note = read_node_release_note(post("2024-01-01",
                                                "- **deps**: upgrade npm to 10.2.0\n"
                                                "- Revert \"deps: upgrade npm to 10.3.0\"\n"));
  EXPECT_EQ(note.npm, "10.2.0");
}

TEST(NodeReleaseNotes, APostThatStopsDistributingCorepackSaysSo) {
  EXPECT_TRUE(
      read_node_release_note(
          post("2025-10-15", "- **(SEMVER-MAJOR)** **build**: stop distributing Corepack\n"))
          .drops_corepack);
}

TEST(NodeReleaseNotes, TheFolderGivesEveryStableReleasePostByVersion) {
  TempDir dir;
  dir.write("v24.18.1.md", post("2026-07-29", ""));
  dir.write("v24.18.0/page.md", post("2026-07-01", "- upgrade npm to 11.16.0\n"));
  dir.write("v25.0.0-rc.1.md", post("2025-10-01", ""));
  dir.write("README.md", "not a post");
  auto notes = read_node_release_notes(dir.path());
  ASSERT_TRUE(notes) << notes.error().message;
  ASSERT_EQ(notes->size(), 2u);
  EXPECT_EQ(notes->at("24.18.1").date, "2026-07-29");
  EXPECT_EQ(notes->at("24.18.0").npm, "11.16.0");
}

TEST(NodeReleaseNotes, AReleaseBundlesWhatItsLineLastUpgradedTo) {
  std::map<std::string, NodeReleaseNote> notes;
  notes["22.0.0"] = {"2024-04-24", "10.5.1", "0.26.0", false};
  notes["22.1.0"] = {"2024-05-02", "", "", false};
  notes["22.2.0"] = {"2024-05-15", "10.7.0", "", false};
  const auto bundles = node_bundles(notes, {"22.2.0", "22.0.0", "22.1.0"});
  EXPECT_EQ(bundles.at("22.0.0").npm, "10.5.1");
  EXPECT_EQ(bundles.at("22.1.0").npm, "10.5.1");
  EXPECT_EQ(bundles.at("22.1.0").corepack, "0.26.0");
  EXPECT_EQ(bundles.at("22.2.0").npm, "10.7.0");
  EXPECT_EQ(bundles.at("22.2.0").corepack, "0.26.0");
}

TEST(NodeReleaseNotes, AMissingPostLeavesTheLineUnknownUntilAPostNamesAVersionAgain) {
  std::map<std::string, NodeReleaseNote> notes;
  notes["20.0.0"] = {"2023-04-18", "9.6.4", "0.17.2", false};
  notes["20.2.0"] = {"2023-05-16", "", "", false};
  notes["20.3.0"] = {"2023-06-08", "9.6.7", "", false};
  const auto bundles = node_bundles(notes, {"20.0.0", "20.1.0", "20.2.0", "20.3.0"});
  EXPECT_EQ(bundles.at("20.1.0").npm, "");
  EXPECT_EQ(bundles.at("20.2.0").npm, "");
  EXPECT_EQ(bundles.at("20.2.0").corepack, "");
  EXPECT_EQ(bundles.at("20.3.0").npm, "9.6.7");
}

TEST(NodeReleaseNotes, ANewLineDoesNotInheritTheOlderLinesBundle) {
  std::map<std::string, NodeReleaseNote> notes;
  notes["23.11.0"] = {"2025-04-01", "10.9.2", "0.32.0", false};
  notes["24.0.0"] = {"2025-05-06", "11.3.0", "", false};
  const auto bundles = node_bundles(notes, {"23.11.0", "24.0.0"});
  EXPECT_EQ(bundles.at("24.0.0").npm, "11.3.0");
  EXPECT_EQ(bundles.at("24.0.0").corepack, "");
}

TEST(NodeReleaseNotes, FromTheLineThatDropsCorepackNoLaterLineBundlesIt) {
  std::map<std::string, NodeReleaseNote> notes;
  notes["24.11.0"] = {"2025-10-28", "11.6.1", "0.34.1", false};
  notes["25.0.0"] = {"2025-10-15", "11.6.2", "0.34.1", true};
  notes["26.0.0"] = {"2026-05-05", "11.12.0", "", false};
  const auto bundles = node_bundles(notes, {"24.11.0", "25.0.0", "26.0.0"});
  EXPECT_EQ(bundles.at("24.11.0").corepack, "0.34.1");
  EXPECT_EQ(bundles.at("25.0.0").corepack, "none");
  EXPECT_EQ(bundles.at("26.0.0").corepack, "none");
}

}  // namespace
}  // namespace reviewer::deps
