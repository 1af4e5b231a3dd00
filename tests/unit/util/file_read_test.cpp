#include "core/util/file_read.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace reviewer::util {
namespace {

std::string outcome(const Result<std::string>& r) {
  return r ? "ok: " + *r : r.error().rule + ": " + r.error().message;
}

TEST(ReadRegularFile, ReadsWithinTheBound) {
  test_support::TempDir dir;
  dir.write("f", "hello");
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "f", {5})), "ok: hello");
}

TEST(ReadRegularFile, RefusesALargerFileNamingBothSizes) {
  test_support::TempDir dir;
  dir.write("f", "hello!");
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "f", {5})),
            "file-too-large: is 6 bytes, over the 5-byte bound");
}

TEST(ReadRegularFile, TruncatesWhenAsked) {
  test_support::TempDir dir;
  dir.write("f", "hello!");
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "f", {5, false, true})), "ok: hello");
}

TEST(ReadRegularFile, NeverFollowsALinkUnlessAsked) {
  test_support::TempDir dir;
  dir.write("target", "secret");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "link").c_str()), 0);
  EXPECT_EQ(read_regular_file(AT_FDCWD, dir / "link").error().rule, kFileSymlink);
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "link", {64, true})), "ok: secret");
}

TEST(ReadRegularFile, RefusesWhatIsNotARegularFileWithoutBlocking) {
  test_support::TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "fifo")),
            "file-not-regular: not a regular file");
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir.path())),
            "file-not-regular: not a regular file");
}

TEST(ReadRegularFile, NamesAMissingFile) {
  test_support::TempDir dir;
  EXPECT_EQ(outcome(read_regular_file(AT_FDCWD, dir / "none")),
            "file-missing: No such file or directory");
}

TEST(ReadRegularFile, ReadsRelativeToADirectory) {
  test_support::TempDir dir;
  dir.write("f", "x");
  UniqueFd d(::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  EXPECT_EQ(outcome(read_regular_file(d.get(), "f")), "ok: x");
}

TEST(ReadRegularFile, ReadsProcFilesThatReportSizeZero) {
  auto r = read_regular_file(AT_FDCWD, "/proc/self/environ", {1 << 20, true});
  ASSERT_TRUE(r) << r.error().message;
}

}  // namespace
}  // namespace reviewer::util
