// The index reader against libgit2's, its oracle: on indexes real git writes (every version,
// flags, conflicts, long paths, extensions) and on thousands of mutations of them, whatever the
// reader accepts must be exactly what libgit2 reads, and whatever libgit2 refuses the reader
// must leave to libgit2.

#include "core/git/index_file.h"

#include <openssl/evp.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>

#include "core/git/index_entries.h"
#include "core/git/repository.h"
#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

std::string entry_text(const git_index_entry& e) {
  std::ostringstream s;
  s << e.path << " c" << e.ctime.seconds << "." << e.ctime.nanoseconds << " m" << e.mtime.seconds
    << "." << e.mtime.nanoseconds << " d" << e.dev << " i" << e.ino << " o" << e.mode << " u"
    << e.uid << " g" << e.gid << " s" << e.file_size << " f" << e.flags << " x" << e.flags_extended
    << " ";
  for (const unsigned char b : e.id.id) {
    s << static_cast<int>(b) << ",";
  }
  return s.str();
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The file with its trailing SHA-1 made right again, so a mutation reaches the parsing.
std::string resealed(std::string bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size() - 20, digest, &size, EVP_sha1(), nullptr);
  std::memcpy(bytes.data() + bytes.size() - 20, digest, 20);
  return bytes;
}

class IndexFileTest : public GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    use_shapes_source(
        "mkdir -p .github/workflows && echo 5 > .github/workflows/ci.yml && echo 6 > .gitignore");
    clone(1);
  }
  std::string index_path() const { return wt() + "/.git/index"; }

  // libgit2's reading of the index file as it is now, or nullopt when libgit2 refuses it.
  std::optional<std::vector<std::string>> by_libgit2() {
    auto repo = detail::open_worktree(wt(), home());
    EXPECT_TRUE(repo.ok());
    git_index* raw = nullptr;
    if (git_repository_index(&raw, repo->get()) != 0) {
      return std::nullopt;
    }
    detail::IndexPtr index(raw);
    std::vector<std::string> out;
    for (size_t i = 0; i < git_index_entrycount(raw); ++i) {
      out.push_back(entry_text(*git_index_get_byindex(raw, i)));
    }
    return out;
  }
  static std::optional<std::vector<std::string>> by_reader(const std::string& bytes) {
    auto parsed = detail::parse_index_file(bytes);
    if (!parsed) {
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const auto& e : parsed->entries) {
      out.push_back(entry_text(e));
    }
    return out;
  }
  // Through IndexEntries, as the guards read it.
  util::Result<detail::IndexEntries> entries() {
    auto repo = detail::open_worktree(wt(), home());
    EXPECT_TRUE(repo.ok());
    return detail::IndexEntries::read(repo->get(), detail::git_dir_of(wt()), kRuleRepository);
  }
  static std::vector<std::string> texts(const detail::IndexEntries& index) {
    std::vector<std::string> out;
    for (size_t i = 0; i < index.size(); ++i) {
      out.push_back(entry_text(*index.at(i)));
    }
    return out;
  }

  // The index as git left it: read without libgit2 (`expect_reader`) and equal to libgit2's.
  // `reader_alone`: whether parse_index_file itself (not knowing the configuration) reads it.
  void expect_same(bool expect_reader, bool reader_alone) {
    const auto oracle = by_libgit2();
    ASSERT_TRUE(oracle.has_value());
    auto index = entries();
    ASSERT_TRUE(index.ok());
    EXPECT_EQ(!index->read_by_libgit2(), expect_reader);
    EXPECT_EQ(texts(*index), *oracle);
    const auto mine = by_reader(read_all(index_path()));
    EXPECT_EQ(mine.has_value(), reader_alone);
    if (mine) {
      EXPECT_EQ(*mine, *oracle);
    }
  }

  // Bytes written as the index: libgit2 refuses them, and so does IndexEntries, by rule.
  void expect_refused(const std::string& bytes) {
    write_all(index_path(), bytes);
    EXPECT_FALSE(by_libgit2().has_value());
    EXPECT_FALSE(by_reader(bytes).has_value());
    auto index = entries();
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.error().rule, kRuleRepository);
  }

  // `rounds` single-byte mutations of the current index, checksum resealed: the reader either
  // declines or agrees with libgit2 entry for entry.
  void fuzz(int rounds, unsigned seed) {
    const std::string original = read_all(index_path());
    std::mt19937 rng(seed);
    int agreed = 0;
    for (int i = 0; i < rounds; ++i) {
      std::string bytes = original;
      const size_t at = rng() % (bytes.size() - 20);
      bytes[at] = static_cast<char>(rng() % 3 == 0 ? 0 : rng());
      bytes = resealed(bytes);
      const auto mine = by_reader(bytes);
      if (!mine) {
        continue;
      }
      write_all(index_path(), bytes);
      const auto oracle = by_libgit2();
      ASSERT_TRUE(oracle.has_value()) << "accepted what libgit2 refuses: byte " << at;
      ASSERT_EQ(*mine, *oracle) << "byte " << at;
      ++agreed;
    }
    write_all(index_path(), original);
    // Most mutations land in stat data and ids, which both readers take as they are.
    EXPECT_GT(agreed, rounds / 4);
  }
};

