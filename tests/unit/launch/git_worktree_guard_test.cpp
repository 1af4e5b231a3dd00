// The launcher's guard answering the first job from the check made ahead of it, on real clones.
#include "core/launch/git_worktree_guard.h"

#include <gmock/gmock.h>
#include <sys/stat.h>

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::launch {
namespace {

using git::testing::describe;
using git::testing::refusals_of;
using ::testing::ElementsAre;

class GitWorktreeGuardTest : public git::testing::GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    clone(1);
  }
  // The rules of every refusal, in order.
  static std::vector<std::string> rules(const util::Status& s) {
    std::vector<std::string> out;
    for (const auto& r : refusals_of(s)) {
      out.push_back(r.rule);
    }
    return out;
  }
  GitWorktreeGuard guard_{wt()};
};

TEST_F(GitWorktreeGuardTest, TheFirstJobIsAnsweredFromTheCheckAhead) {
  guard_.check_first_job_ahead(home(), 1);
  // Made after the check: the answer is the check's, as nothing may change the worktree between.
  in_wt("printf x > stray.txt");
  const util::Status first = guard_.before_job(home(), 1, true);
  EXPECT_TRUE(first.ok()) << describe(refusals_of(first));
  // The answer is given once: asked again, the guard looks at the worktree.
  EXPECT_THAT(rules(guard_.before_job(home(), 1, true)), ElementsAre(git::kRuleCleanClone));
}

TEST_F(GitWorktreeGuardTest, WhatTheCheckAheadRefusesIsTheFirstJobsRefusal) {
  in_wt("printf x > stray.txt");
  guard_.check_first_job_ahead(home(), 1);
  in_wt("rm stray.txt");
  const report::Refusals r = refusals_of(guard_.before_job(home(), 1, true));
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, git::kRuleCleanClone);
  EXPECT_EQ(r[0].message, "untracked path 'stray.txt' is not part of a clean clone");
}

TEST_F(GitWorktreeGuardTest, AnotherFetchDepthIsCheckedAgain) {
  guard_.check_first_job_ahead(home(), 1);
  in_wt("printf x > stray.txt");
  EXPECT_THAT(rules(guard_.before_job(home(), 0, true)),
              ElementsAre(git::kRuleCleanClone, git::kRuleHistoryShape));
}

TEST_F(GitWorktreeGuardTest, AnotherHomeIsCheckedAgain) {
  guard_.check_first_job_ahead(home(), 1);
  in_wt("printf x > stray.txt");
  const std::string other = home() + "-other";
  ::mkdir(other.c_str(), 0700);
  EXPECT_THAT(rules(guard_.before_job(other, 1, true)), ElementsAre(git::kRuleCleanClone));
}

TEST_F(GitWorktreeGuardTest, ALaterJobIsNeverAnsweredFromTheCheckAhead) {
  guard_.check_first_job_ahead(home(), 1);
  in_wt("git config core.hooksPath /tmp");
  // A later job's before_job removes what earlier jobs created, then checks.
  EXPECT_THAT(rules(guard_.before_job(home(), 1, false)), ElementsAre(git::kRuleConfigKey));
}

}  // namespace
}  // namespace reviewer::launch
