// A job without actions/setup-node runs the runner's default Node on CI (ubuntu-24.04: the 22
// line), so the review resolves it to the matrix's Node 22 image and runs that node; a
// declaration that Node does not satisfy is refused before any step.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(LauncherE2E, AJobWithoutSetupNodeRunsTheRunnersDefaultNode) {
  ExampleRepo repo;
  repo.write(".nvmrc", ">=20\n");
  repo.write("package.json", "{\"name\": \"x\", \"engines\": {\"node\": \">=20\"}}\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("in image reviewer-node22-bun1310"));
  EXPECT_THAT(r.output, HasSubstr("[test #2 run] v22.23.5"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// CI runs the runner's Node whatever .nvmrc says: the file is reported by the host, and the
// job runs as on CI.
TEST_F(LauncherE2E, ADeclarationTheRunnersDefaultNodeViolatesDoesNotStopTheJob) {
  ExampleRepo repo;
  repo.write(".nvmrc", "20\n");
  repo.write("package.json", "{\"name\": \"x\"}\n");
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("[test #2 run] v22.23.5"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

}  // namespace
}  // namespace reviewer::e2e
