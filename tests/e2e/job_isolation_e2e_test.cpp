// On GitHub every job gets a fresh runner. Here the jobs of a needs closure share one sandbox, so
// what a job leaves in /tmp, /var/tmp, /run or its HOME must be gone before the next job starts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(LauncherE2E, WhatAJobLeftOutsideTheWorktreeIsGoneForTheNextJob) {
  ExampleRepo repo;
  // Links out of the scratch areas check that removal unlinks a link rather than following it.
  const std::string leaks =
      "/tmp/leak /var/tmp/leak2 /run/leak3 /tmp/review/build-*/job-0/home/leak4 /tmp/leakdir "
      "/tmp/leaklink /tmp/review/leak5";
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("a",
                   "      - run: |\n"
                   "          echo x > /tmp/leak; echo x > /var/tmp/leak2; echo x > /run/leak3\n"
                   "          echo x > \"$HOME/leak4\"\n"
                   "          mkdir -p /tmp/leakdir/sub && chmod 000 /tmp/leakdir/sub\n"
                   "          ln -s /workspace/package.json /tmp/leakdir/link\n"
                   "          ln -s /workspace /tmp/leaklink\n"
                   "          echo x > /tmp/review/leak5\n"
                   "      - run: |\n"
                   "          for f in " +
                       leaks + "; do test -e \"$f\" && echo \"a-wrote $f\"; done\n") +
               job("b",
                   "      - run: |\n"
                   "          for f in " +
                       leaks +
                       "; do\n"
                       "            if test -e \"$f\" || test -L \"$f\"; then echo \"b-sees $f\"; "
                       "fi\n"
                       "          done\n"
                       "          echo b-looked\n",
                   "    needs: a\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("b"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // The canary: every leak was really there while job a ran.
  for (const char* f : {"/tmp/leak", "/var/tmp/leak2", "/run/leak3", "/job-0/home/leak4",
                        "/tmp/leakdir", "/tmp/leaklink", "/tmp/review/leak5"}) {
    EXPECT_THAT(r.output,
                ::testing::ContainsRegex(std::string("\\[a #3 run\\] a-wrote [^\n]*") + f + "\n"))
        << r.output;
  }
  EXPECT_THAT(r.output, HasSubstr("[b #2 run] b-looked"));
  EXPECT_THAT(r.output, Not(HasSubstr("b-sees"))) << r.output;
  EXPECT_TRUE(std::filesystem::exists(repo.workspace() + "/package.json")) << "a link followed";
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

}  // namespace
}  // namespace reviewer::e2e
