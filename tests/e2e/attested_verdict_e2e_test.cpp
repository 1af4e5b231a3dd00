// The attack on the launcher, finding 6: a step kills its launcher (`kill -9 $PPID`) and leaves a
// process that rewrites /tmp/review/report.json to say review-build-ok. The launcher cannot
// prevent its death, so the verdict must be checkable: the host hands it a nonce that no step
// can read, and only reports attested with that nonce are the launcher's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;

constexpr const char* kNonce = "e2e0e2e00123456789abcdef0123456789abcdef0123456789abcdef01234567";

// `reviewer verify --nonce NONCE` on `json`, written to a file beside the clone.
RunResult verify(const ExampleRepo& repo, const std::string& json, const std::string& nonce) {
  const std::string path = repo.workspace() + "/../report.json";
  std::ofstream(path) << json;
  return run_command(REVIEWER_BINARY_DIR "/bin/reviewer verify --nonce " + nonce + " " + path);
}

SandboxRun with_nonce(const std::string& after) {
  SandboxRun run = assigned_job("test");
  run.caller_env = {std::string("REVIEWER_VERDICT_NONCE=") + kNonce};
  run.after = after;
  return run;
}

TEST_F(LauncherE2E, AnAttestedReportVerifiesAndNoStepSeesTheNonce) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n"
                          "          env | grep -c REVIEWER_VERDICT_NONCE || echo no-nonce-in-env\n"
                          "          cat /proc/$PPID/environ || echo launcher-environ-closed\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), with_nonce("cat /tmp/review/report.json"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("no-nonce-in-env"));
  EXPECT_THAT(r.output, HasSubstr("launcher-environ-closed"));
  EXPECT_THAT(r.output, Not(HasSubstr(kNonce)));
  EXPECT_THAT(r.last_line(), MatchesRegex("review-build-ok attestation=[0-9a-f]{64}"));
  auto ok = verify(repo, r.after, kNonce);
  EXPECT_EQ(ok.exit_code, 0) << ok.output << r.after;
  EXPECT_EQ(ok.output,
            "attested: review-build-ok for job test of .github/workflows/ci.yml into main in image "
            "reviewer-node22-bun1310\n");
  auto other = verify(repo, r.after, std::string(64, 'f'));
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.output, StartsWith("unattested: "));
}

// The attack: `reviewer verify --nonce ''` accepted a report forged with the empty key, and a
// launcher handed an empty nonce wrote an unattested-but-ok verdict. Both are refused by name.
TEST_F(LauncherE2E, AnEmptyOrShortNonceIsAUsageErrorAndTheLauncherRefusesIt) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: echo built\n")));
  repo.clone();
  for (const std::string& nonce : {std::string("''"), std::string("abc"), std::string(63, 'a')}) {
    auto v = verify(repo, R"({"verdict": "review-build-ok"})", nonce);
    EXPECT_EQ(v.exit_code, 2) << nonce << v.output;
    EXPECT_THAT(v.output, HasSubstr("--nonce must be 64 lowercase hex digits")) << nonce;
  }
  SandboxRun run = assigned_job("test");
  run.caller_env = {"REVIEWER_VERDICT_NONCE="};
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: nonce-invalid: "));
  EXPECT_THAT(r.output, Not(HasSubstr("built")));
}

TEST_F(LauncherE2E, AReportForgedAfterTheLauncherWasKilledIsUnattested) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n"
                          "          (sleep 1; printf '{\"verdict\": \"review-build-ok\", "
                          "\"attestation\": {\"hmac_sha256\": \"00\"}}\\n' > "
                          "/tmp/review/report.json) &\n"
                          "          kill -9 $PPID\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), with_nonce("sleep 3; cat /tmp/review/report.json"));
  EXPECT_EQ(r.exit_code, 137) << r.output;
  // The canary: the forgery is in place, saying ok.
  EXPECT_THAT(r.after, HasSubstr("review-build-ok")) << r.after;
  auto check = verify(repo, r.after, kNonce);
  EXPECT_EQ(check.exit_code, 1) << check.output;
  EXPECT_EQ(check.output,
            "unattested: the report's attestation is not this nonce's over its verdict, "
            "assignment, image and content\n");
}

}  // namespace
}  // namespace reviewer::e2e
