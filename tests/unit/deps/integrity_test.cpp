// The lock's integrity strings: sha512 or a refusal by name; the digest of a file.
#include "core/deps/integrity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

// ms@2.1.3 as the registry publishes it.
constexpr const char* kMs =
    "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/"
    "tXtF3WRTlA==";

TEST(Integrity, DecodesSha512ToHex) {
  auto hex = sha512_of_integrity(kMs, "x");
  ASSERT_TRUE(hex) << hex.error().to_string();
  EXPECT_EQ(hex->size(), 128u);
  EXPECT_EQ(integrity_of_hex(*hex), kMs);
}

TEST(Integrity, PicksSha512AmongOtherHashes) {
  auto hex = sha512_of_integrity(std::string("sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA= ") + kMs, "x");
  ASSERT_TRUE(hex);
  EXPECT_EQ(integrity_of_hex(*hex), kMs);
}

TEST(Integrity, RefusesMissingSha1OnlyAndMalformedByName) {
  for (const char* bad :
       {"", "sha1-Bq4E5zHqWqAFM2HNF0rjoZJ4bM8=", "sha512-short==",
        "sha512-!!!!ubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9"
        "xAOtHnSO/tXtF3WRTlA=="}) {
    auto hex = sha512_of_integrity(bad, "package-lock.json: \"node_modules/a\"");
    ASSERT_FALSE(hex) << bad;
    EXPECT_EQ(hex.error().rule, "dependency-integrity-missing");
    EXPECT_THAT(hex.error().message,
                ::testing::StartsWith("package-lock.json: \"node_modules/a\" has no"));
  }
  EXPECT_EQ(sha512_of_integrity("", "x").error().message,
            "x has no integrity; accepted: `sha512-<base64>`, which npm 5 and later record for "
            "every registry tarball; an update keeps the integrity an entry already has, so "
            "delete the lock file and install again");
}

TEST(Integrity, HashesAFileAndNeverFollowsALink) {
  test_support::TempDir dir;
  std::ofstream(dir / "f") << "abc";
  auto hex = sha512_file(dir / "f");
  ASSERT_TRUE(hex);
  EXPECT_EQ(*hex,
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c"
            "23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  std::filesystem::create_symlink(dir / "f", dir / "l");
  EXPECT_FALSE(sha512_file(dir / "l"));
}

}  // namespace
}  // namespace reviewer::deps
