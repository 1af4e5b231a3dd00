#include "core/deps/catalogue/release_schedule.h"

#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

TEST(ReleaseSchedule, TakesTheLinesFrom18InOrderWithTheirLtsNames) {
  auto s = parse_release_schedule(
      R"({"v0.12": {"start": "2015-02-06", "end": "2016-12-31"},
          "v26": {"start": "2026-05-05", "lts": "2026-10-28", "codename": "Lithium"},
          "v18": {"start": "2022-04-19", "lts": "2022-10-25", "codename": "Hydrogen"},
          "v25": {"start": "2025-10-15", "maintenance": "2026-04-01"},
          "v27": {"alpha": "2026-10-28", "start": "2027-04-22", "lts": "2027-10-20",
                  "codename": ""}})",
      "node-releases 2.0.67");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->source, "node-releases 2.0.67");
  ASSERT_EQ(s->lines.size(), 4u);
  EXPECT_EQ(s->lines[0].major, 18);
  EXPECT_EQ(s->lines[0].codename, "Hydrogen");
  EXPECT_EQ(s->lines[1].major, 25);
  EXPECT_EQ(s->lines[1].lts, "");
  EXPECT_EQ(s->lines[2].lts, "2026-10-28");
  EXPECT_EQ(s->lines[3].major, 27);
  EXPECT_EQ(s->lines[3].codename, "");
}

TEST(ReleaseSchedule, TextThatIsNotAScheduleIsRefused) {
  for (const char* text : {"[]", "not json", R"({"v0.12": {"start": "2015-02-06"}})"}) {
    auto s = parse_release_schedule(text, "x");
    ASSERT_FALSE(s) << text;
    EXPECT_EQ(s.error().rule, "invalid-catalogue");
  }
}

}  // namespace
}  // namespace reviewer::deps
