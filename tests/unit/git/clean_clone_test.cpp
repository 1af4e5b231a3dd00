// The clean-clone check: index bits, status, HEAD and remotes against the first job.

#include <sys/xattr.h>
#include <unistd.h>

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class CleanCloneTest : public GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    clone(1);
    baseline_ = pin();
  }
  // Later than the pin on the coarse clock, so the change gets a later ctime.
  void tick() { ::usleep(20000); }
  Baseline baseline_;
};

TEST_F(CleanCloneTest, FreshCloneIsClean) { EXPECT_TRUE(before(baseline_, 1).empty()); }

TEST_F(CleanCloneTest, TouchedButUnchangedFileIsClean) {
  tick();
  in_wt("touch lib/a.txt package-lock.json");
  EXPECT_TRUE(before(baseline_, 1).empty()) << describe(before(baseline_, 1));
}

// A binary file whose content gets compared (any stat change forces that: the run model's and
// `reviewer review`'s chown, a touch) is as clean as git says. libgit2's default blob filter
// returns nothing for a binary blob, which read as "modified" for every repository holding an
// image (the attack on the launcher, finding 4).
class BinaryCleanCloneTest : public GitFixture {};

TEST_F(BinaryCleanCloneTest, TouchedBinaryFilesAreClean) {
  use_private_source();
  sh(src(),
     "printf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\rIHDR\\000\\001' > logo.png && "
     "head -c 4096 /dev/urandom > blob.bin && printf 'a\\000b\\r\\n' > crlf.dat && "
     "printf '*.dat text=auto\\n' > .gitattributes && "
     "git add -A && git -c user.name=t -c user.email=t@e commit -qm binaries",
     home());
  clone(1);
  const Baseline baseline = pin();
  ::usleep(20000);
  in_wt("touch logo.png blob.bin crlf.dat");
  EXPECT_EQ(sh_output(wt(), "git status --porcelain", home()), "");
  EXPECT_TRUE(before(baseline, 1).empty()) << describe(before(baseline, 1));
  // And an edit of one is still a change.
  in_wt("printf 'x' >> blob.bin");
  const report::Refusals r = before(baseline, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "'blob.bin' differs from a clean clone (modified)");
}

// The attack on the launcher, finding 2: job `lint` writes .git/info/attributes and converts the
// files it names; job `test` saw modified tracked files that the check took for clean, because
// the comparison read the new attributes too.
TEST_F(CleanCloneTest, InfoAttributesWrittenByAJobAreRefused) {
  tick();
  in_wt(
      "printf 'lib/a.txt text eol=crlf\\npackage-lock.json ident\\n' > .git/info/attributes && "
      "printf 'one\\r\\ntwo\\r\\n' > lib/a.txt");
  EXPECT_NE(sh_output(wt(), "git status --porcelain", home()), "");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleGitDirChanged);
  EXPECT_EQ(r[0].message,
            "'.git/info/attributes' was created after the first job; a job changed the clone's "
            "git directory, and on GitHub the next job gets a fresh clone");
}

TEST_F(CleanCloneTest, ChangedOrRemovedInfoFilesAreRefused) {
  in_wt("printf 'extra\\n' >> .git/info/exclude");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleGitDirChanged)});
  in_wt("rm .git/info/exclude");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message.substr(0, 48), "'.git/info/exclude' was removed after the first ");
}

TEST_F(CleanCloneTest, AFifoInTheGitDirectoryIsRefusedWithoutBlocking) {
  in_wt("mkfifo .git/info/attributes");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleGitDirChanged)});
}

TEST_F(CleanCloneTest, NewTopLevelGitFilesAreRefusedButFetchHeadIsNot) {
  in_wt("git rev-parse HEAD > .git/FETCH_HEAD && cp .git/FETCH_HEAD .git/ORIG_HEAD");
  EXPECT_TRUE(before(baseline_, 1).empty()) << describe(before(baseline_, 1));
  in_wt("echo x > .git/planted && mkdir .git/modules");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_EQ(describe(r),
            ".git/modules: git-dir-changed: '.git/modules' was created after the first job; a "
            "job changed the clone's git directory, and on GitHub the next job gets a fresh "
            "clone\n.git/planted: git-dir-changed: '.git/planted' was created after the first "
            "job; a job changed the clone's git directory, and on GitHub the next job gets a "
            "fresh clone\n");
}

