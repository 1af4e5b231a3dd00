#include "core/launch/replace_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <iterator>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(ReplaceFile, ReplacesAReadOnlyForgery) {
  TempDir dir;
  dir.write("report.json", "forged");
  ASSERT_EQ(::chmod((dir / "report.json").c_str(), 0444), 0);
  auto fd = dir.open();
  ASSERT_TRUE(replace_file_at(fd.get(), "report.json", "honest", "/tmp/review/report.json"));
  EXPECT_EQ(dir.read("report.json"), "honest");
  EXPECT_EQ(fs::status(dir / "report.json").permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  EXPECT_EQ(entries(dir.path()), 1u) << "a temporary is left";
}

TEST(ReplaceFile, ReplacesALinkAndLeavesItsTargetAlone) {
  TempDir outside;
  outside.write("package.json", "precious");
  TempDir dir;
  fs::create_symlink(outside / "package.json", dir / "report.json");
  auto fd = dir.open();
  ASSERT_TRUE(replace_file_at(fd.get(), "report.json", "honest", "/tmp/review/report.json"));
  EXPECT_FALSE(fs::is_symlink(dir / "report.json"));
  EXPECT_EQ(dir.read("report.json"), "honest");
  EXPECT_EQ(outside.read("package.json"), "precious");
}

TEST(ReplaceFile, ReplacesAFifoWithoutBlocking) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "report.json").c_str(), 0644), 0);
  auto fd = dir.open();
  ASSERT_TRUE(replace_file_at(fd.get(), "report.json", "honest", "/tmp/review/report.json"));
  EXPECT_EQ(dir.read("report.json"), "honest");
}

TEST(ReplaceFile, ADirectoryInTheWayFailsByName) {
  TempDir dir;
  dir.write("report.json/inner", "x");
  auto fd = dir.open();
  auto written = replace_file_at(fd.get(), "report.json", "honest", "/tmp/review/report.json");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().to_string(),
            "report-unwritable: cannot write /tmp/review/report.json: Is a directory");
  EXPECT_EQ(entries(dir.path()), 1u) << "a temporary is left";
}

}  // namespace
}  // namespace reviewer::launch
