#include "core/workflow/scalar_typing.h"

#include <gtest/gtest.h>

namespace reviewer::workflow {
namespace {

class Retyped : public ::testing::TestWithParam<const char*> {};
class Kept : public ::testing::TestWithParam<const char*> {};

TEST_P(Retyped, IsRefused) { EXPECT_TRUE(read_plain_scalar(GetParam()).refusal.has_value()); }
TEST_P(Kept, PassesAsWritten) {
  const auto read = read_plain_scalar(GetParam());
  EXPECT_FALSE(read.refusal.has_value());
  EXPECT_EQ(read.text, GetParam());
}

TEST(PlainScalar, BooleansPassOnInLowerCase) {
  for (const char* t : {"True", "TRUE"}) {
    EXPECT_EQ(read_plain_scalar(t).text, "true");
    EXPECT_FALSE(read_plain_scalar(t).refusal.has_value());
  }
  for (const char* f : {"False", "FALSE"}) {
    EXPECT_EQ(read_plain_scalar(f).text, "false");
  }
}

// Each would reach the step or action as other text on GitHub: 1.20 -> 1.2, 010 -> 10,
// 0x10 -> 16, 0o17 -> 15, 1e3 -> 1000, +5 -> 5, .5 -> 0.5, 1. -> 1, 0.00001 -> 1E-05,
// 16 digits -> rounded or exponent form.
INSTANTIATE_TEST_SUITE_P(CoreSchema, Retyped,
                         ::testing::Values("1.20", "20.10", "3.10", "010", "00", "0x10", "0xff",
                                           "0o17", "1e3", "1E3", "2.5e-1", "+5", "+1.5", "-0", ".5",
                                           "1.", "1.0", "-1.50", ".inf", "-.Inf", "+.INF", ".nan",
                                           ".NaN", "0.00001", "1234567890123456",
                                           "0.1234567890123456", "123456789.1234567"));

INSTANTIATE_TEST_SUITE_P(CoreSchema, Kept,
                         ::testing::Values("20", "0", "-7", "0.5", "-12.25", "22.22", "0.0001",
                                           "123456789012345", "1.5", "true", "false", "yes", "no",
                                           "on", "off", "y", "20.x", "22.22.1", "v1.20", "1_000",
                                           "0b101", "1.2.3", "-", ".", "e3", "0x", "0o8", "-.nan",
                                           "1e", "lts/*", "", "1.20 ", "node"));

}  // namespace
}  // namespace reviewer::workflow
