// The HEAD comparison's shortcut: the index's tree id, hashed without the object store, must be
// what git writes, and every staged difference must still be named.

#include "core/git/index_tree.h"

#include <array>

#include "core/git/repository.h"
#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class IndexTreeTest : public GitFixture {
 protected:
  void SetUp() override {
    GitFixture::SetUp();
    use_shapes_source();
    clone(1);
    baseline_ = pin();
  }
  // The index tree id hashed here, or empty when the index holds what a tree cannot say.
  std::string hashed() {
    auto repo = detail::open_worktree(wt(), home());
    EXPECT_TRUE(repo.ok());
    auto index = detail::IndexEntries::read(repo->get(), detail::git_dir_of(wt()), kRuleRepository);
    EXPECT_TRUE(index.ok());
    git_oid id;
    if (!detail::index_tree_id(*index, &id)) {
      return "";
    }
    std::array<char, GIT_OID_HEXSZ + 1> hex{};
    git_oid_tostr(hex.data(), hex.size(), &id);
    return hex.data();
  }
  std::string written() { return sh_output(wt(), "git write-tree", home()); }
  Baseline baseline_;
};

TEST_F(IndexTreeTest, AFreshCloneHashesToHeadsTree) {
  EXPECT_EQ(hashed() + "\n", sh_output(wt(), "git rev-parse HEAD^{tree}", home()));
  EXPECT_TRUE(before(baseline_, 1).empty()) << describe(before(baseline_, 1));
}

TEST_F(IndexTreeTest, AStagedModeChangeIsNamed) {
  in_wt("chmod +x a.txt && git add a.txt");
  EXPECT_EQ(hashed() + "\n", written());
  const report::Refusals r = before(baseline_, 1);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].message, "'a.txt' differs from a clean clone (staged mode differs from HEAD)");
}

TEST_F(IndexTreeTest, AnEntryRemovedFromTheIndexIsNamed) {
  in_wt("git rm -q --cached a/b/c");
  EXPECT_EQ(hashed() + "\n", written());
  const report::Refusals r = before(baseline_, 1);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].message, "'a/b/c' differs from a clean clone (removed from the index)");
}

TEST_F(IndexTreeTest, AnEntryAddedToTheIndexIsNamed) {
  in_wt("echo 5 > a/new && git add a/new");
  EXPECT_EQ(hashed() + "\n", written());
  const report::Refusals r = before(baseline_, 1);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].message, "'a/new' differs from a clean clone (added to the index)");
}

TEST_F(IndexTreeTest, AnUnmergedIndexIsNotHashed) {
  in_wt(
      "h=$(git rev-parse :a.txt) && printf '100644 %s 1\\ta.txt\\n' $h | git update-index "
      "--index-info");
  EXPECT_EQ(hashed(), "");
  EXPECT_RULES(before(baseline_, 1), {std::string(kRuleCleanClone)});
}

}  // namespace
}  // namespace reviewer::git::testing
