// The host id a review's sandbox maps its steps' user to, read from podman's inspect, and the
// clone given to it without following a link the clone holds.
#include "core/host/user_namespace.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace reviewer::host {
namespace {

TEST(MappedHostIds, ReadsTheRangeThatHoldsTheId) {
  auto ids = mapped_host_ids(
      R"({"UidMap":["0:1000000000:65536"],"GidMap":["0:1000000000:500","500:1200000000:65036"]})",
      1000);
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ(ids->uid, 1000001000u);
  EXPECT_EQ(ids->gid, 1200000500u);
}

TEST(MappedHostIds, RefusesNoMappingOrOneOntoTheHostsAccounts) {
  for (const char* text : {R"({"UidMap":null,"GidMap":null})", "not json", R"({"UidMap":[]})",
                           R"({"UidMap":["0:1000000000:999"],"GidMap":["0:1000000000:999"]})",
                           R"({"UidMap":["0:0:65536"],"GidMap":["0:0:65536"]})",
                           R"({"UidMap":["0:1000000000:65536x"],"GidMap":["0:1:1"]})"}) {
    auto ids = mapped_host_ids(text, 1000);
    ASSERT_FALSE(ids) << text;
    EXPECT_EQ(ids.error().rule, "host-command") << text;
  }
}

TEST(GiveTreeTo, ChangesEveryEntryAndNoLinksTarget) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "changing owners needs root";
  }
  test_support::TempDir dir;
  const std::string root = dir.path() + "/clone";
  std::filesystem::create_directories(root + "/a/b");
  std::ofstream(root + "/a/b/file") << "x";
  const std::string outside = dir.path() + "/outside";
  std::ofstream(outside) << "host";
  std::filesystem::create_symlink(outside, root + "/link");
  ASSERT_TRUE(give_tree_to(root, {1000001000, 1000001001}));
  for (const char* path : {"", "/a", "/a/b", "/a/b/file", "/link"}) {
    struct stat st {};
    ASSERT_EQ(::lstat((root + path).c_str(), &st), 0) << path;
    EXPECT_EQ(st.st_uid, 1000001000u) << path;
    EXPECT_EQ(st.st_gid, 1000001001u) << path;
  }
  struct stat st {};
  ASSERT_EQ(::stat(outside.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 0u) << "the link's target was changed";
}

}  // namespace
}  // namespace reviewer::host
