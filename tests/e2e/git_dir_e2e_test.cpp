// The attack on the launcher, finding 2, end to end: job `lint` writes .git/info/attributes and
// converts the file it names; before, job `test` built with a modified file that the
// clean-clone check took for clean. Now job `test` is refused before its first step.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(LauncherE2E, AJobThatWritesGitInfoAttributesStopsTheNextJob) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("lint",
                   "      - run: |\n"
                   "          printf 'package.json text eol=crlf\\n' > .git/info/attributes\n"
                   "          sed -i 's/$/\\r/' package.json\n"
                   "          git status --porcelain\n") +
               job("test", "      - run: echo test-ran\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("git-dir-changed: '.git/info/attributes' was created"));
  EXPECT_THAT(r.output, Not(HasSubstr("test-ran")));
}

TEST_F(LauncherE2E, AFifoPlantedInGitInfoNeitherHangsNorPasses) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint", "      - run: mkfifo .git/info/attributes\n") +
                      job("test", "      - run: echo test-ran\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(),
              HasSubstr("git-dir-changed: '.git/info/attributes' is not a regular file"));
  EXPECT_THAT(r.output, Not(HasSubstr("test-ran")));
}

}  // namespace
}  // namespace reviewer::e2e
