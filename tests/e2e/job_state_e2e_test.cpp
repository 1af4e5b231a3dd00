// The attack on the launcher, finding 3, end to end: job `lint` leaves state where the scratch
// sweep did not look (files in /dev/shm and POSIX message queues, SysV shared memory, semaphores
// and message queues, a new file deep in .git/, a user extended attribute on a tracked file) and
// job `test` looks for it. Before, all of it reached job `test`; on GitHub each job gets a
// fresh runner and a fresh clone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(LauncherE2E, SharedMemoryAndIpcObjectsAJobLeftAreGoneForTheNextJob) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint",
                          "      - run: |\n"
                          "          echo state > /dev/shm/leak\n"
                          "          if test -d /dev/mqueue; then : > /dev/mqueue/leak; fi\n"
                          "          ipcmk -M 4096 && ipcmk -S 1 && ipcmk -Q\n"
                          "          test -e /dev/shm/leak && echo lint-planted-shm\n"
                          "          test $(tail -n +2 /proc/sysvipc/shm | wc -l) -gt 0 && "
                          "echo lint-planted-sysv\n") +
                      job("test",
                          "      - run: |\n"
                          "          test -e /dev/shm/leak && echo test-sees-dev-shm\n"
                          "          test -e /dev/mqueue/leak && echo test-sees-mqueue\n"
                          "          for k in shm sem msg; do\n"
                          "            n=$(tail -n +2 /proc/sysvipc/$k | wc -l)\n"
                          "            test \"$n\" -gt 0 && echo \"test-sees-sysv-$k\"\n"
                          "          done\n"
                          "          echo test-looked\n",
                          "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  // The canary: the plants were really there while job lint ran.
  EXPECT_THAT(r.output, HasSubstr("lint-planted-shm")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("lint-planted-sysv")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("test-looked")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("test-sees"))) << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AJobThatAddsAFileDeepInGitStopsTheNextJob) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint",
                          "      - run: |\n"
                          "          mkdir -p .git/logs && echo state > .git/logs/lint-state\n") +
                      job("test", "      - run: echo test-ran\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("git-dir-changed: '.git/logs/lint-state' was created"));
  EXPECT_THAT(r.output, Not(HasSubstr("test-ran")));
}

TEST_F(LauncherE2E, AJobThatSetsAnXattrOnATrackedFileStopsTheNextJob) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint",
                          "      - run: |\n"
                          "          python3 -c 'import os; os.setxattr(\"package.json\", "
                          "\"user.lint\", b\"state\")'\n"
                          "          python3 -c 'import os; print(\"lint-set\", "
                          "os.listxattr(\"package.json\"))'\n") +
                      job("test", "      - run: echo test-ran\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_THAT(r.output, HasSubstr("lint-set ['user.lint']")) << r.output;
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(),
              HasSubstr("tracked-xattr: 'package.json' has extended attribute 'user.lint'"));
  EXPECT_THAT(r.output, Not(HasSubstr("test-ran")));
}

}  // namespace
}  // namespace reviewer::e2e
