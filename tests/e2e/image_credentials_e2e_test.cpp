// The image must carry no credential a review build could use: the self-check finds one planted
// in the sandbox's HOME or handed to the launcher in its environment, names where it is and what
// kind it is, and never prints it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// 36 characters after ghp_, assembled at run time so that no literal here has a token's shape.
std::string token_body() { return std::string("0123456789abcdefghij") + "ABCDEFGHIJklmnop"; }

// The sandbox user's HOME (the run model's /tmp/review, the image's /tmp/review/home) is on a
// tmpfs of the sandbox, empty when it starts: the credential store is written there inside the
// sandbox, as the sandbox user, right before the launcher runs.
TEST_F(LauncherE2E, AGitCredentialStoreInHomeFailsTheSelfCheck) {
  ExampleRepo repo;
  repo.clone();
  SandboxRun run;
  run.before = "mkdir -p \"$HOME\" && printf \"https://reviewer:%s@github.com\\n\" \"ghp_" +
               token_body() + "\" > \"$HOME/.git-credentials\"";
  run.launcher_args = {"--self-check"};
  auto r = run_launcher(repo.workspace(), run);
  const std::string store =
      std::string(in_image() ? "/tmp/review/home" : "/tmp/review") + "/.git-credentials";
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: image-credential: '" + store + "' is a git credential store");
  EXPECT_THAT(r.output,
              HasSubstr("reviewer: also refused: image-credential: '" + store +
                        ":1' holds a GitHub personal access token (github-pat): ghp_…\n"));
  EXPECT_THAT(r.output, Not(HasSubstr(token_body().substr(0, 12))));
  EXPECT_THAT(r.output, Not(HasSubstr("review-self-check-ok")));
}

TEST_F(LauncherE2E, ATokenInTheLaunchersEnvironmentFailsTheSelfCheck) {
  ExampleRepo repo;
  repo.clone();
  SandboxRun run;
  run.caller_env = {"DEPLOY_HINT=ghp_" + token_body()};
  run.launcher_args = {"--self-check"};
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: image-credential: environment variable DEPLOY_HINT of the "
            "launcher holds a GitHub personal access token (github-pat): ghp_…");
  EXPECT_THAT(r.output, Not(HasSubstr(token_body().substr(0, 12))));
}

}  // namespace
}  // namespace reviewer::e2e
