// The configuration allowlist, proved against what real `git clone` runs write on this platform.

#include <sstream>

#include "core/git/config_allowlist.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

TEST(ConfigKeyAllowed, TableOfKeys) {
  struct Case {
    const char* key;
    bool allowed;
  };
  const Case cases[] = {
      {"core.repositoryformatversion", true},
      {"core.filemode", true},
      {"Core.FileMode", true},
      {"core.bare", true},
      {"core.logallrefupdates", true},
      {"remote.origin.url", true},
      {"REMOTE.Origin.URL", true},
      {"remote.up.stream.fetch", true},
      {"remote.origin.tagopt", true},
      {"branch.main.remote", true},
      {"branch.feature/x.merge", true},
      {"user.name", true},
      {"user.email", true},
      {"remote.url", false},
      {"remote..url", false},
      {"user.name.x", false},
      {"core.fsmonitor", false},
      {"core.hooksPath", false},
      {"core.worktree", false},
      {"core.autocrlf", false},
      {"core.useReplaceRefs", false},
      {"replace.base", false},
      {"remote.origin.uploadpack", false},
      {"remote.origin.mirror", false},
      {"remote.origin.proxy", false},
      {"branch.main.rebase", false},
      {"include.path", false},
      {"includeif.gitdir:/x/.path", false},
      {"extensions.worktreeconfig", false},
      {"url.https://evil/.insteadof", false},
      {"user.signingkey", false},
      {"core", false},
      {"", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(config_key_allowed(c.key), c.allowed) << c.key;
  }
}

TEST(ConfigKeyAllowed, CanonicalKeepsSubsectionCase) {
  EXPECT_EQ(parse_config_key("Remote.MyOrigin.URL").canonical(), "remote.MyOrigin.url");
  EXPECT_EQ(parse_config_key("url.https://a.b/x.insteadOf").canonical(),
            "url.https://a.b/x.insteadof");
  EXPECT_EQ(parse_config_key("core.fsmonitor").canonical(), "core.fsmonitor");
}

// Each shape a host may clone with: the guard accepts it, and every key it wrote is allowlisted.
struct CloneShape {
  const char* name;
  int depth;
  const char* args;
  const char* after;  // run in the worktree after cloning
};

class CloneShapeTest : public GitFixture, public ::testing::WithParamInterface<CloneShape> {};

TEST_P(CloneShapeTest, PlainCloneIsAccepted) {
  const CloneShape& s = GetParam();
  clone(s.depth, s.args);
  if (*s.after != '\0') {
    in_wt(s.after);
  }
  const std::string keys = sh_output(wt(),
                                     "git config --local --list --name-only; "
                                     "git config --global --list --name-only 2>/dev/null || true",
                                     home());
  std::istringstream lines(keys);
  int count = 0;
  for (std::string key; std::getline(lines, key);) {
    ++count;
    EXPECT_TRUE(config_key_allowed(key)) << s.name << " wrote " << key;
  }
  EXPECT_GE(count, 6) << keys;
  const Baseline b = pin();
  const report::Refusals r = before(b, s.depth);
  EXPECT_TRUE(r.empty()) << s.name << "\n" << describe(r);
}

INSTANTIATE_TEST_SUITE_P(
    Clones, CloneShapeTest,
    ::testing::Values(CloneShape{"depth1_no_tags", 1, "", ""},
                      CloneShape{"depth1_single_branch", 1, "--single-branch", ""},
                      CloneShape{"depth1_no_single_branch", 1, "--no-single-branch", ""},
                      CloneShape{"full", 0, "", ""}, CloneShape{"full_no_tags", 0, "--no-tags", ""},
                      CloneShape{"full_single_branch", 0, "--single-branch", ""},
                      CloneShape{"full_other_branch", 0, "-b side", ""},
                      CloneShape{
                          "depth1_identity_local", 1, "",
                          "git config user.name Reviewer && git config user.email r@example.com"},
                      CloneShape{"full_identity_global", 0, "",
                                 "git config --global user.name Reviewer && "
                                 "git config --global user.email r@example.com"}),
    [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace reviewer::git::testing
