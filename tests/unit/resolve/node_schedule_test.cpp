// setup-node's aliases resolved with the Release working group's schedule on a given date: what
// its resolveLtsAliasFromManifest and isLatestSyntax would pick a line of on that day.
#include <gtest/gtest.h>

#include <string>

#include "core/resolve/node_schedule.h"
#include "core/resolve/resolver.h"
#include "core/resolve/runtime_table.h"

namespace reviewer::resolve {
namespace {

// The schedule the trusted matrix records (node-releases 2.0.66).
NodeSchedule schedule() {
  return {"the test schedule",
          {{18, "2022-04-19", "2022-10-25", "Hydrogen"},
           {20, "2023-04-18", "2023-10-24", "Iron"},
           {22, "2024-04-24", "2024-10-29", "Jod"},
           {24, "2025-05-06", "2025-10-28", "Krypton"},
           {25, "2025-10-15", "", ""},
           {26, "2026-05-05", "2026-10-28", "Lithium"},
           {27, "2027-04-22", "2027-10-20", ""}}};
}

std::string line_of(const std::string& alias, const std::string& today) {
  auto r = resolve_node_alias(alias, schedule(), today);
  return r ? std::to_string(r->major) : r.error().rule + ": " + r.error().message;
}

struct Case {
  const char* alias;
  const char* today;
  const char* want;
};

TEST(NodeSchedule, AliasesNameTheLineOfTheirDay) {
  for (const Case& c : {
           Case{"lts/*", "2026-12-01", "26"},
           Case{"lts/*", "2026-10-28", "26"},  // the day it becomes LTS
           Case{"lts/*", "2026-10-27", "24"},
           Case{"lts/*", "2025-06-01", "22"},  // 24 is out, not LTS yet
           Case{"lts/*", "2027-10-20", "27"},  // LTS by date, before its codename is known
           Case{"lts/-1", "2026-12-01", "24"},
           Case{"lts/-2", "2026-12-01", "22"},
           Case{"lts/-4", "2026-12-01", "18"},
           Case{"lts/jod", "2026-12-01", "22"},
           Case{"lts/JOD", "2026-12-01", "22"},  // setup-node lower-cases the alias
           Case{"lts/Lithium", "2026-12-01", "26"},
           Case{"latest", "2026-12-01", "26"},
           Case{"node", "2026-12-01", "26"},
           Case{"current", "2025-11-01", "25"},  // an odd line is the newest for half a year
           Case{"current", "2027-04-22", "27"},
       }) {
    EXPECT_EQ(line_of(c.alias, c.today), c.want) << c.alias << " on " << c.today;
  }
}

TEST(NodeSchedule, AnAliasNoLineAnswersIsRefusedByName) {
  EXPECT_EQ(line_of("lts/-5", "2026-12-01"),
            "invalid-declaration: node lts/-5 names no Node.js line on 2026-12-01: the LTS line "
            "5 before the newest does not exist yet (the matrix's release schedule, the test "
            "schedule)");
  EXPECT_EQ(line_of("lts/lithium", "2026-10-01"),
            "invalid-declaration: node lts/lithium names no Node.js line on 2026-10-01: the LTS "
            "line named 'lithium' does not exist yet (the matrix's release schedule, the test "
            "schedule)");
  // setup-node's Number(alias) < 0 only: these are looked up as codenames, and none is one.
  for (const char* odd : {"lts/-0", "lts/0", "lts/", "lts/1", "lts/-1.5", "lts/iron/x"}) {
    EXPECT_NE(line_of(odd, "2026-12-01").find("invalid-declaration: "), std::string::npos) << odd;
  }
  EXPECT_EQ(line_of("lts/*", ""),
            "invalid-declaration: node lts/* names no Node.js line on (no date): the review has "
            "no date to resolve it on (the matrix's release schedule, the test schedule)");
}

TEST(NodeSchedule, TodayIsADate) {
  const std::string today = today_utc();
  ASSERT_EQ(today.size(), 10U);
  EXPECT_EQ(today[4], '-');
  EXPECT_EQ(today[7], '-');
  EXPECT_GE(today, "2026-01-01");
}

// The resolver takes the alias's line: the image of that line is selected, and every message
// says which line the alias stood for.
TEST(NodeSchedule, TheResolverSelectsTheAliasesLine) {
  RuntimeTable m;
  m.images = {{"reviewer-node22", {{"node", "22.23.5"}, {"bun", "1.3.10"}}},
              {"reviewer-node24", {{"node", "24.22.3"}, {"bun", "1.3.10"}}},
              {"reviewer-node26", {{"node", "26.12.1"}, {"bun", "1.3.10"}}}};
  m.node_schedule = schedule();
  m.today = "2026-12-01";
  const Pin lts{"node", "lts/*", util::SourceLocation{"ci.yml", 9, 11}};
  auto r = select_image(pin_declarations({lts}), m);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node26");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            "pin at ci.yml:9:11 \"lts/*\" is Node 26, the newest LTS line on 2026-12-01: "
            "'Lithium', LTS since 2026-10-28 (the test schedule); CI installs that line's newest "
            "release");
  m.today = "2026-10-01";
  r = select_image(pin_declarations({lts}), m);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->image, "reviewer-node24");

  // A declaration the line does not admit is reported, not enforced: CI installs the alias's
  // line, whatever package.json says.
  DeclarationSet set = pin_declarations({lts});
  set.add(make_declaration("node", "22.x", "package.json engines.node",
                           util::SourceLocation{"package.json"}));
  m.today = "2026-12-01";
  r = select_image(set, m);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node26");
  ASSERT_EQ(r->notes.size(), 2U);
  EXPECT_EQ(r->notes[1],
            "package.json engines.node \"22.x\" is reported, not enforced: CI runs the node that "
            "pin at ci.yml:9:11 \"lts/* (Node 26)\" installs, and no step installs it from this "
            "declaration (a package manager that checks it does so in the review too)");

  // A matrix without a schedule, or no date, refuses the alias rather than guess.
  m.node_schedule = {};
  r = select_image(pin_declarations({lts}), m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "invalid-declaration");
}

}  // namespace
}  // namespace reviewer::resolve
