// Worktree shape before and after jobs, lockfile pinning and the clean-up between jobs.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>

#include "core/git/lockfiles.h"
#include "core/git/rules.h"
#include "core/git/worktree_shape.h"
#include "core/util/sha256.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class WorktreeShapeTest : public GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    clone(1);
    baseline_ = pin();
  }
  Baseline baseline_;
};

TEST(Lockfiles, Names) {
  for (const char* n : {"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                        "bun.lock", "bun.lockb"}) {
    EXPECT_TRUE(is_lockfile_name(n)) << n;
    EXPECT_TRUE(is_pinned_input_name(n)) << n;
  }
  EXPECT_FALSE(is_lockfile_name("package.json"));
  EXPECT_TRUE(is_pinned_input_name("package.json"));
  EXPECT_TRUE(is_pinned_input_name(".nvmrc"));
  EXPECT_FALSE(is_pinned_input_name("lockfile"));
}

TEST_F(WorktreeShapeTest, BaselinePinsLockfileHashes) {
  auto digest = util::sha256_file(wt() + "/package-lock.json");
  ASSERT_TRUE(digest.ok());
  EXPECT_EQ(baseline_.lockfile_sha256,
            (std::map<std::string, std::string>{{"package-lock.json", *digest}}));
  EXPECT_TRUE(refusals_of(check_after_job(wt(), baseline_)).empty());
}

TEST_F(WorktreeShapeTest, SymlinkedLockfileIsRefusedBeforeTheJob) {
  in_wt(
      "mv package-lock.json ../lock && ln -s ../lock package-lock.json && "
      "git update-index --assume-unchanged package-lock.json");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleSymlinkedLockfile), std::string(kRuleIndexFlags),
                   std::string(kRuleCleanClone)});
  bool found = false;
  for (const auto& each : r) {
    if (each.rule != kRuleSymlinkedLockfile) {
      continue;
    }
    found = true;
    EXPECT_EQ(each.message,
              "'package-lock.json' is a symlink; lockfiles and version declarations must be "
              "regular files inside the worktree");
  }
  EXPECT_TRUE(found);
  expect_nothing_executed(baseline_, 1);
}

TEST_F(WorktreeShapeTest, SymlinkedLockfileIsRefusedAnywhere) {
  in_wt("ln -s /etc/hostname lib/deep/yarn.lock");
  const report::Refusals s = refusals_of(scan_worktree_shape(wt()));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].rule, kRuleSymlinkedLockfile);
  EXPECT_EQ(s[0].location->file, "lib/deep/yarn.lock");
}

TEST_F(WorktreeShapeTest, SymlinkedDirectoryIsRefused) {
  in_wt("ln -s /etc lib/etc");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleSymlinkedDirectory), std::string(kRuleCleanClone)});
  for (const auto& each : r) {
    if (each.rule == kRuleSymlinkedDirectory) {
      EXPECT_EQ(each.message,
                "'lib/etc' is a symlink to a directory with an absolute target, which leaves the "
                "worktree; a directory symlink must lead to a directory of the worktree outside "
                ".git");
    }
  }
  expect_nothing_executed(baseline_, 1);
}

// pnpm's node_modules (links into node_modules/.pnpm, and links between packages there) and npm's
// workspaces (node_modules/pkg -> ../packages/pkg) are relative links to directories of the
// worktree: nothing leaves it through them.
TEST_F(WorktreeShapeTest, DirectoryLinksThatStayInsideTheWorktreeAreAccepted) {
  in_wt(
      "mkdir -p node_modules/.pnpm/debug@4.3.4/node_modules/debug "
      "node_modules/.pnpm/ms@2.1.2/node_modules/ms packages/pkg && "
      "ln -s .pnpm/debug@4.3.4/node_modules/debug node_modules/debug && "
      "ln -s ../../ms@2.1.2/node_modules/ms node_modules/.pnpm/debug@4.3.4/node_modules/ms && "
      "ln -s ../packages/pkg node_modules/pkg && ln -s . lib/self && ln -s ../lib lib/deep/up");
  const util::Status st = scan_worktree_shape(wt());
  EXPECT_TRUE(st.ok()) << st.error().to_string();
}

