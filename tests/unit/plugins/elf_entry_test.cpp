#include "core/plugins/elf_entry.h"

#include <fcntl.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/util/unique_fd.h"

namespace reviewer::plugins {
namespace {

util::Result<std::vector<std::string>> symbols_of(const std::string& path) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  return section_symbols(fd.get(), "reviewer_plugins", path);
}

// Boost 1.74's library_info read this file's entry as "r" (the wrong string table).
TEST(ElfEntry, ReadsTheEntryNameFromTheLinkedStringTable) {
  auto s = symbols_of(REVIEWER_ABI_TEST_DIR "/descriptor_v2.so");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_THAT(*s, ::testing::ElementsAre("reviewer_plugin_v1"));
  auto w = symbols_of(REVIEWER_ABI_TEST_DIR "/wrong_abi.so");
  ASSERT_TRUE(w.ok());
  EXPECT_THAT(*w, ::testing::ElementsAre("reviewer_plugin_v2"));
}

TEST(ElfEntry, AFileWithoutTheSectionHasNoEntry) {
  auto s = symbols_of(REVIEWER_ABI_TEST_DIR "/no_entry.so");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->empty());
}

TEST(ElfEntry, TruncatedAndForeignFilesAreMalformedNotCrashes) {
  std::string good = REVIEWER_ABI_TEST_DIR "/good.so";
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::string tmp = std::filesystem::temp_directory_path() / "reviewer-elf-test.so";
  // Every prefix length class: header only, headers cut, tables cut.
  for (std::size_t n :
       {std::size_t{0}, std::size_t{16}, std::size_t{64}, bytes.size() / 2, bytes.size() - 1}) {
    std::ofstream(tmp, std::ios::binary | std::ios::trunc) << bytes.substr(0, n);
    auto s = symbols_of(tmp);
    if (!s.ok()) {
      EXPECT_EQ(s.error().rule, "plugin-malformed") << n;
    }
  }
  // Section header offsets pointing far outside the file.
  std::string corrupt = bytes;
  for (int i = 0; i < 8; ++i) {
    corrupt[0x28 + i] = '\x7f';
  }
  std::ofstream(tmp, std::ios::binary | std::ios::trunc) << corrupt;
  auto s = symbols_of(tmp);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().rule, "plugin-malformed");
  std::filesystem::remove(tmp);
}

}  // namespace
}  // namespace reviewer::plugins