// .github and .gitignore start with ".git", but NTFS never takes them for it.
TEST_F(IndexFileTest, AFreshCloneIsReadWithoutLibgit2) {
  ASSERT_NE(read_all(index_path()).find(".github/workflows/ci.yml"), std::string::npos);
  expect_same(true, true);
}

TEST_F(IndexFileTest, EveryIndexVersionIsReadAsLibgit2ReadsIt) {
  in_wt("git update-index --index-version 3 && git update-index --skip-worktree a0");
  expect_same(true, true);
  in_wt("git update-index --index-version 4");
  expect_same(true, true);
  in_wt("git update-index --index-version 2 --no-skip-worktree a0");
  expect_same(true, true);
}

TEST_F(IndexFileTest, ConflictsAndAnInvalidatedTreeAreReadWithoutLibgit2) {
  in_wt(
      "echo 5 > a/b/new && git add a/b/new && h=$(git rev-parse :a.txt) && "
      "printf '100644 %s 1\\ta.txt\\n100644 %s 3\\ta.txt\\n' $h $h | git update-index "
      "--index-info");
  expect_same(true, true);
}

TEST_F(IndexFileTest, APathLongerThanTheNameFieldIsRead) {
  in_wt(
      "h=$(git rev-parse :a.txt) && git update-index --add --cacheinfo 100644,$h,$(printf "
      "'d%.0s' $(seq 5000))");
  expect_same(true, true);
  in_wt("git update-index --index-version 4");
  // libgit2 refuses a v4 path over its GIT_PATH_MAX, and the reader leaves that to libgit2.
  EXPECT_FALSE(by_libgit2().has_value());
  EXPECT_FALSE(by_reader(read_all(index_path())).has_value());
}

TEST_F(IndexFileTest, OtherOptionalExtensionsAreLeftToLibgit2) {
  in_wt(
      "git -c core.untrackedCache=true update-index --untracked-cache && git status -s >/dev/null");
  ASSERT_NE(read_all(index_path()).find("UNTR"), std::string::npos);
  expect_same(false, false);
}

// libgit2 sorts the entries case-insensitively then; that order is left to libgit2 to give.
TEST_F(IndexFileTest, CoreIgnorecaseIsLeftToLibgit2) {
  in_wt("git config core.ignorecase true");
  expect_same(false, true);
}

TEST_F(IndexFileTest, AMandatoryExtensionIsRefusedAsLibgit2RefusesIt) {
  in_wt("git update-index --split-index");
  expect_refused(read_all(index_path()));
}

TEST_F(IndexFileTest, ABadChecksumIsRefused) {
  std::string bytes = read_all(index_path());
  bytes[bytes.size() - 1] = static_cast<char>(bytes[bytes.size() - 1] ^ 1);
  expect_refused(bytes);
}

TEST_F(IndexFileTest, ATruncatedIndexIsRefused) {
  const std::string bytes = read_all(index_path());
  expect_refused(resealed(bytes.substr(0, 12 + 40) + std::string(20, '\0')));
}

// Hostile paths a step could write with a correct checksum: libgit2 refuses each.
TEST_F(IndexFileTest, TraversalAndGitDirectoryPathsAreRefused) {
  const std::string original = read_all(index_path());
  // "a-b/x" is the second entry; each replacement keeps its length.
  for (const std::string evil : {"../xx", "a/../", ".git/", "a/.gi", ".GIT/", ".git ", "GIT~1"}) {
    std::string bytes = original;
    const size_t at = bytes.find("a-b/x");
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at, 5, evil);
    if (evil == "a/.gi") {  // "a/.git" needs one byte more: the trailing NUL padding takes it
      bytes.replace(at, 6, std::string("a/.git"));
      bytes[at - 1] = 6;  // the name length, in the flags' low byte
    }
    SCOPED_TRACE(evil);
    expect_refused(resealed(bytes));
  }
}

TEST_F(IndexFileTest, ACorruptTreeExtensionIsRefused) {
  std::string bytes = read_all(index_path());
  const size_t at = bytes.find("TREE");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 8 + 1] = 'z';  // the root's entry count, after its empty name
  expect_refused(resealed(bytes));
}

TEST_F(IndexFileTest, MutationsTheReaderAcceptsAreReadAsLibgit2ReadsThem) {
  fuzz(1500, 1);
  in_wt("git update-index --index-version 4");
  fuzz(1500, 2);
}

}  // namespace
}  // namespace reviewer::git::testing
