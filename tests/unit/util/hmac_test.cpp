#include "core/util/hmac.h"

#include <gtest/gtest.h>

namespace reviewer::util {
namespace {

// RFC 4231, test case 2.
TEST(Hmac, MatchesRfc4231) {
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hmac, ConstantTimeEqualityComparesLengthAndBytes) {
  EXPECT_TRUE(equal_in_constant_time("abc", "abc"));
  EXPECT_FALSE(equal_in_constant_time("abc", "abd"));
  EXPECT_FALSE(equal_in_constant_time("abc", "ab"));
  EXPECT_TRUE(equal_in_constant_time("", ""));
}

}  // namespace
}  // namespace reviewer::util
