// JavaScript's Number() and number printing, which the language uses for every coercion; the
// expected values are what node prints for the same calls.
#include <gtest/gtest.h>

#include <cmath>

#include "core/expr/js_number.h"

namespace reviewer::expr {
namespace {

TEST(JsNumber, ReadsAsNumberDoes) {
  struct Case {
    const char* text;
    double value;
  };
  const Case cases[] = {
      {"", 0},
      {"  ", 0},
      {" 12 ", 12},
      {"\t1e3\n", 1000},
      {"0x1F", 31},
      {"0X10", 16},
      {"0o17", 15},
      {"0b101", 5},
      {".5", 0.5},
      {"5.", 5},
      {"-0.5", -0.5},
      {"+7", 7},
      {"1E-2", 0.01},
      {"007", 7},
      {"Infinity", HUGE_VAL},
      {"-Infinity", -HUGE_VAL},
      {"\xc2\xa0"
       "3",
       3},  // a no-break space is white space to JavaScript
  };
  for (const auto& c : cases) {
    EXPECT_EQ(parse_js_number(c.text), c.value) << c.text;
  }
  for (const char* nan : {"x", "1_000", "0x", "-0x10", "1.2.3", "inf", "nan", "infinity", "1e", ".",
                          "+", "0b2", "0o8", "1 2", "0x1p3"}) {
    EXPECT_TRUE(std::isnan(parse_js_number(nan))) << nan;
  }
  EXPECT_TRUE(std::signbit(parse_js_number("-0")));
}

TEST(JsNumber, PrintsAsToStringDoes) {
  struct Case {
    double value;
    const char* text;
  };
  const Case cases[] = {
      {0, "0"},
      {-0.0, "0"},
      {1, "1"},
      {-1.5, "-1.5"},
      {0.1, "0.1"},
      {1e21, "1e+21"},
      {1e20, "100000000000000000000"},
      {1.5e-7, "1.5e-7"},
      {1e-6, "0.000001"},
      {123456789012345680, "123456789012345680"},
      {HUGE_VAL, "Infinity"},
      {2.5e300, "2.5e+300"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(format_js_number(c.value), c.text) << c.value;
  }
  EXPECT_EQ(format_js_number(std::nan("")), "NaN");
}

TEST(JsNumber, ExpressionsPrintAtMostFifteenDecimals) {
  EXPECT_EQ(format_expression_number(0.1), "0.1");
  EXPECT_EQ(format_expression_number(1.0 / 3), "0.333333333333333");
  EXPECT_EQ(format_expression_number(1e-16), "0");
  EXPECT_EQ(format_expression_number(-1e-16), "0");
  EXPECT_EQ(format_expression_number(1.23456789012345678), "1.234567890123457");
  // An exact tie at the 16th decimal rounds up, as toFixed does (glibc's printf would round to
  // even): 1/65536 = 0.0000152587890625.
  EXPECT_EQ(format_expression_number(1.0 / 65536), "0.000015258789063");
  EXPECT_EQ(format_expression_number(1e21), "1e+21");
  EXPECT_EQ(format_expression_number(22), "22");
}

}  // namespace
}  // namespace reviewer::expr
