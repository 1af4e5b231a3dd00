// The attested verdict (the attack on the launcher, finding 6): a report written with the
// host's nonce verifies; one rewritten by a step that outlived the launcher, or checked with
// another nonce, does not.
#include "core/contract/attestation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/launch/build_report.h"
#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

using namespace ::reviewer::contract;  // NOLINT: the contract under test

using test_support::TempDir;
using ::testing::HasSubstr;

// Two nonces as the host makes them: 32 random bytes, 64 hex digits.
const std::string kNonce(64, 'a');
const std::string kOther(64, 'b');

class AttestationTest : public ::testing::Test {
 protected:
  std::string write(const std::optional<std::string>& nonce, BuildOutcome outcome = {}) {
    ReportAttestation a;
    a.nonce = nonce;
    a.facts = {"", ".github/workflows/ci.yml", "test", "main", "", "reviewer-node20-bun1310", ""};
    util::UniqueFd dir(::open(tmp_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    EXPECT_TRUE(write_build_reports(dir.get(), tmp_.path(), plan_, outcome, &a));
    facts_ = a.facts;
    return tmp_.read("report.json");
  }

  TempDir tmp_;
  plan::Plan plan_;
  AttestedFacts facts_;
};

TEST_F(AttestationTest, AReportWrittenWithTheNonceVerifies) {
  const std::string json = write(kNonce);
  auto facts = verify_report(kNonce, json);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->verdict, "review-build-ok");
  EXPECT_EQ(facts->job, "test");
  EXPECT_EQ(facts->image, "reviewer-node20-bun1310");
  EXPECT_EQ(facts->report_sha256, facts_.report_sha256);
  EXPECT_THAT(tmp_.read("report.xml"),
              HasSubstr("<!-- attestation hmac-sha256=" + attestation_mac(kNonce, facts_)));
}

TEST_F(AttestationTest, AnotherNonceOrAChangedReportDoesNot) {
  BuildOutcome failed;
  failed.verdict = BuildOutcome::Verdict::kFailed;
  failed.summary = "job 'test' step 2 'run' exited 1";
  std::string json = write(kNonce, failed);
  EXPECT_FALSE(verify_report(kOther, json));
  // What a step that outlived the launcher would do: turn the verdict into ok.
  const auto at = json.find("review-build-failed");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, std::string("review-build-failed").size(), "review-build-ok");
  auto forged = verify_report(kNonce, json);
  ASSERT_FALSE(forged);
  EXPECT_EQ(forged.error().rule, "verdict-unattested");
  EXPECT_FALSE(verify_report(kNonce, R"({"verdict": "review-build-ok"})"));
}

TEST_F(AttestationTest, WithoutANonceTheReportsSayUnattested) {
  const std::string json = write(std::nullopt);
  EXPECT_THAT(json, HasSubstr(R"("attestation": "unattested")"));
  EXPECT_THAT(tmp_.read("report.xml"), HasSubstr("<!-- unattested -->"));
  EXPECT_FALSE(verify_report(kNonce, json));
}

TEST_F(AttestationTest, TheNonceLeavesTheEnvironmentChildrenInherit) {
  ::setenv(kNonceVariable, kNonce.c_str(), 1);
  auto taken = take_nonce();
  ASSERT_TRUE(taken) << taken.error().message;
  EXPECT_EQ(*taken, std::optional<std::string>(kNonce));
  EXPECT_EQ(std::getenv(kNonceVariable), nullptr);
  auto none = take_nonce();
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, std::nullopt);
}

// The attack: a report forged with an empty (or any short) nonce verified, and a launcher handed
// an empty one treated it as none. Every nonce but 64 lowercase hex digits is refused by name,
// in the launcher (and still taken out of the environment) and in the check.
TEST_F(AttestationTest, AnyNonceButSixtyFourHexDigitsIsRefused) {
  const std::string json = write(kNonce);
  for (const std::string& bad :
       {std::string(), std::string("0"), std::string(63, 'a'), std::string(65, 'a'),
        std::string(63, 'a') + "g", std::string(63, 'a') + "A", std::string(63, 'a') + " "}) {
    auto checked = verify_report(bad, json);
    ASSERT_FALSE(checked) << bad;
    EXPECT_EQ(checked.error().rule, "nonce-invalid") << bad;
    ::setenv(kNonceVariable, bad.c_str(), 1);
    auto taken = take_nonce();
    ASSERT_FALSE(taken) << bad;
    EXPECT_EQ(taken.error().rule, "nonce-invalid");
    EXPECT_EQ(std::getenv(kNonceVariable), nullptr);
  }
  EXPECT_TRUE(valid_nonce(kNonce));
  EXPECT_TRUE(verify_report(kNonce, json));
}

TEST(VerdictLine, SplitsOffTheAttestation) {
  EXPECT_EQ(split_verdict_line("review-build-ok attestation=ab12"),
            (std::pair<std::string, std::string>{"review-build-ok", "ab12"}));
  EXPECT_EQ(split_verdict_line("review-build-ok").second, "");
  EXPECT_EQ(verdict_kind("review-build-failed: job 'a' step 2 'x' exited 1"),
            "review-build-failed");
}

}  // namespace
}  // namespace reviewer::launch
