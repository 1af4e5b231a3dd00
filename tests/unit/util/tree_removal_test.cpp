#include "core/util/tree_removal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace reviewer::util {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;

TEST(TreeRemoval, RemovesATreeWithoutFollowingItsLinks) {
  TempDir outside;
  outside.write("keep/file", "precious");
  TempDir tmp;
  tmp.write("tree/a/b/file", "x");
  fs::create_directory_symlink(outside / "keep", tmp / "tree/a/dir-link");
  fs::create_symlink(outside / "keep/file", tmp / "tree/file-link");
  ASSERT_EQ(::mkfifo((tmp / "tree/fifo").c_str(), 0600), 0);
  ASSERT_EQ(::chmod((tmp / "tree/a/b").c_str(), 0), 0);
  ASSERT_EQ(::chmod((tmp / "tree/a").c_str(), 0500), 0);

  auto fd = tmp.open();
  auto removed = util::remove_entry(fd.get(), "tree", "/tmp/tree");
  ASSERT_TRUE(removed) << removed.error().to_string();
  EXPECT_FALSE(tmp.has("tree"));
  EXPECT_EQ(outside.read("keep/file"), "precious");
}

TEST(TreeRemoval, ALinkToADirectoryIsRemovedItself) {
  TempDir outside;
  outside.write("keep/file", "precious");
  TempDir tmp;
  fs::create_directory_symlink(outside / "keep", tmp / "link");
  auto fd = tmp.open();
  ASSERT_TRUE(util::remove_entry(fd.get(), "link", "/tmp/link"));
  EXPECT_FALSE(tmp.has("link"));
  EXPECT_EQ(outside.read("keep/file"), "precious");
}

TEST(TreeRemoval, AMissingEntryIsAlreadyRemoved) {
  TempDir tmp;
  auto fd = tmp.open();
  EXPECT_TRUE(util::remove_entry(fd.get(), "nothing", "/tmp/nothing"));
}

TEST(TreeRemoval, ATreeDeeperThanTheBoundFailsByName) {
  TempDir tmp;
  std::string rel = "deep";
  for (int i = 0; i < 260; ++i) {
    rel += "/d";
  }
  fs::create_directories(tmp / rel);
  auto fd = tmp.open();
  auto removed = util::remove_entry(fd.get(), "deep", "/tmp/deep");
  ASSERT_FALSE(removed);
  EXPECT_EQ(removed.error().rule, "cleanup-failed");
  EXPECT_THAT(removed.error().message,
              ::testing::MatchesRegex("cannot remove '/tmp/deep(/d)+': nested deeper than 256 "
                                      "directories: .*"));
}

TEST(TreeRemoval, ListsEveryNameEachTime) {
  TempDir tmp;
  tmp.write("a", "");
  tmp.write("b", "");
  auto fd = tmp.open();
  auto first = util::list_directory(fd.get(), "/tmp");
  auto second = util::list_directory(fd.get(), "/tmp");
  ASSERT_TRUE(first && second);
  EXPECT_THAT(*first, ::testing::UnorderedElementsAre("a", "b"));
  EXPECT_THAT(*second, ::testing::UnorderedElementsAre("a", "b")) << "the offset is shared";
}

}  // namespace
}  // namespace reviewer::util
