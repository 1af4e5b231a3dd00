#include "core/util/environ.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::util {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(ParseEnviron, SplitsAtNulAndKeepsTheFirstOfTwo) {
  const std::string block("A=1\0B=x=y\0NOEQUALS\0=empty\0A=2\0C=", 32);
  EXPECT_THAT(parse_environ(block), ElementsAre(Pair("A", "1"), Pair("B", "x=y"), Pair("C", "")));
}

TEST(EnvironMap, ReadsACharPointerArray) {
  char a[] = "X=1";
  char b[] = "bad";
  char* env[] = {a, b, nullptr};
  EXPECT_THAT(environ_map(env), ElementsAre(Pair("X", "1")));
  EXPECT_TRUE(environ_map(nullptr).empty());
}

}  // namespace
}  // namespace reviewer::util
