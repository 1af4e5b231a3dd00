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

// The isolation issue's finding 6: job `lint` wrote 17 bytes into the nanoseconds of tracked
// files' modification times and job `test` read them back, where CI gives each job a fresh
// checkout (the last of a family: /dev/shm, IPC, xattrs, `.git/` files, mtimes). With the host's
// layout every job gets a new copy of the pristine clone, so nothing lint leaves in the worktree
// reaches test. The control run, sharing one worktree, shows the channel is real.
TEST_F(LauncherE2E, EveryJobGetsAFreshWorktreeSoNothingALaterJobReadsCameFromAnEarlierOne) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("lint",
                   "      - run: |\n"
                   "          touch -d '2021-02-03 04:05:06.123456789' package.json\n"
                   "          echo carried > scripts/left-by-lint\n"
                   "          echo lint-wrote\n") +
               job("test",
                   "      - run: |\n"
                   "          echo \"test-sees $(stat -c %y package.json)\"\n"
                   "          if test -e scripts/left-by-lint; then echo test-sees-file; fi\n",
                   "    needs: lint\n")));
  repo.clone();
  SandboxRun fresh = assigned_job("test");
  fresh.fresh_worktree = true;
  auto r = run_launcher(repo.workspace(), fresh);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("lint-wrote"));
  EXPECT_THAT(r.output, HasSubstr("[test #2 run] test-sees ")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr(".123456789"))) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("test-sees-file"))) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");
  // The pristine clone itself is untouched.
  EXPECT_FALSE(std::filesystem::exists(repo.workspace() + "/scripts/left-by-lint"));
  // The control: one worktree shared by both jobs carries the mtime across (the untracked file
  // stops the second job at the clean-clone check, which the mtime passes).
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("lint", "      - run: touch -d '2021-02-03 04:05:06.123456789' package.json\n") +
               job("test", "      - run: echo \"test-sees $(stat -c %y package.json)\"\n",
                   "    needs: lint\n")));
  repo.clone();
  auto shared = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_THAT(shared.output, HasSubstr(".123456789")) << shared.output;
}

}  // namespace
}  // namespace reviewer::e2e
