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

// The isolation issue's finding 9: a consumer that splits lines as JavaScript does breaks at NEL,
// U+2028 and U+2029, so they are escaped with the control bytes; other UTF-8 stays as it is.
TEST(AppendPrintable, EscapesControlBytesAndUnicodeLineBreaksAndKeepsTabs) {
  std::string out = "> ";
  append_printable(out,
                   "a\tb\rc\x1b\x7f d\xC2\x85"
                   "e\xE2\x80\xA8"
                   "f\xE2\x80\xA9"
                   "g\xC3\x89\xE2\x80\xA7");
  EXPECT_EQ(out,
            "> a\tb\\x0Dc\\x1B\\x7F d\\xC2\\x85e\\xE2\\x80\\xA8"
            "f\\xE2\\x80\\xA9g\xC3\x89\xE2\x80\xA7");
  // A sequence cut at the end of the text is not a line break.
  EXPECT_EQ(unsafe_bytes_at("\xE2\x80", 0), 0u);
  EXPECT_EQ(unsafe_bytes_at("\xC2", 0), 0u);
  EXPECT_EQ(quote("x\xE2\x80\xA8y\tz"), "'x\\xE2\\x80\\xA8y\\x09z'");
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