// Every way out of the worktree or into .git, each by its own reason.
TEST_F(WorktreeShapeTest, DirectoryLinksThatLeaveTheWorktreeOrEnterGitAreRefused) {
  in_wt(
      "mkdir -p ../elsewhere && ln -s ../../elsewhere lib/out && ln -s ../.. lib/up && "
      "ln -s /tmp lib/abs && ln -s abs lib/via-abs && ln -s ../.git/refs lib/refs && "
      "ln -s .git g && ln -s ../../../../../../../../../proc/self/root lib/magic");
  const report::Refusals r = refusals_of(scan_worktree_shape(wt()));
  std::map<std::string, std::string> by_path;
  for (const auto& each : r) {
    EXPECT_EQ(each.rule, kRuleSymlinkedDirectory) << each.message;
    by_path[each.location->file] = each.message;
  }
  const std::string tail =
      "; a directory symlink must lead to a directory of the worktree outside .git";
  EXPECT_EQ(by_path["lib/out"],
            "'lib/out' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(by_path["lib/up"], "'lib/up' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(by_path["lib/abs"],
            "'lib/abs' is a symlink to a directory with an absolute target, "
            "which leaves the worktree" +
                tail);
  // Relative itself, but its path goes through an absolute link.
  EXPECT_EQ(by_path["lib/via-abs"],
            "'lib/via-abs' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(by_path["lib/refs"], "'lib/refs' is a symlink to a directory into .git" + tail);
  EXPECT_EQ(by_path["g"], "'g' is a symlink to a directory into .git" + tail);
  EXPECT_EQ(by_path["lib/magic"],
            "'lib/magic' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(r.size(), 7u) << describe(r);
}

// A test suite that links a directory by its absolute path (prettier's patterns-dirs tests:
// fs.symlinkSync of an absolute path) names the worktree itself: such a link stays inside when the
// rest of its target resolves beneath the worktree from its root, as a relative link must. Every
// way that absolute path could leave, or reach .git, is still refused.
TEST_F(WorktreeShapeTest, AbsoluteLinksToTheWorktreesOwnDirectoriesAreJudgedLikeRelativeOnes) {
  char* real = ::realpath(wt().c_str(), nullptr);
  ASSERT_NE(real, nullptr);
  const std::string root(real);
  std::free(real);
  in_wt("mkdir -p ../wtx ../elsewhere && ln -s '" + root + "/lib' lib/in && ln -s '" + root +
        "' lib/root && ln -s '" + root + "/lib/deep/' lib/deep-slash && ln -s '" + root +
        "/../elsewhere' lib/up && ln -s '" + root + "/.git' lib/git && ln -s '" + root +
        "/lib/../.git/refs' lib/git-refs && ln -s '" + root + "x' lib/sibling && ln -s '" + root +
        "//lib' lib/double && ln -s '" + root + "/lib/in' lib/chain && ln -s '" + root +
        "/lib/nothing' lib/missing");
  const report::Refusals r = refusals_of(scan_worktree_shape(wt()));
  std::map<std::string, std::string> by_path;
  for (const auto& each : r) {
    EXPECT_EQ(each.rule, kRuleSymlinkedDirectory) << each.message;
    by_path[each.location->file] = each.message;
  }
  const std::string tail =
      "; a directory symlink must lead to a directory of the worktree outside .git";
  EXPECT_FALSE(by_path.count("lib/in")) << by_path["lib/in"];
  EXPECT_FALSE(by_path.count("lib/root")) << by_path["lib/root"];
  EXPECT_FALSE(by_path.count("lib/deep-slash")) << by_path["lib/deep-slash"];
  EXPECT_EQ(by_path["lib/up"], "'lib/up' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(by_path["lib/git"], "'lib/git' is a symlink to a directory into .git" + tail);
  EXPECT_EQ(by_path["lib/git-refs"], "'lib/git-refs' is a symlink to a directory into .git" + tail);
  EXPECT_EQ(by_path["lib/sibling"],
            "'lib/sibling' is a symlink to a directory with an absolute target, which leaves the "
            "worktree" +
                tail);
  // "//lib" and a path through another absolute link: not resolved beneath the root, refused.
  EXPECT_EQ(by_path["lib/double"],
            "'lib/double' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(by_path["lib/chain"],
            "'lib/chain' is a symlink to a directory outside the worktree" + tail);
  EXPECT_EQ(r.size(), 6u) << describe(r);
}

TEST_F(WorktreeShapeTest, SymlinkedDirectoryInsideGitIsRefused) {
  in_wt("mkdir ../refs-elsewhere && ln -s ../../../refs-elsewhere .git/refs/evil");
  const report::Refusals r = before(baseline_, 1);
  // The new entry in .git is refused too (git-dir-changed), the link as a link.
  EXPECT_RULES(r, {std::string(kRuleGitDirChanged), std::string(kRuleSymlinkedDirectory)});
  ASSERT_EQ(r.size(), 2u) << describe(r);
  EXPECT_EQ(r[1].rule, kRuleSymlinkedDirectory);
  EXPECT_EQ(r[1].location->file, ".git/refs/evil");
}

TEST_F(WorktreeShapeTest, SymlinkedGitDirectoryIsRefused) {
  in_wt("mv .git ../moved.git && ln -s ../moved.git .git");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleRepository), std::string(kRuleSymlinkedDirectory)});
}

TEST_F(WorktreeShapeTest, SymlinkToAFileIsNotADirectory) {
  in_wt("ln -s package.json lib/pkg-link");
  EXPECT_TRUE(scan_worktree_shape(wt()).ok());
}

TEST_F(WorktreeShapeTest, LockfileEditedByAJobIsRefused) {
  in_wt("printf '{\"lockfileVersion\":3,\"evil\":1}\\n' > package-lock.json");
  const report::Refusals r = refusals_of(check_after_job(wt(), baseline_));
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleLockfileChanged);
  auto now = util::sha256_file(wt() + "/package-lock.json");
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(r[0].message, "lockfile 'package-lock.json' changed during the job (sha256 " +
                              baseline_.lockfile_sha256.at("package-lock.json") + " pinned, now " +
                              *now + ")");
  expect_nothing_executed(baseline_, 1);
}

