// The host's read_repository_file (SDK 1.11) over a worktree on disk: a plugin gets a regular
// file of the repository, bounded, or a missing answer, or the reason it may not be read; never a
// file through a link, a FIFO that would hang, a directory, or a path out of the repository.
#include "core/plan/repository_file_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/plan/repository_files.h"
#include "core/util/sha256.h"
#include "tests/support/temp_dir.h"

namespace reviewer::plan {
namespace {

using Outcome = plugins::RepositoryFileRead::Outcome;

class RepositoryFileReaderTest : public ::testing::Test {
 protected:
  void write(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(
        std::filesystem::path(dir_.path() + "/" + path).parent_path());
    std::ofstream(dir_.path() + "/" + path, std::ios::binary) << text;
  }
  // "read SHA", "missing", or "unreadable: WHY".
  std::string read(const std::string& path, std::size_t max_bytes = 64) const {
    const WorktreeFiles files(dir_.path());
    const auto answer = RepositoryFilesReader(files).read(path, max_bytes);
    switch (answer.outcome) {
      case Outcome::kRead:
        EXPECT_EQ(answer.sha256, util::sha256_hex(answer.bytes));
        return "read " + answer.bytes;
      case Outcome::kMissing:
        return "missing";
      case Outcome::kUnreadable:
        break;
    }
    return "unreadable: " + answer.bytes;
  }
  test_support::TempDir dir_;
};

TEST_F(RepositoryFileReaderTest, ReadsARegularFileWithItsSha256) {
  write("apps/.nvmrc", "22\n");
  EXPECT_EQ(read("apps/.nvmrc"), "read 22\n");
  const WorktreeFiles files(dir_.path());
  const auto answer = RepositoryFilesReader(files).read("apps/.nvmrc", 64);
  EXPECT_EQ(answer.sha256, util::sha256_hex("22\n"));
  EXPECT_EQ(answer.sha256.size(), 64U);
}

TEST_F(RepositoryFileReaderTest, EachFileThatMayNotBeReadSaysWhy) {
  write("real/.nvmrc", "22\n");
  write(".nvmrc-target", "22\n");
  ASSERT_EQ(::symlink(".nvmrc-target", (dir_.path() + "/.nvmrc").c_str()), 0);
  ASSERT_EQ(::symlink("real", (dir_.path() + "/linked").c_str()), 0);
  ASSERT_EQ(::mkfifo((dir_.path() + "/fifo").c_str(), 0600), 0);
  std::filesystem::create_directories(dir_.path() + "/versions");
  write("big", std::string(65, '2'));
  write("at-bound", std::string(64, '2'));
  EXPECT_EQ(read(".nvmrc"),
            "unreadable: is reached through a symbolic link (Too many levels of symbolic links)");
  EXPECT_EQ(read("linked/.nvmrc"),
            "unreadable: is reached through a symbolic link ('linked' is a symbolic link)");
  EXPECT_EQ(read("fifo"), "unreadable: is not a regular file");
  EXPECT_EQ(read("versions"), "unreadable: is not a regular file");
  EXPECT_EQ(read("big"), "unreadable: is over the 64-byte bound");
  EXPECT_EQ(read("at-bound"), "read " + std::string(64, '2'));
  EXPECT_EQ(read("gone"), "missing");
  EXPECT_EQ(read("gone/.nvmrc"), "missing");
}

TEST_F(RepositoryFileReaderTest, OnlyPlainPathsAreRead) {
  write(".nvmrc", "22\n");
  const std::string tail = "); name a file by a relative path without '.' or '..'";
  EXPECT_EQ(read("a/../.nvmrc"),
            "unreadable: is not a plain path in the repository (it has a '..' component" + tail);
  EXPECT_EQ(read("./.nvmrc"),
            "unreadable: is not a plain path in the repository (it has a '.' component" + tail);
  EXPECT_EQ(read("/etc/passwd"),
            "unreadable: is not a plain path in the repository (it is absolute" + tail);
  EXPECT_EQ(read("a//b"),
            "unreadable: is not a plain path in the repository (it has an empty component" + tail);
  EXPECT_EQ(read(""), "unreadable: is not a plain path in the repository (it is empty" + tail);
  EXPECT_EQ(read(std::string(".nvmrc\0x", 8)),
            "unreadable: is not a plain path in the repository (it holds a NUL byte" + tail);
}

// A plugin's bound is lowered to the host's: no plugin reads more than 1 MiB of a file.
TEST_F(RepositoryFileReaderTest, TheHostCapsTheBound) {
  write("package.json", std::string(REVIEWER_REPOSITORY_FILE_MAX_BYTES + 1, ' '));
  EXPECT_EQ(read("package.json", std::size_t{1} << 30),
            "unreadable: is over the 1048576-byte bound");
}

}  // namespace
}  // namespace reviewer::plan
