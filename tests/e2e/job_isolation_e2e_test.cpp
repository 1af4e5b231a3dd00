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

// The isolation issue's finding 2: keyrings are not namespaced by the sandbox. A step read its
// uid's user keyring (where a host credential can live) and job `lint` left a key, and a keyring
// name, that job `test` read. perl's syscall() makes the calls as any program could.
TEST_F(LauncherE2E, NoStepReachesAKernelKeyring) {
  ExampleRepo repo;
  // perl's syscall() passes a string argument as a pointer to its (writable) buffer.
  const std::string calls =
      "          perl -e 'my ($t, $d, $p, $n) = (\"user\", \"left\", \"state\", \"carried\");"
      " my $r = syscall(248, $t, $d, $p, 5, -3);"
      " print \"add_key: \", ($r < 0 ? \"$!\" : \"added\"), \"\\n\";"
      " $r = syscall(250, 0, -4, 0); print \"user keyring: \", ($r < 0 ? \"$!\" : $r), \"\\n\";"
      " $r = syscall(250, 1, $n); print \"join: \", ($r < 0 ? \"$!\" : \"joined\"), \"\\n\"'\n";
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint", "      - run: |\n" + calls) +
                      job("test", "      - run: |\n" + calls, "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* job : {"lint", "test"}) {
    for (const char* call : {"add_key", "user keyring", "join"}) {
      EXPECT_THAT(r.output, HasSubstr("[" + std::string(job) + " #2 run] " + call +
                                      ": Operation not permitted"))
          << r.output;
    }
  }
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

}  // namespace
}  // namespace reviewer::e2e
