// The project .npmrc settings a resolution at review time honours: read as npm's ini reader
// reads them, each value checked, everything else left to the review's own npm.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/deps/npm_resolution.h"
#include "core/deps/npmrc_resolution.h"
#include "core/util/unique_fd.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class NpmrcResolutionTest : public ::testing::Test {
 protected:
  util::Result<NpmrcResolution> read(const std::string& text) {
    std::ofstream(dir_ / ".npmrc", std::ios::trunc) << text;
    return read_tree();
  }
  util::Result<NpmrcResolution> read_tree() {
    util::UniqueFd fd(::open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    return npmrc_resolution(fd.get());
  }
  test_support::TempDir dir_;
};

TEST_F(NpmrcResolutionTest, NoFileMeansNoSettings) {
  auto r = read_tree();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(r->flags, IsEmpty());
}

// expressjs/express's .npmrc, as committed: only min-release-age changes what npm picks.
TEST_F(NpmrcResolutionTest, ExpresssNpmrcGivesItsReleaseAge) {
  auto r = read("package-lock=false\nmin-release-age=7\nignore-scripts=true\nallow-git=none\n");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(r->flags, ElementsAre("--min-release-age=7"));
  EXPECT_THAT(r->shown, ElementsAre("min-release-age=7"));
}

TEST_F(NpmrcResolutionTest, ReadAsNpmsIniReaderReadsIt) {
  auto r = read(
      "# a comment\n"
      "; min-release-age=1\n"
      "  legacy-peer-deps = true  \r\n"
      "tag=\"next\"\n"
      "install-strategy='nested'\n"
      "registry=https://registry.example.com/\n"
      "//registry.example.com/:_authToken=npm_SECRET\n"
      "legacy-peer-deps=false\n"
      "before=2026-11-01T00:00:00Z\n");
  ASSERT_TRUE(r) << r.error().to_string();
  // The last assignment wins, in the place of the first; the rest is the review npm's.
  EXPECT_THAT(r->flags, ElementsAre("--legacy-peer-deps=false", "--tag=next",
                                    "--install-strategy=nested", "--before=2026-11-01T00:00:00Z"));
}

TEST_F(NpmrcResolutionTest, ABareKeyIsTrueAndASectionIsNotTheTopLevel) {
  auto r = read("prefer-dedupe\n[other]\nmin-release-age=9\n");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(r->flags, ElementsAre("--prefer-dedupe=true"));
  auto bare = read("min-release-age\n");
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().rule, "dependency-npmrc-invalid");
}

TEST_F(NpmrcResolutionTest, AValueOutsideItsFormIsRefusedByName) {
  for (const char* text :
       {"min-release-age=7; rm -rf /\n", "min-release-age=\n", "legacy-peer-deps=yes\n",
        "install-strategy=flat\n", "tag=--registry=https://evil/\n", "before=$(date)\n"}) {
    auto r = read(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().rule, "dependency-npmrc-invalid") << text;
    EXPECT_THAT(r.error().message, HasSubstr("line 1")) << text;
  }
}

TEST_F(NpmrcResolutionTest, AnEnvironmentVariableIsRefusedForItIsCisNotTheReviews) {
  auto r = read("min-release-age=${RELEASE_AGE}\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-npmrc-invalid");
  EXPECT_THAT(r.error().message, HasSubstr("environment variable"));
}

TEST_F(NpmrcResolutionTest, ALinkAFifoOrAHugeFileIsRefused) {
  fs::create_symlink("/etc/passwd", dir_ / ".npmrc");
  auto link = read_tree();
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().rule, "dependency-npmrc-invalid");
  fs::remove(dir_ / ".npmrc");
  ASSERT_EQ(::mkfifo((dir_ / ".npmrc").c_str(), 0600), 0);
  auto fifo = read_tree();
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().rule, "dependency-npmrc-invalid");
  fs::remove(dir_ / ".npmrc");
  auto huge = read(std::string(70 * 1024, '#'));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().rule, "dependency-npmrc-invalid");
}

TEST(NpmResolutionCommandSettings, TheHonouredSettingsFollowTheFixedFlags) {
  const auto argv =
      npm_resolution_command("/resolve", "https://registry.npmjs.org/", {"--min-release-age=7"});
  ASSERT_GE(argv.size(), 2u);
  EXPECT_EQ(argv.back(), "--min-release-age=7");
  EXPECT_EQ(argv[1], "install");
}

}  // namespace
}  // namespace reviewer::deps
