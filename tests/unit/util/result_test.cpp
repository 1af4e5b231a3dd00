#include "core/util/result.h"

#include <gtest/gtest.h>

namespace reviewer::util {
namespace {

TEST(Result, StatusOfAnEmptyListIsOkAndOfAFullOneHoldsEveryRefusal) {
  EXPECT_TRUE(status_of({}).ok());
  const Status s = status_of({refusal("a", "first"), refusal("b", "second")});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.refusals(), (Refusals{refusal("a", "first"), refusal("b", "second")}));
}

// A collecting check gathers its parts' refusals in order; an ok part adds none.
TEST(Result, AppendRefusalsGathersEveryRefusalOfAFailedPartInOrder) {
  Refusals out{refusal("a", "before")};
  append_refusals(out, ok_status());
  append_refusals(out, Status(Refusals{refusal("b", "one"), refusal("c", "two")}));
  append_refusals(out, Result<int>(7));
  append_refusals(out, Result<int>(refusal("d", "three")));
  EXPECT_EQ(out, (Refusals{refusal("a", "before"), refusal("b", "one"), refusal("c", "two"),
                           refusal("d", "three")}));
}

}  // namespace
}  // namespace reviewer::util
