// Every token shape the env policy lists (the reference env-policy.md): the shape is found where
// a file or a variable holds it, only its keyword is shown, and near misses are not tokens.
#include "core/credentials/token_shapes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/credentials/credential_fixture.h"

namespace reviewer::credentials {
namespace {

using namespace credtest;  // NOLINT(google-build-using-namespace): the alphabets and fake()

struct Sample {
  std::string name;
  std::string token;
  std::string kind;
  std::string shown;
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const Sample& c, std::ostream* os) { *os << c.name; }

std::string slack_digits(unsigned seed) { return fake("", kDigits, 12, seed); }

std::vector<Sample> samples() {
  const std::string pem_key = pem("OPENSSH PRIVATE KEY");
  return {
      {"GitHubPat", fake("ghp_", kAlnum, 36), "github-pat", "ghp_…"},
      {"GitHubOauth", fake("gho_", kAlnum, 36), "github-oauth", "gho_…"},
      {"GitHubUserToServer", fake("ghu_", kAlnum, 36), "github-app-token", "ghu_…"},
      {"GitHubInstallation", fake("ghs_", kAlnum, 36), "github-app-token", "ghs_…"},
      {"GitHubRefresh", fake("ghr_", kAlnum, 36), "github-refresh-token", "ghr_…"},
      {"GitHubFineGrained", fake("github_pat_", std::string(kAlnum) + "_", 82),
       "github-fine-grained-pat", "github_pat_…"},
      {"GitLab", fake("glpat-", kWordDash, 20), "gitlab-pat", "glpat-…"},
      {"Npm", fake("npm_", kLowerAlnum, 36), "npm-access-token", "npm_…"},
      {"AwsAkia", fake("AKIA", kUpperBase32, 16), "aws-access-token", "AKIA…"},
      {"AwsAsia", fake("ASIA", kUpperBase32, 16), "aws-access-token", "ASIA…"},
      {"AwsAbia", fake("ABIA", kUpperBase32, 16), "aws-access-token", "ABIA…"},
      {"AwsAcca", fake("ACCA", kUpperBase32, 16), "aws-access-token", "ACCA…"},
      {"SlackBot",
       "xoxb-" + slack_digits(1) + "-" + fake("", kDigits, 13, 2) + "-" + fake("", kAlnum, 24),
       "slack-bot-token", "xoxb-…"},
      {"SlackUser",
       "xoxp-" + slack_digits(1) + "-" + slack_digits(2) + "-" + slack_digits(3) + "-" +
           fake("", kAlnum, 32),
       "slack-user-token", "xoxp-…"},
      {"SlackRotating",
       "xoxe-" + slack_digits(4) + "-" + slack_digits(5) + "-" + slack_digits(6) + "-" +
           fake("", kAlnum, 30),
       "slack-user-token", "xoxe-…"},
      {"SlackApp",
       "xapp-1-" + fake("A", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "-" +
           fake("", kDigits, 13) + "-" + fake("", "abcdef0123456789", 64),
       "slack-app-token", "xapp-…"},
      {"GoogleApiKey", fake("AIza", kWordDash, 35), "gcp-api-key", "AIza…"},
      {"Vault", fake("hvs.", kWordDash, 95), "vault-service-token", "hvs.…"},
      {"HuggingFace", fake("hf_", kLetters, 34), "huggingface-access-token", "hf_…"},
      {"Anthropic", fake("sk-ant-api03-", kWordDash, 93) + "AA", "anthropic-api-key",
       "sk-ant-api03-…"},
      {"Jwt",
       fake("eyJ", kAlnum, 30) + "." + fake("eyJ", kWordDash, 60, 3) + "." +
           fake("", kWordDash, 43, 4),
       "jwt", "ey…"},
      {"PrivateKey", pem_key, "private-key", "-----BEGIN OPENSSH PRIVATE KEY-----"},
  };
}

class TokenShape : public ::testing::TestWithParam<Sample> {};

TEST_P(TokenShape, IsFoundInTextAndShownOnlyByItsKeyword) {
  const Sample& s = GetParam();
  const std::string text = "first line\nexport SOMETHING=\"" + s.token + "\"\n";
  auto found = find_tokens(text);
  ASSERT_EQ(found.size(), 1u) << s.token;
  EXPECT_EQ(found[0].kind, s.kind);
  EXPECT_EQ(found[0].offset, text.find(s.token));
  EXPECT_EQ(found[0].shown, s.shown);
  if (s.kind != "private-key") {
    EXPECT_EQ(found[0].shown.find(s.token.substr(s.shown.size() - 3, 6)), std::string::npos);
  }
}

TEST_P(TokenShape, IsFoundAsAWholeValue) {
  auto found = find_tokens(GetParam().token);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].offset, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, TokenShape, ::testing::ValuesIn(samples()),
                         [](const auto& p) { return p.param.name; });

struct NearMiss {
  std::string name;
  std::string text;
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const NearMiss& c, std::ostream* os) { *os << c.name; }

std::vector<NearMiss> near_misses() {
  const std::string dashes = "-----";
  return {
      {"GitHubPatOneShort", fake("ghp_", kAlnum, 35) + " "},
      {"GitHubPatPlaceholder", "ghp_" + std::string(36, 'x')},
      {"GitHubPatOtherPrefix", fake("ghx_", kAlnum, 36)},
      {"FineGrainedShort", fake("github_pat_", kAlnum, 81) + " "},
      {"GitLabShort", fake("glpat-", kWordDash, 19) + " "},
      {"NpmTooLong", fake("npm_", kLowerAlnum, 37)},
      {"NpmGluedToAWord", fake("xnpm_", kLowerAlnum, 36)},
      {"AwsDocumentationKey", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"},
      {"AwsWithLowerCase", fake("AKIA", "abcdefghijklmnop", 16)},
      {"AwsWithADigitOutsideBase32", fake("AKIA", kUpperBase32, 15) + "1"},
      {"AwsTooLong", fake("AKIA", kUpperBase32, 17)},
      {"AwsGluedToAWord", fake("XAKIA", kUpperBase32, 16)},
      {"AwsLowEntropy", "AKIAAAAAAAAAAAAAAAAA"},
      {"SlackBotShortGroups", "xoxb-123456789-123456789-abcdefghijkl"},
      {"SlackUserTwoGroups", "xoxp-" + fake("", kDigits, 12) + "-" + fake("", kDigits, 12, 2) +
                                 "-" + fake("", kAlnum, 32)},
      {"GoogleKeyShort", fake("AIza", kWordDash, 34) + " "},
      {"GoogleKeyTooLong", fake("AIza", kWordDash, 36)},
      {"VaultShort", fake("hvs.", kWordDash, 89) + " "},
      {"HuggingFaceShort", fake("hf_", kLetters, 33) + " "},
      {"HuggingFaceWithDigits", fake("hf_", kAlnum, 34)},
      {"AnthropicWrongEnd", fake("sk-ant-api03-", kWordDash, 93) + "BB"},
      {"JwtHeaderOnly", fake("eyJ", kAlnum, 30)},
      {"JwtShortPayload", fake("eyJ", kAlnum, 30) + "." + fake("eyJ", kAlnum, 10) + "."},
      {"WordsWithEy", "they keyed the eyes of every monkey"},
      {"PublicKey", pem("PUBLIC KEY")},
      {"Certificate", pem("CERTIFICATE")},
      {"PrivateKeyHeaderWithoutABody", dashes + "BEGIN RSA PRIVATE KEY" + dashes + "\nMII\n" +
                                           dashes + "END RSA PRIVATE KEY" + dashes + "\n"},
      {"SshPublicKey", "ssh-ed25519 " + fake("AAAAC3NzaC1lZDI1NTE5AAAA", kAlnum, 44) + " me@host"},
      {"Sha256Hex", fake("", "0123456789abcdef", 64)},
  };
}

class NotAToken : public ::testing::TestWithParam<NearMiss> {};

TEST_P(NotAToken, IsNotFound) {
  auto found = find_tokens(GetParam().text);
  EXPECT_TRUE(found.empty()) << found[0].kind << " in " << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(NearMisses, NotAToken, ::testing::ValuesIn(near_misses()),
                         [](const auto& p) { return p.param.name; });

TEST(TokenShapes, FindsEveryTokenOfAText) {
  const std::string a = fake("ghp_", kAlnum, 36);
  const std::string b = fake("AKIA", kUpperBase32, 16, 5);
  auto found = find_tokens(b + "\n" + a + " and " + a);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].kind, "aws-access-token");
  EXPECT_EQ(found[1].kind, "github-pat");
  EXPECT_EQ(found[2].kind, "github-pat");
}

TEST(TokenShapes, ALongerGitHubBodyIsStillAToken) {
  // gitleaks' github-pat has no boundary after the 36 characters.
  auto found = find_tokens(fake("ghp_", kAlnum, 40));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, "github-pat");
}

TEST(TokenShapes, NpmAndPrivateKeysAreMatchedWithoutRegardToCase) {
  EXPECT_EQ(find_tokens(fake("NPM_", kAlnum, 36)).size(), 1u);
  std::string key = pem("RSA PRIVATE KEY");
  for (char& c : key) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  auto found = find_tokens(key);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].shown, "-----begin rsa private key-----");
}

TEST(TokenShapes, BinaryBytesAroundATokenDoNotHideIt) {
  std::string text("\0\x01\xff", 3);
  text += fake("ghs_", kAlnum, 36);
  text += std::string("\0", 1);
  ASSERT_EQ(find_tokens(text).size(), 1u);
}

}  // namespace
}  // namespace reviewer::credentials
