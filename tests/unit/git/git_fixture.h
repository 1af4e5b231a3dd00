#pragma once

// Scratch repositories for the git guard tests. Test code drives the real `git` program on
// repositories it creates under /tmp (the guards themselves never run git).

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/git/guards.h"
#include "core/report/refusal.h"
#include "tests/support/refusals_of.h"

namespace reviewer::git::testing {

// A fresh directory under /tmp, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `script` under /bin/sh in `cwd` with a scrubbed environment: HOME=`home`,
// GIT_CONFIG_NOSYSTEM=1, fixed identity. Fails the test on a non-zero exit.
void sh(const std::string& cwd, const std::string& script, const std::string& home);
// Same, returning stdout; never fails the test.
std::string sh_output(const std::string& cwd, const std::string& script, const std::string& home);

void write_file(const std::string& path, const std::string& content);
bool exists(const std::string& path);

using test_support::refusals_of;
std::set<std::string> rules_of(const report::Refusals& refusals);
std::string describe(const report::Refusals& refusals);

// A source repository (two commits, a lockfile, a nested directory) and a clone of it.
class GitFixture : public ::testing::Test {
 protected:
  void SetUp() override;

  // Makes a source repository of this test's own (for tests that change it).
  void use_private_source();
  // Same, with a commit of every path shape whose order the index and its tree hash must get
  // right ("a-b/x" < "a.txt" < "a/b/c" < "a0"), an executable and a symlink; `more` is a shell
  // command that adds files before the commit.
  void use_shapes_source(const std::string& more = "true");
  // Clones the source into `wt()`: depth 1 without tags, or full.
  void clone(int depth, const std::string& extra_args = "");
  // Runs `script` in the worktree.
  void in_wt(const std::string& script) { sh(wt(), script, home()); }
  // Pins the baseline, failing the test if it cannot be pinned.
  Baseline pin();
  report::Refusals before(const Baseline& b, int depth) {
    return refusals_of(check_before_job(wt(), home(), b, depth));
  }

  // Arms every canary (core.fsmonitor, filter/textconv drivers selected by info/attributes,
  // ssh/pager/editor/credential commands, hooks); each would create a file in canary_dir().
  void arm_canaries();
  // Runs every guard entry point on the worktree and asserts no canary ran.
  void expect_nothing_executed(const Baseline& b, int depth);
  bool any_canary_ran() const;

  std::string wt() const { return root_.path() + "/wt"; }
  std::string src() const { return src_; }
  std::string home() const { return root_.path() + "/home"; }
  std::string canary_dir() const { return root_.path() + "/canary"; }
  std::string canary() const { return root_.path() + "/canary.sh"; }

 private:
  TempDir root_;
  std::string src_;
};

// Asserts `refusals` hold exactly the rule ids in `rules`.
#define EXPECT_RULES(refusals, ...)                                                           \
  EXPECT_EQ(::reviewer::git::testing::rules_of(refusals), std::set<std::string>(__VA_ARGS__)) \
      << ::reviewer::git::testing::describe(refusals)

}  // namespace reviewer::git::testing
