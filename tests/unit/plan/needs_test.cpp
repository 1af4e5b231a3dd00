#include "core/plan/needs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

std::vector<std::string> closure(const std::string& jobs_yaml, const std::string& job,
                                 std::string* refusals = nullptr) {
  auto root = yaml::load(jobs_yaml, "w.yml");
  EXPECT_TRUE(root.ok());
  Findings f;
  auto out = needs_closure(*root, job, f);
  if (refusals != nullptr) {
    for (const auto& r : f.take()) {
      *refusals += r.rule + "@" + r.location->to_string() + " ";
    }
  }
  return out;
}

using V = std::vector<std::string>;

TEST(Needs, ScalarAndListForms) {
  EXPECT_EQ(closure("a: {}\nb: {needs: a}\nc: {needs: [b, a]}\n", "c"), (V{"a", "b", "c"}));
}

TEST(Needs, DeclarationOrderBreaksTies) {
  EXPECT_EQ(closure("x: {}\ny: {}\nz: {needs: [y, x]}\n", "z"), (V{"x", "y", "z"}));
  EXPECT_EQ(closure("z: {needs: [y, x]}\ny: {}\nx: {}\n", "z"), (V{"y", "x", "z"}));
}

TEST(Needs, OnlyTheClosure) {
  EXPECT_EQ(closure("a: {}\nb: {needs: a}\nc: {}\n", "b"), (V{"a", "b"}));
}

TEST(Needs, DiamondOnce) {
  EXPECT_EQ(closure("a: {}\nb: {needs: a}\nc: {needs: a}\nd: {needs: [b, c, b]}\n", "d"),
            (V{"a", "b", "c", "d"}));
}

TEST(Needs, RefusalsStillReturnTheClosureForMoreFindings) {
  std::string r;
  EXPECT_EQ(closure("a: {needs: [b, nope]}\nb: {}\n", "a", &r), (V{"a", "b"}));
  EXPECT_EQ(r, "needs-unknown@w.yml:1:16 ");
}

TEST(Needs, SelfCycle) {
  std::string r;
  closure("a: {needs: a}\n", "a", &r);
  EXPECT_EQ(r, "needs-cycle@w.yml:1:12 ");
}

TEST(Needs, CycleBehindTheTarget) {
  std::string r;
  closure("t: {needs: a}\na: {needs: b}\nb: {needs: a}\n", "t", &r);
  EXPECT_EQ(r, "needs-cycle@w.yml:1:12 needs-cycle@w.yml:2:12 needs-cycle@w.yml:3:12 ");
}

TEST(Needs, LongChainIsFastAndIterative) {
  // 5,000 jobs, each needing the next one declared after it: a deep chain and the worst
  // declaration order.
  std::string doc;
  for (int i = 0; i < 5000; ++i) {
    doc += "j" + std::to_string(i) + ": {needs: j" + std::to_string(i + 1) + "}\n";
  }
  doc += "j5000: {}\n";
  auto start = std::chrono::steady_clock::now();
  auto order = closure(doc, "j0");
  EXPECT_EQ(order.size(), 5001u);
  EXPECT_EQ(order.front(), "j5000");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace reviewer::plan
