// `--plugin-dir`: a plugin author's built plugins, besides the installed ones, for `reviewer plan`
// and `reviewer fixtures`, each directory held to the install's checks.
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

class PluginDirOption : public ::testing::Test {
 protected:
  void SetUp() override {
    root_.write("ci.yml",
                "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: test-org/before@0123456789abcdef0123456789abcdef01234567\n"
                "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  }
  std::pair<int, std::string> plan(const std::string& extra) {
    return testing::run_reviewer("plan --workflow " + (root_ / "ci.yml") +
                                 " --job build --base main" + extra);
  }
  test_support::TempDir root_;
};

TEST_F(PluginDirOption, AnAuthorsPluginPlansBesideTheInstalledOnes) {
  auto [refused, why] = plan("");
  EXPECT_EQ(refused, 3) << why;
  EXPECT_THAT(why, HasSubstr("no reviewed plugin handles 'test-org/before'"));
  const std::string dir = author_dir(root_, "mine", "capable_before");
  auto [code, out] = plan(" --plugin-dir " + dir);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("test-org/before"));
}

TEST_F(PluginDirOption, ADirectoryWithoutItsManifestIsRefusedByName) {
  const std::string dir = author_dir(root_, "mine", "capable_before", false);
  auto [code, out] = plan(" --plugin-dir " + dir);
  EXPECT_EQ(code, 3) << out;
  EXPECT_THAT(out, HasSubstr("plugin-manifest"));
}

TEST_F(PluginDirOption, TwoDirectoriesClaimingOneActionAreRefused) {
  const std::string a = author_dir(root_, "a", "capable_before");
  const std::string b = author_dir(root_, "b", "capable_before");
  auto [code, out] = plan(" --plugin-dir " + a + " --plugin-dir " + b);
  EXPECT_EQ(code, 3) << out;
  EXPECT_THAT(out, HasSubstr("plugin-duplicate-action"));
  EXPECT_THAT(out, HasSubstr("both claim action 'test-org/before'"));
}

}  // namespace
}  // namespace reviewer::cli
