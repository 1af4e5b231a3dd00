// The host's description of the pull request (`--event FILE`): every bad description refused by
// name, the fields GitHub takes from the payload filled from it, and what it makes known to the
// planner.
#include "core/plan/event_facts.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "core/expr/json_value.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

const std::string kEvent =
    R"({"event":{"number":7,"pull_request":{"title":"Fix \"it\"; rm -rf /","base":{"ref":"main"},)"
    R"("head":{"ref":"fix","sha":"0123456789abcdef0123456789abcdef01234567"}},)"
    R"("repository":{"full_name":"npm/node-semver","owner":{"login":"npm"}}}})";

std::string field(const expr::Object& o, const std::string& key) {
  const expr::Value* v = o.find(key);
  return v == nullptr ? "(none)" : v->coerce_string();
}

TEST(EventFacts, FieldsGitHubTakesFromThePayloadAreFilledFromIt) {
  auto facts = read_event_facts(kEvent, "main", "'e.json'");
  ASSERT_TRUE(facts) << facts.error().to_string();
  EXPECT_EQ(field(*facts, "repository"), "npm/node-semver");
  EXPECT_EQ(field(*facts, "repository_owner"), "npm");
  EXPECT_EQ(field(*facts, "head_ref"), "fix");
  EXPECT_EQ(field(*facts, "ref"), "refs/pull/7/merge");
  EXPECT_EQ(field(*facts, "ref_name"), "7/merge");
  EXPECT_EQ(field(*facts, "sha"), "(none)");  // the merge commit: only the host knows it
  // The assignment's form reads back to the same facts.
  const std::string json = event_facts_json(*facts);
  auto again = read_event_facts(json, "main", "in REVIEWER_CI_EVENT");
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(event_facts_json(*again), json);
}

TEST(EventFacts, TheOwnerComesFromTheRepositoryWithoutAPayload) {
  auto facts = read_event_facts(R"({"repository":"mochajs/mocha","sha":"abc"})", "main", "'e'");
  ASSERT_TRUE(facts) << facts.error().to_string();
  EXPECT_EQ(field(*facts, "repository_owner"), "mochajs");
  EXPECT_EQ(field(*facts, "sha"), "abc");
}

struct Bad {
  const char* name;
  std::string json;
  std::string expected;  // rule: message
};

class BadEvent : public ::testing::TestWithParam<Bad> {};

TEST_P(BadEvent, IsRefusedByName) {
  auto facts = read_event_facts(GetParam().json, "main", "'e.json'");
  ASSERT_FALSE(facts);
  const std::string got = facts.error().rule + ": " + facts.error().message;
  // A row ending ": " is followed by the JSON reader's own words.
  if (GetParam().expected.ends_with(": ")) {
    EXPECT_EQ(got.substr(0, GetParam().expected.size()), GetParam().expected);
    EXPECT_GT(got.size(), GetParam().expected.size());
  } else {
    EXPECT_EQ(got, GetParam().expected);
  }
}

