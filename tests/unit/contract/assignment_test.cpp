// The assignment as the launcher reads it from the container init's environment (a file in the
// format of /proc/1/environ here), and the caller that tries to choose another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/contract/assignment.h"
#include "core/launch/read_assignment.h"
#include "core/util/environ.h"
#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

using namespace ::reviewer::contract;  // NOLINT: the contract under test

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

TEST_F(AssignmentTest, TheEventDescriptionIsReadWithTheAssignment) {
  auto plain = read_assignment(environ({"REVIEWER_CI_EVENT="}));
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->event_facts.entries().empty());
  auto described = read_assignment(environ({R"(REVIEWER_CI_EVENT={"repository":"npm/cli"})"}));
  ASSERT_TRUE(described) << described.error().to_string();
  ASSERT_NE(described->event_facts.find("repository_owner"), nullptr);
  EXPECT_EQ(described->event_facts.find("repository_owner")->as_string(), "npm");
}

// The launcher reads the description by the host's rules: a hostile or contradicting one never
// becomes the github context.
TEST_F(AssignmentTest, ABadEventDescriptionIsRefusedByName) {
  auto token = read_assignment(environ({R"(REVIEWER_CI_EVENT={"token":"ghs_x"})"}));
  ASSERT_FALSE(token);
  EXPECT_EQ(token.error().rule, "event-invalid");
  EXPECT_THAT(token.error().message, HasSubstr("in REVIEWER_CI_EVENT names 'token'"));
  auto other_base = read_assignment(
      environ({R"(REVIEWER_CI_EVENT={"event":{"pull_request":{"base":{"ref":"develop"}}}})"}));
  ASSERT_FALSE(other_base);
  EXPECT_EQ(other_base.error().rule, "event-mismatch");
  auto not_json = read_assignment(environ({"REVIEWER_CI_EVENT={"}));
  ASSERT_FALSE(not_json);
  EXPECT_EQ(not_json.error().rule, "event-invalid");
}

TEST_F(AssignmentTest, ACallerCannotSwapTheEventDescription) {
  auto described = read_assignment(environ({R"(REVIEWER_CI_EVENT={"repository":"npm/cli"})"}));
  ASSERT_TRUE(described);
  std::string swap = R"(REVIEWER_CI_EVENT={"repository":"evil/cli"})";
  char* swapper[] = {swap.data(), nullptr};
  auto swapped = check_caller_environment(*described, swapper);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().to_string(),
            "assignment-mismatch: the caller's REVIEWER_CI_EVENT is not the event description "
            "the sandbox was assigned");
  std::string same = R"(REVIEWER_CI_EVENT={"repository":"npm/cli"})";
  char* agreeing[] = {same.data(), nullptr};
  EXPECT_TRUE(check_caller_environment(*described, agreeing));
}

TEST_F(AssignmentTest, SameRepositoryIsTrueOrUnsetAndACallerCannotChangeIt) {
  auto fork = read_assignment(environ({"REVIEWER_CI_SAME_REPOSITORY="}));
  ASSERT_TRUE(fork);
  EXPECT_FALSE(fork->same_repository);
  auto same = read_assignment(environ({"REVIEWER_CI_SAME_REPOSITORY=true"}));
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->same_repository);
  auto bad = read_assignment(environ({"REVIEWER_CI_SAME_REPOSITORY=yes"}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().to_string(),
            "assignment-invalid: REVIEWER_CI_SAME_REPOSITORY is 'yes'; it is 'true' or unset");
  // A caller lifting it would read every secret as empty again.
  std::string lift = "REVIEWER_CI_SAME_REPOSITORY=";
  char* lifter[] = {lift.data(), nullptr};
  auto lifted = check_caller_environment(*same, lifter);
  ASSERT_FALSE(lifted);
  EXPECT_EQ(lifted.error().rule, "assignment-mismatch");
}

TEST_F(AssignmentTest, AMissingJobIsNamed) {
  std::ofstream(dir_ / "environ", std::ios::binary) << std::string("REVIEWER_CI_WORKFLOW=x") + '\0';
  auto r = read_assignment(dir_ / "environ");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "assignment-missing");
}

// One encoder and one decoder: what the engines write is what the launcher reads, field for
// field, for values that need care in an environment (newlines in the matrix, '=' and JSON in
// the event, both flags).
TEST(AssignmentEnvironment, WhatTheHostWritesTheLauncherReadsBack) {
  Assignment a;
  a.workflow = ".github/workflows/ci.yml";
  a.job = "test";
  a.base = "main";
  a.matrix = "node=22.x\nos=ubuntu-latest";
  a.pinned_only = true;
  a.event = R"({"repository":"npm/cli"})";
  a.same_repository = true;
  const auto entries = assignment_environment(a);
  ASSERT_EQ(entries.size(), 7u);
  std::string block;
  for (const auto& e : entries) {
    EXPECT_TRUE(e.starts_with("REVIEWER_CI_")) << e;
    block += e + '\0';
  }
  auto back = read_assignment_environment(util::parse_environ(block), "here");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->workflow, a.workflow);
  EXPECT_EQ(back->job, a.job);
  EXPECT_EQ(back->base, a.base);
  EXPECT_EQ(back->matrix, a.matrix);
  EXPECT_TRUE(back->pinned_only);
  EXPECT_EQ(back->event, a.event);
  EXPECT_TRUE(back->same_repository);
  ASSERT_EQ(back->matrix_choice.size(), 2u);
  EXPECT_EQ(back->matrix_choice[1].second, "ubuntu-latest");
  // Unset flags are written empty, which reads as unset.
  Assignment plain{".github/workflows/ci.yml", "test", "main", "", {}, false, false, "", {}};
  EXPECT_EQ(assignment_environment(plain)[4], "REVIEWER_CI_PINNED_ONLY=");
  auto read = read_assignment_environment(util::parse_environ([&] {
                                            std::string b;
                                            for (const auto& e : assignment_environment(plain)) {
                                              b += e + '\0';
                                            }
                                            return b;
                                          }()),
                                          "here");
  ASSERT_TRUE(read);
  EXPECT_FALSE(read->pinned_only);
  EXPECT_FALSE(read->same_repository);
}

TEST(AssignmentEnvironment, AMissingVariableNamesWhereItWasLookedFor) {
  auto r = read_assignment_environment({{"REVIEWER_CI_WORKFLOW", ".github/workflows/ci.yml"}},
                                       "in the test's environment");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "assignment-missing: REVIEWER_CI_JOB is not set in the test's environment");
}

// The planner is asked what the assignment says, field for field.
TEST(AssignmentEnvironment, ThePlanRequestIsTheAssignments) {
  Assignment a{
      ".github/workflows/ci.yml", "test", "main", "node=22", {{"node", "22"}}, true, true, "", {}};
  const auto request = plan_request(a, nullptr);
  EXPECT_EQ(request.workflow_file, a.workflow);
  EXPECT_EQ(request.job, "test");
  EXPECT_EQ(request.base, "main");
  EXPECT_EQ(request.matrix, a.matrix_choice);
  EXPECT_TRUE(request.pinned_only);
  EXPECT_TRUE(request.same_repository);
}

}  // namespace
}  // namespace reviewer::launch
