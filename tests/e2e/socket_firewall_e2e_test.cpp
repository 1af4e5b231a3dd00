// On CI `sfw` exists only after SocketDev/action ran (the action core.addPath()s it): a step that
// calls it without the action fails with "command not found", and so must the review.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

constexpr const char* kSocketFirewallStep =
    "      - uses: SocketDev/action@937f824ec476dfd164d4a4d9995751427b0be143\n"
    "        with:\n          mode: firewall\n";

TEST_F(LauncherE2E, SfwWithoutTheSocketFirewallStepIsCommandNotFound) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - run: sfw node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("sfw: command not found"));
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 127");
}

// The skipped action puts the image's unwrapped sfw on PATH for the later steps of its job.
TEST_F(LauncherE2E, SfwAfterTheSocketFirewallStepRunsTheCommand) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          std::string(kSocketFirewallStep) + "      - run: sfw node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\\[test #3 run\\] v[0-9]+\\.[0-9]+\\.[0-9]+"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// GITHUB_PATH is per job, as on CI: the action in a needed job does not put sfw on this one's.
TEST_F(LauncherE2E, SfwFromTheSocketFirewallStepOfAnotherJobIsNotOnPath) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("lint", std::string(kSocketFirewallStep) + "      - run: sfw node --version\n") +
               job("test", "      - run: sfw node --version\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\\[lint #3 run\\] v[0-9]+\\."));
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 127");
}

}  // namespace
}  // namespace reviewer::e2e