// The attack on the launcher, finding 3: a file deep in the git directory (a log, a loose
// object, a stash ref) is state one job hands the next; only the outermost new path is named.
TEST_F(CleanCloneTest, NewFilesDeepInTheGitDirectoryAreRefused) {
  in_wt(
      "mkdir -p .git/logs .git/objects/zz && echo x > .git/logs/lint-state && "
      "echo x > .git/objects/zz/state && echo x > .git/refs/stash");
  const report::Refusals r = before(baseline_, 1);
  std::vector<std::string> paths;
  for (const auto& one : r) {
    EXPECT_EQ(one.rule, kRuleGitDirChanged);
    paths.push_back(one.location ? one.location->file : "");
  }
  EXPECT_EQ(paths, (std::vector<std::string>{".git/logs/lint-state", ".git/refs/stash"}))
      << describe(r);
  EXPECT_EQ(r[0].message,
            "'.git/logs/lint-state' was created after the first job; a job changed the clone's "
            "git directory, and on GitHub the next job gets a fresh clone");
}

// A loose object nothing refers to: the next job finds it by listing objects/. Reported when
// nothing else is (a moved HEAD or a new ref names the cause of new objects instead).
TEST_F(CleanCloneTest, AnUnreferencedObjectIsRefusedWhenNothingElseIs) {
  in_wt(
      "echo lint-state | git hash-object -w --stdin > /dev/null && "
      "echo x > .git/objects/zz-state");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleGitDirChanged)});
  ASSERT_EQ(r.size(), 2u) << describe(r);
  EXPECT_EQ(r[1].location->file, ".git/objects/zz-state");
}

TEST_F(CleanCloneTest, AFifoDeepInTheGitDirectoryIsRefusedWithoutBlocking) {
  in_wt("mkfifo .git/refs/heads/planted");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleGitDirChanged)});
}

// The attack on the launcher, finding 3: a user extended attribute on a tracked file survives
// into the next job; git carries none, so the check compares them with the first job's.
TEST_F(CleanCloneTest, AUserXattrSetOnATrackedFileIsRefused) {
  const std::string file = wt() + "/lib/a.txt";
  if (::setxattr(file.c_str(), "user.lint", "state", 5, 0) != 0) {
    GTEST_SKIP() << "this filesystem takes no user extended attributes";
  }
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleTrackedXattr);
  EXPECT_EQ(r[0].message,
            "'lib/a.txt' has extended attribute 'user.lint' that it did not have at the first "
            "job; git carries no extended attributes, so a job set it, and on GitHub the next "
            "job gets a fresh clone");
  // One the first job saw stays accepted as it was, and is refused once changed.
  const Baseline with = pin();
  EXPECT_TRUE(before(with, 1).empty()) << describe(before(with, 1));
  ASSERT_EQ(::setxattr(file.c_str(), "user.lint", "other", 5, 0), 0);
  const report::Refusals changed = before(with, 1);
  ASSERT_EQ(changed.size(), 1u) << describe(changed);
  EXPECT_EQ(changed[0].message.rfind("'lib/a.txt' has extended attribute 'user.lint' changed", 0),
            0u)
      << changed[0].message;
}

// Pinned attributes are reused only for the inode they were read from. Swapping two directories
// moves their files without touching the files' ctime, and a refreshed index then vouches for the
// moved inodes, yet each path's attributes are still compared: the path holds another inode.
class XattrShortcutTest : public GitFixture {};

