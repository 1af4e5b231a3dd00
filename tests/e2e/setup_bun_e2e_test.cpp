// GitHub's runner images carry no Bun (actions/runner-images#9521): `bun` exists on CI only after
// setup-bun ran, so a step that calls it without setup-bun fails there, and so must the review.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

TEST_F(LauncherE2E, BunWithoutSetupBunIsCommandNotFound) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: bun --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("bun: command not found"));
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 127");
}

// The skipped setup-bun puts the image's bun, verified against the pin, on PATH for later steps.
TEST_F(LauncherE2E, BunAfterSetupBunIsTheImagesBun) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test",
                   "      - uses: oven-sh/setup-bun@0c5077e51419868618aeaa5fe8019c62421857d6\n"
                   "        with:\n          bun-version: 1.3.10\n"
                   "      - run: bun --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] 1.3.10"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

}  // namespace
}  // namespace reviewer::e2e
