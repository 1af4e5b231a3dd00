// `reviewer assignment`: the run model's way to the one encoder of a sandbox's assignment. What it
// prints is what the launcher reads back; what the host would refuse, it refuses by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/contract/assignment.h"
#include "core/util/environ.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_reviewer;

TEST(AssignmentCommand, PrintsWhatTheLauncherReadsBack) {
  auto [code, out] = run_reviewer(
      "assignment --workflow .github/workflows/ci.yml --job test --base main --matrix node=22 "
      "--matrix os=ubuntu-latest --pinned-only");
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\0'), 7);
  auto read = contract::read_assignment_environment(util::parse_environ(out), "in the output");
  ASSERT_TRUE(read) << read.error().to_string();
  EXPECT_EQ(read->workflow, ".github/workflows/ci.yml");
  EXPECT_EQ(read->job, "test");
  EXPECT_EQ(read->matrix, "node=22\nos=ubuntu-latest");
  EXPECT_TRUE(read->pinned_only);
  EXPECT_FALSE(read->same_repository);
}

// The host's own check: a workflow outside .github/workflows/ is named, and nothing is printed.
TEST(AssignmentCommand, RefusesWhatTheHostWouldRefuse) {
  auto [code, out] =
      run_reviewer("assignment --workflow ../../etc/passwd.yml --job test --base main");
  EXPECT_EQ(code, 2);
  EXPECT_THAT(out, HasSubstr("reviewer assignment: assignment-invalid: REVIEWER_CI_WORKFLOW "
                             "'../../etc/passwd.yml' is not a .yml/.yaml file under "
                             ".github/workflows/"));
  EXPECT_EQ(out.find('\0'), std::string::npos);
  auto [bad_matrix, said] = run_reviewer(
      "assignment --workflow .github/workflows/ci.yml --job test --base main --matrix nonsense");
  EXPECT_EQ(bad_matrix, 2);
  EXPECT_THAT(said, HasSubstr("matrix-choice-invalid"));
}

}  // namespace
}  // namespace reviewer::cli
