// UTF-8 as the expression engine and the JUnit writer read it: well-formed sequences only.
#include <gtest/gtest.h>

#include <string>

#include "core/util/utf8.h"

namespace reviewer::util {
namespace {

TEST(Utf8, DecodesWellFormedSequencesAndRefusesTheRest) {
  struct Case {
    std::string bytes;
    std::size_t length;
    std::uint32_t cp;
  };
  const Case cases[] = {
      {"a", 1, 'a'},
      {"\xc3\xa9", 2, 0xe9},
      {"\xe2\x9c\x93", 3, 0x2713},
      {"\xf0\x9f\x98\x80", 4, 0x1f600},
      {"\x80", 0, 0},              // a stray continuation byte
      {"\xc3", 0, 0},              // cut short
      {"\xc0\xaf", 0, 0},          // overlong '/'
      {"\xed\xa0\x80", 0, 0},      // a surrogate
      {"\xf4\x90\x80\x80", 0, 0},  // past U+10FFFF
  };
  for (const auto& c : cases) {
    std::uint32_t cp = 0;
    EXPECT_EQ(decode_utf8(c.bytes, 0, cp), c.length) << c.bytes;
    if (c.length != 0) {
      EXPECT_EQ(cp, c.cp);
      std::string again;
      append_utf8(cp, again);
      EXPECT_EQ(again, c.bytes);
    }
  }
}

}  // namespace
}  // namespace reviewer::util
