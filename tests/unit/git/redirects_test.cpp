// Files a job can plant in `.git` that make git or libgit2 read another repository's common
// directory or objects. Each attack is planted in a real clone and shown to work on
// real git first, so the refusal is tied to an effect and not just to a file name.

#include <unistd.h>

#include "core/git/redirects.h"
#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

class RedirectsTest : public GitFixture {
 protected:
  void start(int depth) {
    clone(depth);
    baseline_ = pin();
    ASSERT_TRUE(before(baseline_, depth).empty()) << describe(before(baseline_, depth));
  }
  std::string git_dir() const { return wt() + "/.git"; }
  std::string root() const { return wt().substr(0, wt().size() - 3); }
  std::string git_out(const std::string& script) { return sh_output(wt(), script, home()); }
  // The one refusal `refusals` must hold.
  void expect_only(const report::Refusals& refusals, std::string_view rule,
                   const std::string& message, const std::string& file) {
    ASSERT_EQ(refusals.size(), 1u) << describe(refusals);
    EXPECT_EQ(refusals[0].rule, rule);
    EXPECT_EQ(refusals[0].message, message);
    ASSERT_TRUE(refusals[0].location.has_value());
    EXPECT_EQ(refusals[0].location->file, file);
  }
  Baseline baseline_;
};

// The common directory copied out and deepened there: git in the worktree now sees two commits
// while `.git/shallow` (which libgit2 1.5 reads from the git directory, not the common one)
// still names one. The `gitdir` file is what later libgit2 releases need to open it.
TEST_F(RedirectsTest, CommondirWithGitdirIsRefused) {
  start(1);
  in_wt(
      "cp -a .git ../common && git --git-dir=../common fetch -q --deepen=1 --no-tags origin && "
      "printf '../../common\\n' > .git/commondir && printf '%s/.git\\n' \"$PWD\" > .git/gitdir");
  EXPECT_EQ(git_out("git rev-list --count HEAD"), "2\n");
  expect_only(before(baseline_, 1), kRuleRedirect,
              "'" + git_dir() +
                  "/commondir' moves the common directory (config, refs, objects, hooks) out "
                  "of the clone; a clone's git directory has no commondir file",
              git_dir() + "/commondir");
  expect_only(refusals_of(check_clean_clone(wt(), home(), baseline_)), kRuleRedirect,
              "'" + git_dir() +
                  "/commondir' moves the common directory (config, refs, objects, hooks) out "
                  "of the clone; a clone's git directory has no commondir file",
              git_dir() + "/commondir");
  expect_nothing_executed(baseline_, 1);
}

// A lone commondir file: git and libgit2 1.5 both read config, refs and objects from the copy.
TEST_F(RedirectsTest, CommondirAloneIsRefusedByName) {
  start(0);
  in_wt("cp -a .git ../common && printf '../../common\\n' > .git/commondir");
  EXPECT_EQ(git_out("git rev-parse --git-common-dir"), root() + "/common\n");
  expect_only(before(baseline_, 0), kRuleRedirect,
              "'" + git_dir() +
                  "/commondir' moves the common directory (config, refs, objects, hooks) out "
                  "of the clone; a clone's git directory has no commondir file",
              git_dir() + "/commondir");
}

// A depth-1 clone borrowing the source's object store: an object the clone never fetched
// becomes readable.
TEST_F(RedirectsTest, AlternatesAreRefused) {
  start(1);
  const std::string parent = sh_output(src(), "git rev-parse HEAD~1", home());
  ASSERT_EQ(parent.size(), 41u);
  const std::string probe = "git cat-file -e " + parent.substr(0, 40);
  in_wt("! " + probe);
  write_file(git_dir() + "/objects/info/alternates", src() + "/.git/objects\n");
  in_wt(probe);
  expect_only(before(baseline_, 1), kRuleRedirect,
              "'" + git_dir() +
                  "/objects/info/alternates' borrows objects from another object store; a "
                  "clone's objects/info holds no alternates",
              git_dir() + "/objects/info/alternates");
  expect_nothing_executed(baseline_, 1);
}

TEST_F(RedirectsTest, HttpAlternatesAreRefused) {
  start(0);
  write_file(git_dir() + "/objects/info/http-alternates", "https://example.invalid/objects\n");
  expect_only(before(baseline_, 0), kRuleRedirect,
              "'" + git_dir() +
                  "/objects/info/http-alternates' borrows objects from another object store "
                  "over HTTP; a clone's objects/info holds no alternates",
              git_dir() + "/objects/info/http-alternates");
}

// Alternates hidden behind a symlinked objects/info directory.
TEST_F(RedirectsTest, SymlinkedObjectsInfoIsRefused) {
  start(1);
  in_wt(
      "mv .git/objects/info ../info && ln -s ../../../info .git/objects/info && "
      "printf '%s\\n' '" +
      src() + "/.git/objects' > ../info/alternates");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleRedirect), std::string(kRuleSymlinkedDirectory)});
  for (const auto& each : r) {
    if (each.rule == kRuleRedirect) {
      EXPECT_EQ(each.message, "'" + git_dir() +
                                  "/objects/info' is a symlink; a clone's object store is a "
                                  "real directory inside its git directory");
    }
  }
}

// A dangling link is no directory symlink, so only this guard names it.
TEST_F(RedirectsTest, DanglingObjectsInfoSymlinkIsRefused) {
  start(1);
  in_wt("rmdir .git/objects/info && ln -s ../../../nowhere .git/objects/info");
  expect_only(before(baseline_, 1), kRuleRedirect,
              "'" + git_dir() +
                  "/objects/info' is a symlink; a clone's object store is a real directory "
                  "inside its git directory",
              git_dir() + "/objects/info");
}

TEST_F(RedirectsTest, SymlinkedObjectsDirectoryIsRefused) {
  start(1);
  in_wt("mv .git/objects ../objects && ln -s ../../objects .git/objects");
  const report::Refusals r = before(baseline_, 1);
  EXPECT_RULES(r, {std::string(kRuleRedirect), std::string(kRuleSymlinkedDirectory)});
  for (const auto& each : r) {
    if (each.rule == kRuleRedirect) {
      EXPECT_EQ(each.message, "'" + git_dir() +
                                  "/objects' is a symlink; a clone's object store is a real "
                                  "directory inside its git directory");
    }
  }
}

TEST_F(RedirectsTest, ObjectsInfoThatIsAFileIsRefused) {
  start(1);
  in_wt("rmdir .git/objects/info && printf x > .git/objects/info");
  expect_only(before(baseline_, 1), kRuleRedirect,
              "'" + git_dir() +
                  "/objects/info' is not a directory; a clone's object store is a real "
                  "directory inside its git directory",
              git_dir() + "/objects/info");
}

TEST_F(RedirectsTest, FreshClonesHaveNoRedirects) {
  clone(1);
  EXPECT_TRUE(refusals_of(check_redirects(wt())).empty())
      << describe(refusals_of(check_redirects(wt())));
  in_wt("rmdir .git/objects/info");
  EXPECT_TRUE(refusals_of(check_redirects(wt())).empty())
      << describe(refusals_of(check_redirects(wt())));
}

}  // namespace
}  // namespace reviewer::git::testing
