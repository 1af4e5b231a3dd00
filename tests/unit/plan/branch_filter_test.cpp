#include "core/plan/branch_filter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace reviewer::plan {
namespace {

std::string m(std::string_view p, std::string_view n) {
  auto r = glob_match(p, n);
  return r ? (*r ? "match" : "no") : "undecidable";
}

TEST(Glob, Literals) {
  EXPECT_EQ(m("main", "main"), "match");
  EXPECT_EQ(m("main", "mainline"), "no");
  EXPECT_EQ(m("", ""), "match");
}

TEST(Glob, StarStopsAtSlash) {
  EXPECT_EQ(m("releases/*", "releases/v1"), "match");
  EXPECT_EQ(m("releases/*", "releases/v1/rc"), "no");
  EXPECT_EQ(m("*", "feature/x"), "no");
  EXPECT_EQ(m("*feature", "mona-feature"), "match");
}

TEST(Glob, GlobstarCrossesSlash) {
  EXPECT_EQ(m("releases/**", "releases/v1/rc"), "match");
  EXPECT_EQ(m("**", "a/b/c"), "match");
  EXPECT_EQ(m("**-rc", "v1/x-rc"), "match");
}

TEST(Glob, Classes) {
  EXPECT_EQ(m("v[0-9]*", "v2.1"), "match");
  EXPECT_EQ(m("v[0-9]*", "main"), "no");
  EXPECT_EQ(m("[CB]at", "Bat"), "match");
  EXPECT_EQ(m("[a-z]ain", "Main"), "no");
  EXPECT_EQ(m("[9-0]", "5"), "undecidable");  // reversed range
  EXPECT_EQ(m("[a-Z]", "b"), "undecidable");  // mixed range
  EXPECT_EQ(m("[!a]", "b"), "undecidable");   // not documented
  EXPECT_EQ(m("[abc", "a"), "undecidable");   // unclosed
}

TEST(Glob, UndecidableUnlessTheHeadRulesItOut) {
  EXPECT_EQ(m("mai?n", "main"), "undecidable");
  EXPECT_EQ(m("ma+in", "main"), "undecidable");
  EXPECT_EQ(m("release-v?", "main"), "no");
  EXPECT_EQ(m("x+", "main"), "no");  // `+` repeats the preceding character: "x" is needed
  EXPECT_EQ(m("a\\*", "main"), "no");
  EXPECT_EQ(m("m\\*", "main"), "undecidable");
  EXPECT_EQ(m("?", "main"), "undecidable");
  EXPECT_EQ(m("x?y", "main"), "no");  // the literal tail rules it out
  EXPECT_EQ(m("ma?n", "main"), "undecidable");
  EXPECT_EQ(m("[ab?", "main"), "undecidable");  // brackets: no tail rule
}

TEST(Glob, NoExponentialBacktracking) {
  std::string p;
  for (int i = 0; i < 200; ++i) {
    p += "*a";
  }
  const std::string n(250, 'a');
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(m(p + "b", n), "no");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

TEST(Branches, LastMatchDecides) {
  EXPECT_EQ(branches_admit({"**", "!main"}, "main"), false);
  EXPECT_EQ(branches_admit({"**", "!ma*", "main"}, "main"), true);
  EXPECT_EQ(branches_admit({}, "main"), false);
  EXPECT_EQ(branches_admit({"dev"}, "main"), false);
}

TEST(Branches, UndecidablePatternsOnlyMatterWhenTheyCouldChangeTheAnswer) {
  EXPECT_EQ(branches_admit({"main", "m?in"}, "main"), true);  // could only admit again
  EXPECT_EQ(branches_admit({"main", "!m?in"}, "main"), std::nullopt);
  EXPECT_EQ(branches_admit({"m?in", "main"}, "main"), true);  // decided after it
  EXPECT_EQ(branches_admit({"m?in"}, "main"), std::nullopt);
  EXPECT_EQ(branches_admit({"!m?in"}, "main"), false);  // could only exclude
}

}  // namespace
}  // namespace reviewer::plan
