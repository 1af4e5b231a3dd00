#include "core/exec/github_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/refusals_of.h"

namespace reviewer::exec {
namespace {

using test_support::refusals_of;

TEST(GithubFiles, ReadsAssignmentsAndHeredocsInOrder) {
  auto u = parse_github_files("A=1\nB<<EOF\nline one\nline two\nEOF\nC=x=y\r\n",
                              "/opt/x\n\n/opt/y\n", "[s]");
  ASSERT_TRUE(refusals_of(u).empty());
  ASSERT_EQ(u->env.size(), 3u);
  EXPECT_EQ(u->env[0].name, "A");
  EXPECT_EQ(u->env[1].value, "line one\nline two");
  EXPECT_EQ(u->env[2].value, "x=y");
  EXPECT_THAT(u->path, ::testing::ElementsAre("/opt/x", "/opt/y"));
}

TEST(GithubFiles, AForbiddenKeyFailsWithItsRuleAndNothingIsApplied) {
  for (const auto& [line, rule] : std::vector<std::pair<std::string, std::string>>{
           {"BASH_ENV=/tmp/x", "config-redirecting-env"},
           {"NODE_OPTIONS<<E\n--require x\nE", "config-redirecting-env"},
           {"GH_TOKEN=x", "credential-shaped-env"},
           {"PATH=/evil", "launcher-owned-env"},
           {"ld_preload=/x.so", "config-redirecting-env"},
           {"BASH_FUNC_exit%%=() { :; }", "invalid-env-name"}}) {
    auto u = parse_github_files("OK=1\n" + line + "\n", "", "[s]");
    ASSERT_EQ(refusals_of(u).size(), 1u) << line;
    EXPECT_EQ(refusals_of(u)[0].rule, rule) << line;
    EXPECT_FALSE(u.ok()) << line;  // no updates at all: nothing is applied
  }
}

TEST(GithubFiles, MalformedLinesAndPathsFailTheBuild) {
  EXPECT_EQ(refusals_of(parse_github_files("JUSTANAME\n", "", "[s]")).at(0).rule,
            "github-env-invalid");
  EXPECT_EQ(refusals_of(parse_github_files("X<<EOF\nno end\n", "", "[s]")).at(0).rule,
            "github-env-invalid");
  EXPECT_EQ(refusals_of(parse_github_files("", "relative/bin\n", "[s]")).at(0).rule,
            "github-path-invalid");
  EXPECT_EQ(refusals_of(parse_github_files("", "/a:/b\n", "[s]")).at(0).rule,
            "github-path-invalid");
}

}  // namespace
}  // namespace reviewer::exec
