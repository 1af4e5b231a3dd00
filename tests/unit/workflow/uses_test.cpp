#include "core/workflow/uses.h"

#include <gtest/gtest.h>

namespace reviewer::workflow {
namespace {

TEST(SplitUses, LowerCasesTheActionAndKeepsTheRefAsWritten) {
  auto u = split_uses("SocketDev/Action@937f824EC476dfd164d4a4d9995751427b0be143");
  EXPECT_EQ(u.action, "socketdev/action");
  EXPECT_EQ(u.ref, "937f824EC476dfd164d4a4d9995751427b0be143");
  EXPECT_TRUE(u.has_at);
}

TEST(SplitUses, SplitsAtTheLastAtSignAndKeepsAPath) {
  auto u = split_uses("owner/repo/path@with@ref");
  EXPECT_EQ(u.action, "owner/repo/path@with");
  EXPECT_EQ(u.ref, "ref");
}

TEST(SplitUses, WithoutARefTheWholeTextIsTheAction) {
  auto u = split_uses("Owner/Repo");
  EXPECT_EQ(u.action, "owner/repo");
  EXPECT_EQ(u.ref, "");
  EXPECT_FALSE(u.has_at);
}

}  // namespace
}  // namespace reviewer::workflow
