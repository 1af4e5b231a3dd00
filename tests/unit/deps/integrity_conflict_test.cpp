// One tarball, one integrity: the spellings of a registry URL that name one tarball, and a list
// that pins one with two integrities refused entry by entry, by name.
#include "core/deps/integrity_conflict.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/deps/integrity.h"

namespace reviewer::deps {
namespace {

TEST(TarballIdentity, SpellingsCurlFetchesAsOneUrlAreOneTarball) {
  const std::string url = "https://registry.npmjs.org/@s/a/-/a-1.0.0.tgz";
  for (const char* spelling : {"https://registry.npmjs.org/@s/a/-/a-1.0.0.tgz",
                               "https://registry.npmjs.org/@s/a/-/./a-1.0.0.tgz",
                               "https://registry.npmjs.org//@s/./a/-/././a-1.0.0.tgz",
                               "https://registry.npmjs.org/@s/a//-/a-1.0.0.tgz"}) {
    EXPECT_EQ(tarball_identity(spelling), url) << spelling;
  }
  EXPECT_NE(tarball_identity("https://registry.npmjs.org/@s/a/-/a-1.0.1.tgz"), url);
  EXPECT_NE(tarball_identity("https://registry.npmjs.org/a/-/a-1.0.0.tgz"), url);
}

Pinned pinned(const std::string& what, const std::string& url, char hex) {
  return {what, url, std::string(128, hex), "", ""};
}

TEST(IntegrityConflict, EachEntryThatDiffersFromTheFirstIsRefusedByName) {
  FetchList list;
  list.tarballs = {
      pinned("package-lock.json: \"node_modules/a\"", "https://r.test/a/-/a-1.tgz", 'a'),
      pinned("package-lock.json: \"node_modules/b\"", "https://r.test/b/-/b-1.tgz", 'b'),
      pinned("package-lock.json: \"node_modules/x/node_modules/a\"", "https://r.test/a/-/./a-1.tgz",
             'c'),
      pinned("pnpm-lock.yaml: \"a@1\"", "https://r.test/a/-/a-1.tgz", 'a'),
      pinned("bun.lock: \"a\"", "https://r.test/a//-/a-1.tgz", 'd')};
  auto r = check_one_integrity_per_url(list);
  ASSERT_FALSE(r);
  ASSERT_EQ(r.refusals().size(), 2u);
  EXPECT_EQ(r.refusals()[0].rule, "dependency-integrity-conflict");
  EXPECT_EQ(
      r.refusals()[0].message,
      "package-lock.json: \"node_modules/x/node_modules/a\" pins https://r.test/a/-/./a-1.tgz "
      "with integrity " +
          integrity_of_hex(std::string(128, 'c')) +
          ", but package-lock.json: \"node_modules/a\" pins the same tarball with " +
          integrity_of_hex(std::string(128, 'a')) +
          "; a tarball has one integrity, and the review downloads it once; accepted: the "
          "integrity the registry publishes for it, in every entry that names it "
          "(regenerate the lock file)");
  EXPECT_THAT(r.refusals()[1].message, ::testing::StartsWith("bun.lock: \"a\" pins "));
}

// One integrity at two URLs is not a conflict: each URL is downloaded and verified on its own.
TEST(IntegrityConflict, OneIntegrityAtTwoUrlsOrTwiceAtOneIsAccepted) {
  FetchList list;
  list.tarballs = {pinned("a", "https://r.test/a/-/a-1.tgz", 'a'),
                   pinned("b", "https://r.test/b/-/b-1.tgz", 'a'),
                   pinned("c", "https://r.test/a/-/a-1.tgz", 'a')};
  EXPECT_TRUE(check_one_integrity_per_url(list));
}

}  // namespace
}  // namespace reviewer::deps