TEST_F(XattrShortcutTest, AnAttributeMovedWithItsDirectoryIsRefusedDespiteARefreshedIndex) {
  use_private_source();
  sh(src(),
     "mkdir x y && echo same > x/f.txt && echo same > y/f.txt && git add -A && "
     "git -c user.name=t -c user.email=t@e commit -qm dirs",
     home());
  clone(1);
  if (::setxattr((wt() + "/x/f.txt").c_str(), "user.lint", "state", 5, 0) != 0) {
    GTEST_SKIP() << "this filesystem takes no user extended attributes";
  }
  // Settled: the attribute's ctime is before the pin.
  ::usleep(20000);
  const Baseline baseline = pin();
  EXPECT_TRUE(before(baseline, 1).empty()) << describe(before(baseline, 1));
  ::usleep(20000);
  in_wt("mv x t && mv y x && mv t y && git update-index -q --really-refresh");
  const report::Refusals r = before(baseline, 1);
  EXPECT_RULES(r, {std::string(kRuleTrackedXattr)});
  ASSERT_EQ(r.size(), 2u) << describe(r);
  EXPECT_EQ(r[0].location->file, "y/f.txt");
  EXPECT_EQ(r[1].location->file, "x/f.txt");
}

TEST_F(CleanCloneTest, AssumeUnchangedBitIsRefused) {
  in_wt("git update-index --assume-unchanged lib/a.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleIndexFlags);
  EXPECT_EQ(r[0].message,
            "'lib/a.txt' carries the assume-unchanged bit, so git status would not look at it; a "
            "clone sets no index bits");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, AssumeUnchangedHidesAnEditFromGitButNotFromTheGuard) {
  in_wt("git update-index --assume-unchanged lib/a.txt && printf 'evil\\n' > lib/a.txt");
  EXPECT_EQ(sh_output(wt(), "git status --porcelain", home()), "");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleIndexFlags), std::string(kRuleCleanClone)});
}

TEST_F(CleanCloneTest, SkipWorktreeBitIsRefused) {
  in_wt("git update-index --skip-worktree lib/deep/b.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleIndexFlags);
  EXPECT_EQ(r[0].message,
            "'lib/deep/b.txt' carries the skip-worktree bit, so git status would not look at it; "
            "a clone sets no index bits");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, UntrackedFileIsRefused) {
  in_wt("printf x > stray.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleCleanClone);
  EXPECT_EQ(r[0].message, "untracked path 'stray.txt' is not part of a clean clone");
  EXPECT_EQ(r[0].location->file, "stray.txt");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, IgnoredFileIsRefused) {
  in_wt("mkdir -p dist/x && printf x > dist/x/out.js");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleCleanClone);
  EXPECT_EQ(r[0].message, "ignored path 'dist/' is not part of a clean clone");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, EmptyUntrackedDirectoryIsRefused) {
  in_wt("mkdir lib/empty");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleCleanClone)});
}

TEST_F(CleanCloneTest, ModifiedFileIsRefused) {
  tick();
  in_wt("printf 'changed\\n' >> lib/a.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleCleanClone);
  EXPECT_EQ(r[0].message, "'lib/a.txt' differs from a clean clone (modified)");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, SameSizeSameSecondEditIsRefused) {
  // Same size, mtime restored: only ctime (and the bytes) tell.
  tick();
  in_wt(
      "cp -p lib/deep/b.txt ../keep && printf 'y\\n' > lib/deep/b.txt && "
      "touch -r ../keep lib/deep/b.txt");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleCleanClone)});
}

TEST_F(CleanCloneTest, DeletedFileIsRefused) {
  in_wt("rm lib/deep/b.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "'lib/deep/b.txt' differs from a clean clone (deleted)");
}

TEST_F(CleanCloneTest, ModeChangeIsRefused) {
  in_wt("chmod -x run.sh");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "'run.sh' differs from a clean clone (mode changed)");
}

TEST_F(CleanCloneTest, LineEndingOnlyChangeIsRefused) {
  tick();
  in_wt("printf 'one\\r\\ntwo\\r\\n' > lib/a.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "'lib/a.txt' differs from a clean clone (modified)");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, LineEndingOnlyChangeUnderTextAttributeIsRefused) {
  // With `text`, `git add` normalises CRLF away: the blob stays HEAD's, the index takes the new
  // file's stat data and status reports nothing. The guard compares with the checkout bytes.
  in_wt("printf '*.txt text\\n' > .git/info/attributes");
  tick();
  in_wt("printf 'one\\r\\ntwo\\r\\n' > lib/a.txt && git add lib/a.txt");
  EXPECT_EQ(sh_output(wt(), "git status --porcelain", home()), "");
  const report::Refusals r = before(baseline_, 1);
  // The attributes file itself is a change to the git directory, refused too.
  ASSERT_EQ(r.size(), 2u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleGitDirChanged);
  EXPECT_EQ(r[1].message, "'lib/a.txt' differs from a clean clone (modified)");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, StagedChangeIsRefused) {
  tick();
  in_wt("printf 'staged\\n' > lib/a.txt && git add lib/a.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].message,
            "'lib/a.txt' differs from a clean clone (staged content differs from HEAD)");
  EXPECT_RULES(r, {std::string(kRuleCleanClone)});
}

TEST_F(CleanCloneTest, TrackedFileReplacedBySymlinkIsRefused) {
  in_wt("rm lib/a.txt && ln -s ../package.json lib/a.txt");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "'lib/a.txt' differs from a clean clone (type changed)");
}

