// The SDK's shared reading of a file a step names (reviewer/sdk/repository_file.hpp): where Node
// places it in the workspace, how values are quoted, where an offset stands, and the refusals
// every reader shares, in full.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/plugin_readers/memory_reader.h"

namespace plugin_readers {
namespace {

using reviewer::sdk::FileRefusal;
using reviewer::sdk::Place;
using testing::memory_files;

const Place kInput{".github/workflows/ci.yml", 7, 20};

std::string text_of(const reviewer::sdk::FileResult<std::string>& r) {
  return r ? *r
           : r.refusal().rule + ": " + r.refusal().message + " @" + r.refusal().where.to_string();
}

TEST(RepositoryFile, JoinAndResolveAsNodeDoes) {
  EXPECT_EQ(text_of(reviewer::sdk::join_in_workspace({"x", "/a//./b/../c", kInput})), "a/c");
  EXPECT_EQ(text_of(reviewer::sdk::join_in_workspace({"x", "a/..", kInput})), "");
  EXPECT_EQ(text_of(reviewer::sdk::join_in_workspace({"x", "a/../../b", kInput})),
            "version-file-outside: 'x' \"a/../../b\" leaves the workspace; the review reads "
            "version files of the repository under review only, so name a file inside it "
            "@.github/workflows/ci.yml:7:20");
  EXPECT_EQ(text_of(reviewer::sdk::resolve_in_workspace("apps/web", "../base.json", "w", kInput)),
            "apps/base.json");
  EXPECT_EQ(text_of(reviewer::sdk::resolve_in_workspace("", "/etc/x", "w", kInput)),
            "version-file-outside: w (an absolute path) leaves the workspace; the review reads "
            "version files of the repository under review only, so name a file inside it "
            "@.github/workflows/ci.yml:7:20");
  EXPECT_EQ(reviewer::sdk::base_name("a/b/package.json/"), "package.json");
  EXPECT_EQ(reviewer::sdk::directory_of("a/b/.nvmrc"), "a/b");
  EXPECT_EQ(reviewer::sdk::directory_of(".nvmrc"), "");
}

TEST(RepositoryFile, QuotesAsTheHostQuotes) {
  EXPECT_EQ(reviewer::sdk::in_quotes("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(reviewer::sdk::in_quotes(std::string("a\0\tb\xE2\x80\xA8", 7)),
            "\"a\\x00\\x09b\\xE2\\x80\\xA8\"");
  EXPECT_EQ(reviewer::sdk::in_quotes(std::string(130, 'x')),
            "\"" + std::string(120, 'x') + "...\"");
}

TEST(RepositoryFile, LocationOfAnOffset) {
  EXPECT_EQ(reviewer::sdk::location_in("a\nbc\nd", 3, "f").to_string(), "f:2:2");
  EXPECT_EQ(reviewer::sdk::location_in("abc", 0, "f").to_string(), "f:1:1");
}

// The refusals every reader shares: the workspace itself, a NUL byte, a missing file, a file the
// host may not read, and a host too old to read any.
TEST(RepositoryFile, SharedRefusalsInFull) {
  const auto files = memory_files({{".nvmrc", "22\n"}});
  const auto read = [&](const std::string& path) {
    return text_of(reviewer::sdk::read_version_file(files, path, "'f'", kInput, "then so"));
  };
  EXPECT_EQ(read(".nvmrc"), "22\n");
  EXPECT_EQ(read(""),
            "invalid-declaration: 'f' names \".\", which is the workspace itself, a directory; "
            "name a version file @.github/workflows/ci.yml:7:20");
  EXPECT_EQ(read(std::string(".nvmrc\0", 7)),
            "version-file-missing: 'f' names \".nvmrc\\x00\", which holds a NUL byte, so no "
            "file has that name; then so @.github/workflows/ci.yml:7:20");
  EXPECT_EQ(read("gone"),
            "version-file-missing: 'f' names \"gone\", which is not in the repository; then so "
            "@.github/workflows/ci.yml:7:20");
  const auto missing = reviewer::sdk::read_version_file(files, "gone", "'f'", kInput, "");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(missing.refusal().missing);
  const reviewer::sdk::RepositoryReader old_host = [](const std::string&, std::size_t) {
    return reviewer::sdk::RepositoryFile{};
  };
  EXPECT_EQ(text_of(reviewer::sdk::read_version_file(old_host, "package.json", "'f'", kInput, "")),
            "invalid-declaration: 'f' names \"package.json\", which cannot be read: this host "
            "reads no repository files (SDK 1.11); a version file must be a regular file of the "
            "worktree of at most 1048576 bytes, read without following links "
            "@.github/workflows/ci.yml:7:20");
}

// The reader asks the host for no more than the file's bound: one version, or one manifest.
TEST(RepositoryFile, BoundsByName) {
  EXPECT_EQ(reviewer::sdk::version_file_bound("apps/package.json"), 1048576U);
  EXPECT_EQ(reviewer::sdk::version_file_bound(".nvmrc"), 65536U);
  std::size_t asked = 0;
  const reviewer::sdk::RepositoryReader spy = [&](const std::string&, std::size_t max_bytes) {
    asked = max_bytes;
    return reviewer::sdk::RepositoryFile{reviewer::sdk::RepositoryFile::Status::kRead, "x"};
  };
  (void)reviewer::sdk::read_version_file(spy, ".tool-versions", "'f'", kInput, "");
  EXPECT_EQ(asked, 65536U);
}

}  // namespace
}  // namespace plugin_readers