const Bad kBad[] = {
    {"NotJson", "{repository: x}",
     "event-invalid: the event description 'e.json' is not JSON within 16 levels: "},
    {"NotAnObject", "[1]",
     "event-invalid: the event description 'e.json' must be a JSON object of github context "
     "fields"},
    {"UnknownField", R"({"token":"ghs_x"})",
     "event-invalid: the event description 'e.json' names 'token', which is not a field a host "
     "may describe; the fields are event, repository, repository_id, repository_owner, "
     "repository_owner_id, repositoryUrl, head_ref, sha, ref, ref_name, ref_type, actor, "
     "actor_id, triggering_actor"},
    {"RunIdIsTheRunsOwn", R"({"run_id":"1"})",
     "event-invalid: the event description 'e.json' names 'run_id', which is not a field a host "
     "may describe; the fields are event, repository, repository_id, repository_owner, "
     "repository_owner_id, repositoryUrl, head_ref, sha, ref, ref_name, ref_type, actor, "
     "actor_id, triggering_actor"},
    {"FieldNotAString", R"({"sha":1})",
     "event-invalid: the event description 'e.json' 'sha' must be a string"},
    {"EventNotAnObject", R"({"event":"x"})",
     "event-invalid: the event description 'e.json' 'event' must be an object"},
    {"EventWithoutPullRequest", R"({"event":{"push":{}}})",
     "event-invalid: the event description 'e.json' has an event without a pull_request object: "
     "the review is of a pull_request event"},
    {"AnotherBase", R"({"event":{"pull_request":{"base":{"ref":"develop"}}}})",
     "event-mismatch: the event description 'e.json': event.pull_request.base.ref is 'develop' but "
     "the review's base is 'main'"},
    {"RepositoryAgainstPayload",
     R"({"repository":"evil/x","event":{"pull_request":{},"repository":{"full_name":"npm/x"}}})",
     "event-mismatch: the event description 'e.json': repository is 'evil/x' but "
     "event.repository.full_name is 'npm/x'"},
    {"HeadRefAgainstPayload", R"({"head_ref":"a","event":{"pull_request":{"head":{"ref":"b"}}}})",
     "event-mismatch: the event description 'e.json': head_ref is 'a' but "
     "event.pull_request.head.ref is 'b'"},
    {"RefAgainstNumber", R"({"ref":"refs/heads/main","event":{"number":3,"pull_request":{}}})",
     "event-mismatch: the event description 'e.json': ref is 'refs/heads/main' but event.number "
     "3's merge ref is 'refs/pull/3/merge'"},
    {"RepositoryShape", R"({"repository":"justaname"})",
     "event-invalid: the event description 'e.json' has repository 'justaname', which is not "
     "OWNER/NAME"},
    {"OwnerAgainstRepository", R"({"repository":"npm/x","repository_owner":"evil"})",
     "event-mismatch: the event description 'e.json': repository_owner is 'evil' but repository "
     "is 'npm/x'"},
    {"TooDeep",
     R"({"event":{"pull_request":{"a":)" + std::string(20, '[') + std::string(20, ']') + "}}}",
     "event-invalid: the event description 'e.json' is not JSON within 16 levels: "},
    {"TooLargeForTheAssignment",
     R"({"event":{"pull_request":{"body":")" + std::string(100 * 1024, 'x') + R"("}}})",
     "event-invalid: the event description 'e.json' is 102438 bytes as compact JSON, over the "
     "98304-byte bound of the assignment"},
    {"TooLargeToRead", R"({"sha":")" + std::string(1 << 20, 'x') + R"("})",
     "event-invalid: the event description 'e.json' is 1048586 bytes, over the 1048576-byte "
     "bound"},
};

INSTANTIATE_TEST_SUITE_P(Event, BadEvent, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<Bad>& p) {
                           return std::string(p.param.name);
                         });

TEST(EventFacts, AFileThatIsMissingIsNamed) {
  auto facts = read_event_file("/nonexistent/event.json", "main");
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error().rule, "event-invalid");
  EXPECT_EQ(facts.error().message.rfind("cannot read the event description "
                                        "'/nonexistent/event.json': ",
                                        0),
            0U)
      << facts.error().message;
}

