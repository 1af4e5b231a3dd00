// Hooks: only the template's *.sample files may sit in the hooks directory.

#include <sys/stat.h>
#include <unistd.h>

#include "core/git/hooks_check.h"
#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class HooksTest : public GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    clone(1);
    baseline_ = pin();
  }
  std::string hooks() const { return wt() + "/.git/hooks"; }
  Baseline baseline_;
};

TEST_F(HooksTest, CloneSamplesAreAccepted) {
  EXPECT_TRUE(exists(hooks() + "/pre-commit.sample"));
  EXPECT_TRUE(refusals_of(check_hooks(hooks())).empty());
  EXPECT_TRUE(before(baseline_, 1).empty());
}

TEST_F(HooksTest, MissingHooksDirectoryIsAccepted) {
  in_wt("rm -rf .git/hooks");
  EXPECT_TRUE(before(baseline_, 1).empty());
}

TEST_F(HooksTest, ExecutableHookIsRefused) {
  write_file(hooks() + "/post-checkout", "#!/bin/sh\ntouch '" + canary_dir() + "/hook'\n");
  ::chmod((hooks() + "/post-checkout").c_str(), 0755);
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHooks);
  EXPECT_EQ(r[0].message,
            "hook 'post-checkout' would run; a clone's hooks directory holds only the template's "
            "*.sample files");
  EXPECT_EQ(r[0].location->file, hooks() + "/post-checkout");
  EXPECT_FALSE(any_canary_ran());
  expect_nothing_executed(baseline_, 1);
}

TEST_F(HooksTest, NonExecutableOddFileIsRefused) {
  write_file(hooks() + "/README", "not a sample\n");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleHooks)});
}

TEST_F(HooksTest, SymlinkedSampleIsRefused) {
  ASSERT_EQ(::symlink("/bin/true", (hooks() + "/evil.sample").c_str()), 0);
  const report::Refusals r = refusals_of(check_hooks(hooks()));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].message,
            "hook entry is a symlink; a clone's hooks directory holds only the template's *.sample "
            "files");
}

TEST_F(HooksTest, SubdirectoryIsRefused) {
  ::mkdir((hooks() + "/pre-commit.d").c_str(), 0700);
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleHooks)});
}

TEST_F(HooksTest, SymlinkedHooksDirectoryIsRefused) {
  in_wt("rm -rf .git/hooks && mkdir ../elsewhere && ln -s ../../elsewhere .git/hooks");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleHooks), std::string(kRuleSymlinkedDirectory)});
  EXPECT_EQ(refusals_of(check_hooks(hooks()))[0].message,
            "the hooks directory is a symlink; a clone's hooks directory holds only the "
            "template's *.sample files");
}

}  // namespace
}  // namespace reviewer::git::testing
