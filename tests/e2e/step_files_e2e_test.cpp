// The attack on the launcher, finding 1: a FIFO at a step file. Replacing $GITHUB_ENV by a FIFO
// with a writer that opens it 75 s later made a job with timeout-minutes: 1 run 75 s and pass;
// a FIFO planted at the next step's output file hung the launcher for ever. Step files are now
// created afresh (O_EXCL) and read without blocking or following links.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Clock = std::chrono::steady_clock;

TEST_F(LauncherE2E, AFifoAtGithubEnvFailsTheStepWithoutWaiting) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n"
                          "          rm -f \"$GITHUB_ENV\" && mkfifo \"$GITHUB_ENV\"\n"
                          "          (sleep 40; echo FORGED=1 > \"$GITHUB_ENV\") &\n"
                          "      - run: echo second-step-ran\n",
                          "    timeout-minutes: 1\n")));
  repo.clone();
  const auto start = Clock::now();
  auto r = run_launcher(repo.workspace());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30)) << "the launcher waited on the FIFO";
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("step-file-replaced"));
  EXPECT_THAT(r.output, Not(HasSubstr("second-step-ran")));
}

TEST_F(LauncherE2E, AFifoPlantedAtTheNextStepsFileFailsThatStepWithoutHanging) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test",
                   "      - run: |\n"
                   "          d=$(dirname \"$GITHUB_ENV\"); next=\"${d%/*}/$(( ${d##*/} + 1 ))\"\n"
                   "          mkdir \"$next\" && mkfifo \"$next/output\" && ls -l \"$next\"\n"
                   "      - run: echo second-step-ran\n",
                   "    timeout-minutes: 1\n")));
  repo.clone();
  const auto start = Clock::now();
  auto r = run_launcher(repo.workspace());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30)) << "the launcher hung";
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("step-file-planted"));
  EXPECT_THAT(r.output, Not(HasSubstr("second-step-ran")));
}

}  // namespace
}  // namespace reviewer::e2e
