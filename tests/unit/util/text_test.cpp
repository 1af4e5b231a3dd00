#include "core/util/text.h"

#include <gtest/gtest.h>

namespace reviewer::util {
namespace {

TEST(Trim, RemovesAsciiSpaceAtBothEnds) {
  EXPECT_EQ(trim(" \t a b \r\n\v\f"), "a b");
  EXPECT_EQ(trim("   "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("\fa\f", " \t"), "\fa\f");
}

TEST(Lower, LowersAsciiLettersOnly) { EXPECT_EQ(lower("AbC-\xC3\x89Z"), "abc-\xC3\x89z"); }

TEST(Quote, QuotesEscapesAndCuts) {
  EXPECT_EQ(quote("main"), "'main'");
  EXPECT_EQ(quote("a'b\\c", '\''), "'a\\'b\\\\c'");
  EXPECT_EQ(quote("x\"y", '"'), "\"x\\\"y\"");
  EXPECT_EQ(quote("one\ntwo\tthree\x1b"), "'one\\x0Atwo\\x09three\\x1B'");
  const std::string long_value(kQuoteMax + 1, 'a');
  EXPECT_EQ(quote(long_value), "'" + std::string(kQuoteMax, 'a') + "...'");
  EXPECT_EQ(quote(std::string(kQuoteMax, 'a')), "'" + std::string(kQuoteMax, 'a') + "'");
}

TEST(SplitPath, KeepsEmptyComponentsSoCallersCanRefuseThem) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_path("a/b/c"), (V{"a", "b", "c"}));
  EXPECT_EQ(split_path("a//b"), (V{"a", "", "b"}));
  EXPECT_EQ(split_path("/a/"), (V{"", "a", ""}));
  EXPECT_EQ(split_path(""), (V{""}));
  EXPECT_EQ(split_path("../x"), (V{"..", "x"}));
}

}  // namespace
}  // namespace reviewer::util