// A removed lockfile is refused. One the job created (npm install without a lock writes
// package-lock.json, as on CI) is untracked: the sweep before the next job removes it, so it
// cannot change what that job installs.
TEST_F(WorktreeShapeTest, LockfileRemovedByAJobIsRefusedAndOneItCreatedIsSwept) {
  in_wt(
      "rm package-lock.json && printf x > lib/yarn.lock && mkdir -p node_modules/a && "
      "printf y > node_modules/a/yarn.lock");
  const report::Refusals r = refusals_of(check_after_job(wt(), baseline_));
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "lockfile 'package-lock.json' was removed by the job");
  ASSERT_TRUE(remove_created_paths(wt()));
  EXPECT_FALSE(exists(wt() + "/lib/yarn.lock"));
}

TEST_F(WorktreeShapeTest, LockfileReplacedBySymlinkAfterTheJobIsRefused) {
  in_wt(
      "cp package-lock.json ../same && rm package-lock.json && "
      "ln -s ../same package-lock.json && mkdir d ../elsewhere && ln -s ../../elsewhere d/lib");
  const report::Refusals r = refusals_of(check_after_job(wt(), baseline_));
  EXPECT_RULES(r, {std::string(kRuleSymlinkedLockfile), std::string(kRuleSymlinkedDirectory),
                   std::string(kRuleLockfileChanged)});
}

TEST_F(WorktreeShapeTest, RemoveCreatedPathsLeavesACleanClone) {
  in_wt(
      "mkdir -p dist/a/b node_modules/.bin out && printf x > dist/a/b/c.js && "
      "printf y > stray && ln -s /etc node_modules/etc-link && "
      "ln -s ../package.json node_modules/.bin/tool && mkdir ../outside && "
      "printf keep > ../outside/keep && ln -s ../outside out/link && chmod 500 out && "
      "mkfifo lib/fifo");
  ASSERT_FALSE(before(baseline_, 1).empty());
  const util::Status st = remove_created_paths(wt());
  ASSERT_TRUE(st.ok()) << st.error().to_string();
  EXPECT_TRUE(before(baseline_, 1).empty()) << describe(before(baseline_, 1));
  EXPECT_TRUE(exists(wt() + "/../outside/keep"));
  EXPECT_TRUE(exists("/etc/hostname"));
  EXPECT_TRUE(exists(wt() + "/package.json"));
  EXPECT_TRUE(exists(wt() + "/lib/a.txt"));
}

TEST_F(WorktreeShapeTest, RemoveCreatedPathsNeverTouchesTrackedFiles) {
  in_wt(
      "printf changed > lib/a.txt && rm lib/deep/b.txt && mkdir lib/deep/b.txt && "
      "printf z > lib/deep/b.txt/inner");
  ASSERT_TRUE(remove_created_paths(wt()).ok());
  EXPECT_EQ(sh_output(wt(), "cat lib/a.txt", home()), "changed");
  EXPECT_TRUE(exists(wt() + "/lib/deep/b.txt/inner"));
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleCleanClone)});
}

TEST_F(WorktreeShapeTest, AJobCycle) {
  // First job builds, second job starts from a cleaned worktree.
  in_wt("mkdir -p dist node_modules/x && printf b > dist/app.js && printf m > node_modules/x/i");
  EXPECT_TRUE(refusals_of(check_after_job(wt(), baseline_)).empty());
  ASSERT_TRUE(remove_created_paths(wt()).ok());
  EXPECT_TRUE(before(baseline_, 1).empty());
}

}  // namespace
}  // namespace reviewer::git::testing