TEST_F(CleanCloneTest, ReplaceObjectsDoNotHideAStagedChange) {
  // A replace ref makes git compare the index with another commit's tree; libgit2 never
  // consults refs/replace, so the comparison still sees the real HEAD. The replace ref itself is
  // refused too (ReplaceRefsTest).
  tick();
  in_wt(
      "printf 'evil\\n' > lib/a.txt && git add lib/a.txt && "
      "c=$(git commit-tree $(git write-tree) -m evil) && git replace HEAD $c");
  EXPECT_EQ(sh_output(wt(), "git status --porcelain", home()), "");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 2u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleCleanClone);
  EXPECT_EQ(r[0].message,
            "'lib/a.txt' differs from a clean clone (staged content differs from HEAD)");
  EXPECT_EQ(r[1].rule, kRuleHistoryShape);
  EXPECT_EQ(r[1].message, "replace ref 'refs/replace/" + baseline_.head +
                              "' makes git read another object in place of one the clone "
                              "fetched; a clone has no refs under refs/replace/");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, ManyPathsAreCounted) {
  in_wt("for i in $(seq 1 30); do printf x > u$i; done");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 21u);
  EXPECT_EQ(r.back().message, "10 more paths differ from a clean clone");
}

TEST_F(CleanCloneTest, MovedHeadIsRefused) {
  in_wt("git commit -q --allow-empty -m moved");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleHeadMoved), std::string(kRuleHistoryShape)});
  for (const auto& each : r) {
    if (each.rule != kRuleHeadMoved) {
      continue;
    }
    EXPECT_EQ(each.message.substr(0, 24), "HEAD is refs/heads/main ");
    EXPECT_NE(
        each.message.find(", pinned at the first job as refs/heads/main at " + baseline_.head),
        std::string::npos)
        << each.message;
  }
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, DetachedHeadIsRefused) {
  in_wt("git checkout -q --detach");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHeadMoved);
  EXPECT_EQ(r[0].message, "HEAD is detached at " + baseline_.head +
                              ", pinned at the first job as refs/heads/main at " + baseline_.head);
}

TEST_F(CleanCloneTest, ChangedRemoteUrlIsRefused) {
  in_wt("git remote set-url origin https://evil.example/x.git");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleRemoteChanged);
  EXPECT_EQ(r[0].message, "remote 'origin' url differs from the one pinned at the first job");
  EXPECT_EQ(r[0].message.find("evil"), std::string::npos);
  expect_nothing_executed(baseline_, 1);
}

TEST_F(CleanCloneTest, ChangedFetchRefspecAndNewRemoteAreRefused) {
  in_wt(
      "git config --add remote.origin.fetch +refs/pull/*:refs/remotes/pr/* && "
      "git remote add other https://example.com/o.git");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleRemoteChanged)});
  EXPECT_EQ(r.size(), 3u) << describe(r);
}

TEST_F(CleanCloneTest, InsteadOfDoesNotChangeThePinnedUrl) {
  const Baseline b = pin();
  EXPECT_EQ(b.remote_urls.at("origin"), "file://" + src());
  EXPECT_EQ(b.remote_fetch.at("origin"),
            std::vector<std::string>{"+refs/heads/main:refs/remotes/origin/main"});
  in_wt("git config url.https://evil.example/.insteadOf file://");
  EXPECT_RULES(before(b, 1), {std::string(kRuleConfigKey)});
}

}  // namespace
}  // namespace reviewer::git::testing
