// Job ids GitHub rejects (the attack on the launcher, finding 9): before, `te.st` planned and
// built, and `../../x` reached the job loop, which built a scratch path from it and failed
// with internal-error. Now the launcher's own plan refuses both by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

TEST_F(LauncherE2E, JobIdsGitHubRejectsAreRefusedBeforeAnyStep) {
  for (const std::string id : {"te.st", "1abc", "a+b", "../../x"}) {
    ExampleRepo repo;
    repo.write(".github/workflows/ci.yml", workflow(job(id, "      - run: echo step-ran\n")));
    repo.clone();
    auto r = run_launcher(repo.workspace(), assigned_job(id));
    EXPECT_EQ(r.exit_code, 3) << id << "\n" << r.output;
    EXPECT_THAT(r.last_line(), HasSubstr("invalid-job-id: job id '" + id + "'")) << r.output;
    EXPECT_THAT(r.output, ::testing::Not(HasSubstr("step-ran")));
  }
}

}  // namespace
}  // namespace reviewer::e2e
