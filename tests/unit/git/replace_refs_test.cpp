// Replace refs planted under `.git`: git 2.39 honours every one it can read, libgit2 1.5 none, so
// the guard's own walk and tree comparison would vouch for history and content git no longer
// shows. Each attack is shown to work on real git first.

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class ReplaceRefsTest : public GitFixture {
 protected:
  void start(int depth) {
    clone(depth);
    baseline_ = pin();
    ASSERT_TRUE(before(baseline_, depth).empty()) << describe(before(baseline_, depth));
    head_ = git_out("git rev-parse HEAD");
    ASSERT_EQ(head_.size(), 41u);
    head_.pop_back();
  }
  std::string git_dir() const { return wt() + "/.git"; }
  std::string git_out(const std::string& script) { return sh_output(wt(), script, home()); }
  static std::string message(const std::string& ref) {
    return "replace ref '" + ref +
           "' makes git read another object in place of one the clone fetched; a clone has no "
           "refs under refs/replace/";
  }
  // The one refusal `refusals` must hold.
  void expect_only(const report::Refusals& refusals, const std::string& msg,
                   const std::string& file) {
    ASSERT_EQ(refusals.size(), 1u) << describe(refusals);
    EXPECT_EQ(refusals[0].rule, kRuleHistoryShape);
    EXPECT_EQ(refusals[0].message, msg);
    ASSERT_TRUE(refusals[0].location.has_value());
    EXPECT_EQ(refusals[0].location->file, file);
  }
  Baseline baseline_;
  std::string head_;
};

// A full clone grafted to one commit: every git a build runs sees a one-commit history, while
// the guard's own walk (libgit2 ignores refs/replace) still counts two.
TEST_F(ReplaceRefsTest, GraftedHeadInFullCloneIsRefused) {
  start(0);
  in_wt("git replace --graft HEAD");
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "1\n");
  EXPECT_EQ(git_out("git --no-replace-objects rev-list --count HEAD"), "2\n");
  auto shape = history_shape(wt());
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape->commit_count, 2);
  expect_only(before(baseline_, 0), message("refs/replace/" + head_),
              git_dir() + "/refs/replace/" + head_);
  expect_nothing_executed(baseline_, 0);
}

// `git pack-refs --all` moves the ref into packed-refs and leaves no loose file behind.
TEST_F(ReplaceRefsTest, PackedReplaceRefIsRefused) {
  start(0);
  in_wt("git replace --graft HEAD && git pack-refs --all");
  EXPECT_FALSE(exists(git_dir() + "/refs/replace/" + head_));
  EXPECT_EQ(git_out("grep -c ' refs/replace/" + head_ + "$' .git/packed-refs"), "1\n");
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "1\n");
  expect_only(before(baseline_, 0), message("refs/replace/" + head_), git_dir() + "/packed-refs");
}

// Content, not history: a blob of HEAD's tree replaced in a depth-1 clone. git shows the
// planted bytes for HEAD:lib/a.txt; the worktree and the index still match the fetched tree.
TEST_F(ReplaceRefsTest, ReplacedBlobInDepthOneCloneIsRefused) {
  start(1);
  std::string blob = git_out("git rev-parse HEAD:lib/a.txt");
  ASSERT_EQ(blob.size(), 41u);
  blob.pop_back();
  in_wt("git replace " + blob + " $(printf 'evil\\n' | git hash-object -w --stdin)");
  EXPECT_EQ(git_out("git cat-file -p HEAD:lib/a.txt"), "evil\n");
  EXPECT_EQ(git_out("git --no-replace-objects cat-file -p HEAD:lib/a.txt"), "one\ntwo\n");
  expect_only(before(baseline_, 1), message("refs/replace/" + blob),
              git_dir() + "/refs/replace/" + blob);
  expect_nothing_executed(baseline_, 1);
}

// A loose ref that is a symlink to a file holding the replacement: git follows it.
TEST_F(ReplaceRefsTest, SymlinkedLooseReplaceRefIsRefused) {
  start(0);
  in_wt("git replace --graft HEAD && git rev-parse refs/replace/" + head_ +
        " > ../replacement && rm .git/refs/replace/" + head_ +
        " && ln -s ../../../../replacement .git/refs/replace/" + head_);
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "1\n");
  expect_only(before(baseline_, 0), message("refs/replace/" + head_),
              git_dir() + "/refs/replace/" + head_);
}

// Loose entries libgit2's reference iterator skips (a dangling symlink, a symlink naming a
// ref the way old git wrote symbolic refs, unparsable bytes) and git 2.39 does not apply
// either: refused by name all the same, since the git a build runs may read them otherwise.
TEST_F(ReplaceRefsTest, LooseEntriesLibgit2CannotReadAreRefused) {
  start(1);
  in_wt("mkdir -p .git/refs/replace/nested && ln -s nowhere .git/refs/replace/" + head_ +
        " && ln -s refs/heads/main .git/refs/replace/nested/a && "
        "printf 'garbage\\n' > .git/refs/replace/nested/b");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 3u) << describe(r);
  const std::string names[] = {"refs/replace/" + head_, "refs/replace/nested/a",
                               "refs/replace/nested/b"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r[i].rule, kRuleHistoryShape);
    EXPECT_EQ(r[i].message, message(names[i]));
    EXPECT_EQ(r[i].location->file, git_dir() + "/" + names[i]);
  }
}

// `refs/replace` itself a symlink to a directory of replace refs: git reads through it.
TEST_F(ReplaceRefsTest, SymlinkedReplaceDirectoryIsRefused) {
  start(0);
  in_wt(
      "git replace --graft HEAD && mv .git/refs/replace ../elsewhere && "
      "ln -s ../../../elsewhere .git/refs/replace");
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "1\n");
  const report::Refusals r = before(baseline_, 0);
  EXPECT_RULES(r, {std::string(kRuleHistoryShape), std::string(kRuleSymlinkedDirectory)});
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].message, "'" + git_dir() +
                              "/refs/replace' is not a real directory; a clone has no replace "
                              "refs");
}

TEST_F(ReplaceRefsTest, ManyReplaceRefsAreCounted) {
  start(1);
  in_wt("for i in $(seq 10 34); do git update-ref refs/replace/r$i HEAD; done");
  const report::Refusals r = before(baseline_, 1);
  ASSERT_EQ(r.size(), 21u) << describe(r);
  EXPECT_EQ(r[19].message, message("refs/replace/r29"));
  EXPECT_EQ(r[20].rule, kRuleHistoryShape);
  EXPECT_EQ(r[20].message, "5 more replace refs; a clone has no refs under refs/replace/");
}

// A replace ref written and deleted again leaves an empty `refs/replace` (pack-refs keeps the
// directory): nothing is replaced, and history-shape refuses nothing. The graft commit the job
// wrote is still in the object store, which is what is refused (git-dir-changed): state one job
// left for the next.
TEST_F(ReplaceRefsTest, EmptyReplaceDirectoryIsAccepted) {
  start(0);
  in_wt("git replace --graft HEAD && git pack-refs --all && git replace -d " + head_);
  EXPECT_TRUE(exists(git_dir() + "/refs/replace"));
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "2\n");
  const report::Refusals r = before(baseline_, 0);
  EXPECT_RULES(r, {std::string(kRuleGitDirChanged)});
  for (const auto& one : r) {
    EXPECT_EQ(one.location->file.substr(0, 13), ".git/objects/") << describe(r);
  }
}

}  // namespace
}  // namespace reviewer::git::testing
