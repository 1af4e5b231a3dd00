// The attack on the launcher, finding 8: a step stops its launcher (`kill -STOP $PPID`);
// util-linux nsenter, which waits with WUNTRACED, then stops itself, and nothing in the sandbox
// will ever end the build. The host's own wall clock (the jobs' timeouts plus a margin, here
// shortened to 5 s through the test-only REVIEWER_HOST_MARGIN_SECONDS_FOR_TEST) must end it:
// the sandbox killed, every process in it gone, and the verdict `host timeout`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

TEST_F(LauncherE2E, AStoppedLauncherEndsInAHostTimeoutWithTheSandboxGone) {
  ExampleRepo repo;
  // A sleep of a length no other test uses, to find what outlived the review.
  repo.write(".github/workflows/ci.yml", workflow(job("test",
                                                      "      - run: |\n"
                                                      "          sleep 6133 &\n"
                                                      "          kill -STOP $PPID\n"
                                                      "          sleep 6133\n",
                                                      "    timeout-minutes: 1\n")));
  repo.commit_source();
  const std::string out = repo.source() + "/../review.out";
  const auto started = std::chrono::steady_clock::now();
  // The output goes to a file: a process left in the sandbox cannot hold this test's pipe.
  auto r =
      run_command("REVIEWER_HOST_MARGIN_SECONDS_FOR_TEST=5 timeout -k 5 240 " REVIEWER_BINARY_DIR
                  "/bin/reviewer review " +
                  repo.source() +
                  " --workflow .github/workflows/ci.yml --job test --base main --engine "
                  "namespaces --stage " REVIEWER_E2E_STAGE " >" +
                  out + " 2>&1; echo \"exit=$?\"");
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  RunResult review{0, text.str(), ""};
  EXPECT_EQ(r.output, "exit=1\n") << review.output;
  EXPECT_EQ(review.last_line(),
            "review-build-failed: host timeout: the launcher ran past 65 seconds and was killed")
      << review.output;
  EXPECT_LT(seconds, 120) << review.output;
  EXPECT_EQ(run_command("pgrep -f 'sleep 613[3]'").output, "") << "the sandbox outlived the review";
}

}  // namespace
}  // namespace reviewer::e2e
