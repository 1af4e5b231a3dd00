// .tool-versions read the way asdf reads it (internal/toolversions/toolversions.go): `#` cuts
// the line, fields are separated by spaces only, the first line naming a tool wins.
#include <gtest/gtest.h>

#include <string>

#include "core/resolve/tool_versions.h"
#include "declaration_summary.h"

namespace reviewer::resolve {
namespace {

using testing::Lines;
using testing::summary;

TEST(ToolVersions, Forms) {
  EXPECT_EQ(summary(parse_tool_versions("# tools\nruby 3.3.0\nnodejs 22.1.0 # LTS\nbun 1.3.10\n"
                                        "nodejs 20.0.0\n")),
            (Lines{"node 22.1.0 [22.1.0] .tool-versions nodejs @.tool-versions:3:8",
                   "bun 1.3.10 [1.3.10] .tool-versions bun @.tool-versions:4:5"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs\n")), Lines{});
  // A tool without a version is ignored, so the next line naming it is the first that counts.
  EXPECT_EQ(summary(parse_tool_versions("nodejs\nnodejs v22\n")),
            (Lines{"node v22 [>=22.0.0 <23.0.0-0] .tool-versions nodejs @.tool-versions:2:8"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs 22.1#comment\n")),
            (Lines{"node 22.1 [>=22.1.0 <22.2.0-0] .tool-versions nodejs @.tool-versions:1:8"}));
  EXPECT_EQ(summary(parse_tool_versions("ruby\t3.3.0\n")), Lines{});
}

// Split on single spaces, then each piece trimmed (Go's strings.TrimSpace): runs of spaces, and
// a tab or CR that touches a space or the line's end, vanish.
TEST(ToolVersions, SpacesSeparateFields) {
  EXPECT_EQ(summary(parse_tool_versions("  nodejs   22.22.1  \r\n")),
            (Lines{"node 22.22.1 [22.22.1] .tool-versions nodejs @.tool-versions:1:12"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs\t 22.22.1\t\n")),
            (Lines{"node 22.22.1 [22.22.1] .tool-versions nodejs @.tool-versions:1:9"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs 22.22.1\xC2\xA0\n")),
            (Lines{"node 22.22.1 [22.22.1] .tool-versions nodejs @.tool-versions:1:8"}));
}

// asdf reads `nodejs<TAB>22.22.1` as one field, a tool named "nodejs\t22.22.1", and ignores it;
// setup-node's version-file regex splits on any white space and reads 22.22.1. Refused.
TEST(ToolVersions, OtherWhitespaceDoesNotSeparateFields) {
  EXPECT_EQ(summary(parse_tool_versions("nodejs\t22.22.1")),
            (Lines{"invalid-declaration: .tool-versions line 1: asdf separates fields with "
                   "spaces only; the tab (U+0009) after \"nodejs\" makes \"nodejs\\x0922.22.1\" "
                   "one field, which asdf reads as a tool name, so it ignores the line; put a "
                   "space there @.tool-versions:1:1"}));
  EXPECT_EQ(summary(parse_tool_versions("ruby 3.3.0\n  bun\t1.3.10 # pinned\n")),
            (Lines{"invalid-declaration: .tool-versions line 2: asdf separates fields with "
                   "spaces only; the tab (U+0009) after \"bun\" makes \"bun\\x091.3.10\" one "
                   "field, which asdf reads as a tool name, so it ignores the line; put a space "
                   "there @.tool-versions:2:3"}));
  EXPECT_EQ(summary(parse_tool_versions("node\xC2\xA0"
                                        "22.22.1\n")),
            (Lines{"invalid-declaration: .tool-versions line 1: asdf separates fields with "
                   "spaces only; the no-break space (U+00A0) after \"node\" makes "
                   "\"node\xC2\xA0"
                   "22.22.1\" one field, which asdf reads as a tool name, so it ignores the line; "
                   "put a space there @.tool-versions:1:1"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs 22.22.1\t20.0.0\n")),
            (Lines{"invalid-declaration: .tool-versions line 1: asdf separates fields with "
                   "spaces only; the tab (U+0009) after \"22.22.1\" makes "
                   "\"22.22.1\\x0920.0.0\" one field, which asdf reads as one version; put a "
                   "space there @.tool-versions:1:8"}));
  // A byte-order mark is not white space to Go: asdf reads the tool "\uFEFFnodejs".
  EXPECT_EQ(summary(parse_tool_versions("\xEF\xBB\xBFnodejs 22.22.1\n")),
            (Lines{"invalid-declaration: .tool-versions line 1 begins with a byte-order mark "
                   "(U+FEFF), which asdf reads as part of the tool name, so it ignores the line; "
                   "save the file without it @.tool-versions:1:1"}));
}

// asdf installs every version of a line and runs the first; the others are fallbacks for a
// machine where the first is missing, which CI's fresh install never is.
TEST(ToolVersions, TheFirstVersionOfALineCounts) {
  EXPECT_EQ(summary(parse_tool_versions("nodejs 22.1.0 20.0.0\n")),
            (Lines{"node 22.1.0 [22.1.0] .tool-versions nodejs @.tool-versions:1:8"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs 22.1.0 system\n")),
            (Lines{"node 22.1.0 [22.1.0] .tool-versions nodejs @.tool-versions:1:8"}));
}

// asdf's Node tool is `nodejs`, mise's is `node`: each reads its own first line, so both bind.
TEST(ToolVersions, NodeAndNodejsLinesBothCount) {
  EXPECT_EQ(summary(parse_tool_versions("node 20.0.0\nnodejs 22.1.0\nnode 18.0.0\n")),
            (Lines{"node 20.0.0 [20.0.0] .tool-versions node @.tool-versions:1:6",
                   "node 22.1.0 [22.1.0] .tool-versions nodejs @.tool-versions:2:8"}));
}

TEST(ToolVersions, RefusedForms) {
  EXPECT_EQ(summary(parse_tool_versions("nodejs system\n")),
            (Lines{"invalid-declaration: .tool-versions nodejs declares node \"system\", an "
                   "alias that cannot be resolved offline; write a version such as 22.22.1 or a "
                   "semver range such as 22.x @.tool-versions:1:8"}));
  EXPECT_EQ(summary(parse_tool_versions("nodejs ref:v22.1.0\n")).size(), 1U);
  EXPECT_EQ(summary(parse_tool_versions("nodejs path:/opt/node\n")).size(), 1U);
  EXPECT_EQ(summary(parse_tool_versions("nodejs >=20\n")),
            (Lines{"invalid-declaration: .tool-versions nodejs declares node \">=20\"; "
                   ".tool-versions takes versions such as 22.22.1 or 22, not ranges "
                   "@.tool-versions:1:8"}));
}

}  // namespace
}  // namespace reviewer::resolve
