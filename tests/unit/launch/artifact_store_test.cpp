// The artifact store treats the worktree as hostile: each test feeds one attack (a link, a FIFO,
// a path that climbs out, a hard link, too much) and fails if the control is removed.
#include "core/launch/artifact_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;
using ::testing::HasSubstr;

TEST(ArtifactStoreTest, StoresWhatTheFilesHeldAtUploadAndRestoresItElsewhere) {
  TempDir ws;
  ws.write("dist/a.txt", "one");
  ws.write("dist/sub/b.txt", "two");
  ArtifactStore store;
  ASSERT_TRUE(
      store.store(ws.path(), "dist", {{"dist/a.txt", "a.txt"}, {"dist/sub/b.txt", "sub/b.txt"}}));
  ws.write("dist/a.txt", "changed after the upload");
  auto restored = store.restore(ws.path(), "dist", "out/x");
  ASSERT_TRUE(restored);
  EXPECT_TRUE(*restored);
  EXPECT_EQ(ws.read("out/x/a.txt"), "one");
  EXPECT_EQ(ws.read("out/x/sub/b.txt"), "two");
  EXPECT_EQ(store.names(), std::vector<std::string>{"dist"});
  EXPECT_FALSE(*store.restore(ws.path(), "other", ""));
  EXPECT_EQ(store.store(ws.path(), "dist", {}).error().rule, "artifact-name-not-unique");
}

TEST(ArtifactStoreTest, AWalkReportsLinksAndNeverEntersThem) {
  TempDir ws;
  ws.write("dist/a.txt", "one");
  fs::create_directory_symlink("/etc", ws / "dist/etc");
  ArtifactStore store;
  auto walked = store.walk(ws.path(), "dist");
  ASSERT_TRUE(walked);
  ASSERT_TRUE(*walked);
  std::vector<std::string> paths;
  for (const auto& e : **walked) {
    paths.push_back(e.path + (e.kind == ArtifactStore::Kind::kLink ? "@" : ""));
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"dist", "dist/a.txt", "dist/etc@"}));
  fs::create_directory_symlink("/etc", ws / "linked");
  EXPECT_EQ(store.walk(ws.path(), "linked/passwd").error().rule, "artifact-link");
  EXPECT_FALSE(*store.walk(ws.path(), "missing/x"));
}

TEST(ArtifactStoreTest, ALinkOrAFifoIsNeverRead) {
  TempDir ws;
  fs::create_directories(ws / "dist");
  fs::create_symlink("/etc/passwd", ws / "dist/passwd");
  ASSERT_EQ(::mkfifo((ws / "dist/fifo").c_str(), 0600), 0);
  ArtifactStore store;
  auto link = store.store(ws.path(), "a", {{"dist/passwd", "passwd"}});
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().rule, "artifact-link");
  EXPECT_THAT(link.error().message, HasSubstr("'dist/passwd' is a link"));
  // A FIFO would block a read for ever; it is refused without waiting.
  EXPECT_EQ(store.store(ws.path(), "b", {{"dist/fifo", "fifo"}}).error().rule,
            "artifact-source-refused");
  EXPECT_TRUE(store.names().empty());
}

TEST(ArtifactStoreTest, PathsThatClimbOutAreRefused) {
  TempDir ws;
  ws.write("a.txt", "one");
  ArtifactStore store;
  EXPECT_EQ(store.store(ws.path(), "a", {{"a.txt", "../escape"}}).error().rule,
            "artifact-path-refused");
  EXPECT_EQ(store.store(ws.path(), "a", {{"../a.txt", "a.txt"}}).error().rule,
            "artifact-path-refused");
  ASSERT_TRUE(store.store(ws.path(), "a", {{"a.txt", "a.txt"}}));
  EXPECT_EQ(store.restore(ws.path(), "a", "..").error().rule, "artifact-path-refused");
  EXPECT_EQ(store.restore(ws.path(), "a", "/tmp").error().rule, "artifact-path-refused");
}

TEST(ArtifactStoreTest, ALinkAtTheDestinationIsNotFollowed) {
  TempDir outside;
  TempDir ws;
  ws.write("a.txt", "one");
  ArtifactStore store;
  ASSERT_TRUE(store.store(ws.path(), "a", {{"a.txt", "a.txt"}}));
  fs::create_directory_symlink(outside.path(), ws / "out");
  auto r = store.restore(ws.path(), "a", "out");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "artifact-destination-refused");
  EXPECT_FALSE(outside.has("a.txt"));
  // A link in the file's own place is replaced, its target left alone.
  outside.write("target", "precious");
  fs::create_directories(ws / "in");
  fs::create_symlink(outside / "target", ws / "in/a.txt");
  ASSERT_TRUE(store.restore(ws.path(), "a", "in"));
  EXPECT_EQ(outside.read("target"), "precious");
  EXPECT_EQ(ws.read("in/a.txt"), "one");
}

TEST(ArtifactStoreTest, AHardLinkAtTheDestinationIsReplacedNotWrittenThrough) {
  TempDir ws;
  ws.write("a.txt", "one");
  ws.write("precious", "keep");
  ArtifactStore store;
  ASSERT_TRUE(store.store(ws.path(), "a", {{"a.txt", "a.txt"}}));
  fs::create_directories(ws / "out");
  fs::create_hard_link(ws / "precious", ws / "out/a.txt");
  ASSERT_TRUE(store.restore(ws.path(), "a", "out"));
  EXPECT_EQ(ws.read("precious"), "keep");
  EXPECT_EQ(ws.read("out/a.txt"), "one");
}

TEST(ArtifactStoreTest, BoundsAreNamed) {
  TempDir ws;
  ws.write("a.txt", "0123456789");
  ws.write("b.txt", "x");
  ArtifactStore small(ArtifactStore::Bounds{3, 2, 1, 5});
  EXPECT_EQ(small.store(ws.path(), "big", {{"a.txt", "a.txt"}}).error().rule, "artifact-too-large");
  EXPECT_EQ(small.store(ws.path(), "many", {{"b.txt", "b"}, {"b.txt", "c"}}).error().rule,
            "artifact-too-large");
  ws.write("d/e/f/g.txt", "deep");
  EXPECT_EQ(small.walk(ws.path(), "d").error().rule, "artifact-too-large");
  EXPECT_EQ(small.walk(ws.path(), "").error().rule, "artifact-too-large");
}

}  // namespace
}  // namespace reviewer::launch
