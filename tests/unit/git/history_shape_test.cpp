// History shaped as fetch-depth asks: depth 1 = shallow, one commit, no tags; depth 0 = full.

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class HistoryShapeTest : public GitFixture {};

TEST_F(HistoryShapeTest, DepthOneClone) {
  clone(1);
  auto s = history_shape(wt());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_TRUE(s->shallow);
  EXPECT_EQ(s->commit_count, 1);
  EXPECT_EQ(s->tag_count, 0);
}

TEST_F(HistoryShapeTest, FullClone) {
  clone(0);
  auto s = history_shape(wt());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_FALSE(s->shallow);
  EXPECT_EQ(s->commit_count, 2);
  EXPECT_EQ(s->tag_count, 1);
  const Baseline b = pin();
  EXPECT_TRUE(before(b, 0).empty()) << describe(before(b, 0));
}

TEST_F(HistoryShapeTest, DepthOneCloneWithATagIsRefused) {
  use_private_source();
  sh(src(), "git tag v1", home());
  // Without --no-tags, a depth-1 clone follows the tag that points at HEAD.
  sh(src() + "/..", "git clone -q --depth 1 file://" + src() + " wt", home());
  const Baseline b = pin();
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, "the repository holds 1 tag; fetch-depth 1 fetches none");
  expect_nothing_executed(b, 1);
}

TEST_F(HistoryShapeTest, DeepenedCloneIsRefused) {
  clone(1);
  const Baseline b = pin();
  in_wt("git fetch -q --deepen=1 --no-tags origin");
  auto s = history_shape(wt());
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->shallow);
  EXPECT_EQ(s->commit_count, 2);
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message,
            "HEAD reaches more than one commit (a deepened clone); fetch-depth 1 wants exactly "
            "one");
  expect_nothing_executed(b, 1);
}

TEST_F(HistoryShapeTest, UnshallowedCloneIsRefusedForDepthOne) {
  clone(1);
  const Baseline b = pin();
  in_wt("git fetch -q --unshallow --no-tags origin");
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message,
            "the history is full, not shallow; fetch-depth 1 wants a shallow clone of one "
            "commit");
}

TEST_F(HistoryShapeTest, ShallowCloneIsRefusedForDepthZero) {
  clone(1);
  const Baseline b = pin();
  const report::Refusals r = before(b, 0);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, "the history is shallow; fetch-depth 0 wants the full history");
}

TEST_F(HistoryShapeTest, OtherDepthIsRefused) {
  clone(1);
  const Baseline b = pin();
  const report::Refusals r = before(b, 2);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, "fetch-depth 2 cannot be checked; accepted: 1 (default) or 0");
}

// git (not libgit2 1.5) still honours info/grafts: a full clone grafted to one commit looks
// shallow to every git a build runs, while the guard's own walk sees the full history.
TEST_F(HistoryShapeTest, GraftsAreRefused) {
  clone(0);
  const Baseline b = pin();
  in_wt("git rev-parse HEAD > .git/info/grafts");
  EXPECT_EQ(sh_output(wt(), "git rev-list --count HEAD", home()), "1\n");
  const report::Refusals r = before(b, 0);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, "'" + wt() +
                              "/.git/info/grafts' rewrites the parents git sees; a clone has no "
                              "grafts file");
  EXPECT_EQ(r[0].location->file, wt() + "/.git/info/grafts");
  expect_nothing_executed(b, 0);
}

// A grafts file behind a symlink is still a grafts file to git.
TEST_F(HistoryShapeTest, SymlinkedGraftsAreRefused) {
  clone(1);
  const Baseline b = pin();
  in_wt("git rev-parse HEAD > ../grafts && ln -s ../../grafts .git/info/grafts");
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, "'" + wt() +
                              "/.git/info/grafts' rewrites the parents git sees; a clone has no "
                              "grafts file");
}

// `.git/shallow` replaced: it is read without following links, and the walk from HEAD must end
// at the roots it names (a removed file names none, so the walk reaches a missing parent).
TEST_F(HistoryShapeTest, SymlinkedShallowIsRefused) {
  clone(1);
  const Baseline b = pin();
  in_wt("cp .git/shallow ../shallow && rm .git/shallow && ln -s ../../shallow .git/shallow");
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, "cannot read '" + wt() + "/.git/shallow'");
}

TEST_F(HistoryShapeTest, ShallowNamingAnotherCommitOrRemovedIsRefused) {
  clone(1);
  const Baseline b = pin();
  const std::string parent = sh_output(src(), "git rev-parse HEAD~1", home());
  ASSERT_EQ(parent.size(), 41u);
  const std::string missing =
      "a commit reachable from HEAD is missing: object not found - no "
      "match for id (" +
      parent.substr(0, 40) + ")";
  write_file(wt() + "/.git/shallow", parent);
  report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleHistoryShape);
  EXPECT_EQ(r[0].message, missing);
  in_wt("rm .git/shallow");
  r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, missing);
}

}  // namespace
}  // namespace reviewer::git::testing
