#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/plan/env_rules.h"

namespace reviewer::plan {
namespace {

using workflow::Entry;

std::string names_and_values(const std::vector<Entry>& env) {
  std::string out;
  for (const auto& e : env) {
    out += e.name + "=" + e.value + " ";
  }
  return out;
}

TEST(EnvOverlay, LaterLevelWinsInPlaceAndNewNamesAppend) {
  const std::vector<Entry> workflow = {{"A", "1", {}}, {"B", "2", {}}, {"C", "3", {}}};
  const std::vector<Entry> job = {{"B", "job", {}}, {"D", "4", {}}};
  EXPECT_EQ(names_and_values(overlay_env(workflow, job)), "A=1 B=job C=3 D=4 ");
  EXPECT_EQ(names_and_values(overlay_env(workflow, {})), "A=1 B=2 C=3 ");
  EXPECT_EQ(names_and_values(overlay_env({}, job)), "B=job D=4 ");
}

TEST(EnvOverlay, ThousandsOfNamesKeepTheirOrder) {
  std::vector<Entry> base;
  for (int i = 0; i < 5000; ++i) {
    base.push_back({"N" + std::to_string(i), "b", {}});
  }
  const auto out = overlay_env(base, {{"N4999", "top", {}}, {"N0", "top", {}}, {"X", "x", {}}});
  ASSERT_EQ(out.size(), 5001U);
  EXPECT_EQ(out[0].value, "top");
  EXPECT_EQ(out[1].value, "b");
  EXPECT_EQ(out[4999].value, "top");
  EXPECT_EQ(out[5000].name, "X");
}

}  // namespace
}  // namespace reviewer::plan
