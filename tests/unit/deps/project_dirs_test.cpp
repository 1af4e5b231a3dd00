// The directories a review fetches npm locks from besides the top: where the planned job's run
// steps work (their `working-directory` or the defaults'), from a real plan. The planner has
// already refused one that leaves the worktree (working-directory-outside).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/deps/fetch_phase.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan::testing {
namespace {

using ::testing::ElementsAre;

TEST(ProjectDirsOfAPlan, TheRunStepsWorkingDirectoriesOnceEachInsideTheWorktree) {
  const std::string workflow = std::string(
                                   "on: pull_request\n"
                                   "jobs:\n"
                                   "  test:\n"
                                   "    runs-on: ubuntu-latest\n"
                                   "    defaults:\n"
                                   "      run:\n"
                                   "        working-directory: ./packages/core/\n"
                                   "    steps:\n"
                                   "      - uses: ") +
                               kCheckout +
                               "\n"
                               "      - run: npm ci\n"
                               "      - run: npm ci\n"
                               "        working-directory: website\n"
                               "      - run: npm test\n"
                               "        working-directory: ./website\n"
                               "      - run: ls\n"
                               "        working-directory: .\n";
  std::optional<Plan> plan;
  ASSERT_EQ(plan_over_files(workflow, {}, "test", &plan), "(planned)\n");
  EXPECT_THAT(deps::project_dirs(*plan), ElementsAre("packages/core", "website"));
}

}  // namespace
}  // namespace reviewer::plan::testing
