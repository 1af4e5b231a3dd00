// The assignment as the launcher reads it from the container init's environment (a file in the
// format of /proc/1/environ here), and the caller that tries to choose another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/launch/assignment.h"
#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

using ::testing::HasSubstr;

class AssignmentTest : public ::testing::Test {
 protected:
  // Writes NUL-separated NAME=VALUE entries, as /proc/1/environ holds them.
  std::string environ(const std::vector<std::string>& extra) {
    std::string block = std::string("REVIEWER_CI_WORKFLOW=.github/workflows/ci.yml") + '\0' +
                        "REVIEWER_CI_JOB=test" + '\0' + "REVIEWER_CI_BASE=main" + '\0';
    for (const auto& e : extra) {
      block += e + '\0';
    }
    std::ofstream(dir_ / "environ", std::ios::binary | std::ios::trunc) << block;
    return dir_ / "environ";
  }
  test_support::TempDir dir_;
};

TEST_F(AssignmentTest, PinnedOnlyIsOffUnlessTheHostSaysTrue) {
  auto plain = read_assignment(environ({}));
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->pinned_only);
  auto empty = read_assignment(environ({"REVIEWER_CI_PINNED_ONLY="}));
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->pinned_only);
  auto pinned = read_assignment(environ({"REVIEWER_CI_PINNED_ONLY=true"}));
  ASSERT_TRUE(pinned);
  EXPECT_TRUE(pinned->pinned_only);
}

TEST_F(AssignmentTest, AnyOtherPinnedOnlyValueIsInvalid) {
  for (const char* value : {"1", "yes", "TRUE", "true ", "false"}) {
    auto r = read_assignment(environ({std::string("REVIEWER_CI_PINNED_ONLY=") + value}));
    ASSERT_FALSE(r) << value;
    EXPECT_EQ(r.error().rule, "assignment-invalid") << value;
    EXPECT_THAT(r.error().message, HasSubstr("REVIEWER_CI_PINNED_ONLY")) << value;
  }
}

TEST_F(AssignmentTest, ACallerCannotLiftOrAddPinnedOnly) {
  auto pinned = read_assignment(environ({"REVIEWER_CI_PINNED_ONLY=true"}));
  ASSERT_TRUE(pinned);
  std::string lift = "REVIEWER_CI_PINNED_ONLY=";
  char* caller[] = {lift.data(), nullptr};
  auto lifted = check_caller_environment(*pinned, caller);
  ASSERT_FALSE(lifted);
  EXPECT_EQ(lifted.error().rule, "assignment-mismatch");

  auto plain = read_assignment(environ({}));
  ASSERT_TRUE(plain);
  std::string add = "REVIEWER_CI_PINNED_ONLY=true";
  char* adder[] = {add.data(), nullptr};
  EXPECT_FALSE(check_caller_environment(*plain, adder));
  std::string same = "REVIEWER_CI_PINNED_ONLY=true";
  char* agreeing[] = {same.data(), nullptr};
  EXPECT_TRUE(check_caller_environment(*pinned, agreeing));
}

TEST_F(AssignmentTest, AMissingJobIsNamed) {
  std::ofstream(dir_ / "environ", std::ios::binary) << std::string("REVIEWER_CI_WORKFLOW=x") + '\0';
  auto r = read_assignment(dir_ / "environ");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "assignment-missing");
}

}  // namespace
}  // namespace reviewer::launch
