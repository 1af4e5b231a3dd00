// The runner's yarn for each job: unpacked by the launcher from the view's tarball into the job's
// own scratch, its bin directory for the job's PATH; nothing without a tarball, a named line for
// one that is not a yarn.
#include "core/deps/provision/runner_yarn.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "core/contract/view_layout.h"
#include "tests/support/npm_tarball.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

const std::string kTarball =
    std::string(contract::kPackageManagerDir) + "/yarn-" + contract::kRunnerYarnVersion + ".tgz";

void pack(const test_support::TempDir& view, const std::vector<std::string>& files) {
  test_support::pack_npm_tarball(view, kTarball, files);
}

TEST(RunnerYarn, UnpacksTheViewsYarnIntoTheJobsScratch) {
  test_support::TempDir view;
  test_support::TempDir job;
  pack(view, {"bin/yarn.js", "bin/yarn", "lib/cli.js", "package.json"});
  auto bin = unpack_runner_yarn(view.path(), job.path() + "/yarn");
  ASSERT_TRUE(bin) << bin.error().message;
  EXPECT_EQ(*bin, job.path() + "/yarn/bin");
  EXPECT_TRUE(fs::is_regular_file(*bin + "/yarn.js"));
  EXPECT_TRUE(fs::is_regular_file(job.path() + "/yarn/lib/cli.js"));
}

TEST(RunnerYarn, NoTarballIsNoYarn) {
  test_support::TempDir view;
  test_support::TempDir job;
  auto bin = unpack_runner_yarn(view.path(), job.path() + "/yarn");
  ASSERT_TRUE(bin);
  EXPECT_EQ(*bin, "");
  EXPECT_FALSE(fs::exists(job.path() + "/yarn"));
  EXPECT_EQ(yarn_offline_mirror(view.path()), "");
  fs::create_directory(view.path() + "/" + contract::kYarnMirrorDir);
  EXPECT_EQ(yarn_offline_mirror(view.path()), view.path() + "/yarn-mirror");
}

TEST(RunnerYarn, ATarballWithoutYarnOrALinkIsNamed) {
  test_support::TempDir view;
  test_support::TempDir job;
  pack(view, {"README.md"});
  auto empty = unpack_runner_yarn(view.path(), job.path() + "/yarn");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().rule, "dependency-unpack");
  EXPECT_EQ(empty.error().message,
            view.path() + "/" + kTarball + " holds no bin/yarn.js; yarn is not put on PATH");
  fs::remove(view.path() + "/" + kTarball);
  fs::create_symlink("/etc/passwd", view.path() + "/" + kTarball);
  auto link = unpack_runner_yarn(view.path(), job.path() + "/yarn2");
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().message,
            view.path() + "/" + kTarball + " is not a regular file; yarn is not put on PATH");
}

TEST(RunnerYarn, ATarballTarCannotReadIsNamed) {
  test_support::TempDir view;
  test_support::TempDir job;
  view.write(kTarball, "not gzip");
  auto bad = unpack_runner_yarn(view.path(), job.path() + "/yarn");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rule, "dependency-unpack");
  EXPECT_EQ(bad.error().message.rfind("cannot unpack yarn 1.22.22 into " + job.path(), 0), 0u)
      << bad.error().message;
}

}  // namespace
}  // namespace reviewer::deps