// What the description gives, the planner knows; without it, the same workflow is refused by
// name, pointing at the host's option.
TEST(EventFacts, WhatTheHostDescribesIsKnownToThePlanner) {
  const std::string wf =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    if: github.repository_owner == 'npm'\n    steps:\n      - uses: " + testing::kCheckout +
      "\n      - run: echo \"${{ github.event.pull_request.title }}\" ${{ github.head_ref }}\n"
      "      - if: github.event.pull_request.head.repo.fork\n        run: exit 1\n";
  auto without = plan_text(wf, {".github/workflows/ci.yml", "build", "main"}, testing::registry());
  ASSERT_FALSE(without);
  EXPECT_EQ(without.error().to_string(),
            ".github/workflows/ci.yml:5:9: expression-value-unknown: job 'if' reads "
            "github.repository_owner, which only the real run knows (the review knows the pull "
            "request event, the matrix, the strategy, the runner's os and arch, and empty "
            "secrets); a host that describes the pull request gives it (reviewer review --event "
            "FILE)");

  auto facts = read_event_facts(kEvent, "main", "'e.json'");
  ASSERT_TRUE(facts);
  PlanRequest request{".github/workflows/ci.yml", "build", "main"};
  request.event = *facts;
  auto with = plan_text(wf, request, testing::registry());
  ASSERT_TRUE(with) << with.error().to_string();
  const PlannedJob& job = with->jobs[0];
  EXPECT_EQ(job.condition.kind, Condition::Kind::kSuccess);
  // Substituted as the runner substitutes it: the text as it is, quotes and all.
  EXPECT_EQ(job.steps[1].step.run, "echo \"Fix \"it\"; rm -rf /\" fix");
  // A payload field the description leaves out reads as null, as a missing one does on GitHub.
  EXPECT_EQ(job.steps[2].condition.kind, Condition::Kind::kNever);

  // Another owner: the job is skipped at plan time, as on the runner. (A field the description
  // neither gives nor lets GitHub's rule fill, here head_ref, stays unknown.)
  auto other = read_event_facts(
      R"({"repository":"me/node-semver","head_ref":"x","event":{"pull_request":{}}})", "main",
      "'e.json'");
  ASSERT_TRUE(other);
  request.event = *other;
  auto skipped = plan_text(wf, request, testing::registry());
  ASSERT_TRUE(skipped) << skipped.error().to_string();
  EXPECT_EQ(skipped->jobs[0].condition.kind, Condition::Kind::kNever);
}

// A fork's pull request (the default) reads every secret but GITHUB_TOKEN as empty; for a
// same-repository one the real run has the repository's secrets, so reading one is refused,
// directly or through a called workflow's `secrets: inherit`. The plan says which it assumed.
TEST(SameRepository, ReadingASecretIsRefusedAndThePlanSaysWhichPullRequestItIs) {
  const std::string wf =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    steps:\n      - uses: " + testing::kCheckout +
      "\n      - run: echo \"[${{ secrets.NPM_TOKEN }}]\"\n";
  auto fork = plan_text(wf, {".github/workflows/ci.yml", "build", "main"}, testing::registry());
  ASSERT_TRUE(fork) << fork.error().to_string();
  EXPECT_EQ(fork->jobs[0].steps[1].step.run, "echo \"[]\"");
  EXPECT_EQ(to_json(*fork)["secrets"],
            "a fork's pull request: every secret but GITHUB_TOKEN is empty");

  PlanRequest same{".github/workflows/ci.yml", "build", "main"};
  same.same_repository = true;
  auto refused = plan_text(wf, same, testing::registry());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().to_string(),
            ".github/workflows/ci.yml:7:14: expression-value-unknown: the script reads "
            "secrets.NPM_TOKEN, which only the real run knows (the review knows the pull request "
            "event, the matrix, the strategy, the runner's os and arch, and empty secrets); the "
            "host reviews a same-repository pull request, whose run has the repository's secrets");

  const std::string no_secret =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    steps:\n      - uses: " + testing::kCheckout + "\n      - run: make\n";
  auto plain = plan_text(no_secret, same, testing::registry());
  ASSERT_TRUE(plain) << plain.error().to_string();
  EXPECT_EQ(to_json(*plain)["secrets"], "a same-repository pull request: none may be read");
}

TEST(SameRepository, AnInheritedSecretInACalledWorkflowIsRefused) {
  const std::string caller =
      "on: pull_request\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n"
      "    secrets: inherit\n";
  const std::string called =
      std::string("on:\n  workflow_call:\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    steps:\n      - uses: " + testing::kCheckout +
      "\n      - run: echo \"${{ secrets.NPM_TOKEN }}\"\n";
  const MemoryFiles repo({{".github/workflows/build.yml", called}});
  PlanRequest request{".github/workflows/ci.yml", "call", "main", {}, false, &repo};
  auto fork = plan_text(caller, request, testing::registry());
  ASSERT_TRUE(fork) << fork.error().to_string();
  request.same_repository = true;
  auto same = plan_text(caller, request, testing::registry());
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().rule, "expression-value-unknown");
  EXPECT_EQ(same.error().location->file, ".github/workflows/build.yml");
}

}  // namespace
}  // namespace reviewer::plan
