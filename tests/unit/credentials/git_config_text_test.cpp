// The git-config(1) syntax the credential scan reads: what git reads from a file, never less.
#include "core/credentials/git_config_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::credentials {
namespace {

std::vector<std::string> entries(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& e : parse_git_config(text)) {
    out.push_back(std::to_string(e.line) + " " + e.section + "|" + e.subsection + "|" + e.key +
                  "=" + e.value);
  }
  return out;
}

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(GitConfigText, ReadsSectionsSubsectionsAndKeysInGitsCase) {
  EXPECT_THAT(
      entries("[Credential]\n\tHelper = store\n"
              "[credential \"https://Example.com\"]\n  helper = cache\n"
              "[URL.Legacy]\nInsteadOf = y\n"),
      ElementsAre("2 credential||helper=store", "4 credential|https://Example.com|helper=cache",
                  "6 url|legacy|insteadof=y"));
}

TEST(GitConfigText, ResolvesQuotesEscapesCommentsAndContinuations) {
  EXPECT_THAT(entries("[a]\n"
                      "k1 = \"quoted ; not a comment\" # a comment\n"
                      "k2 = one \\\n  two\n"
                      "k3 = tab\\there \\\"q\\\" back\\\\slash\n"
                      "k4 =   spaced   out   ; comment\n"),
              ElementsAre("2 a||k1=quoted ; not a comment", "3 a||k2=one   two",
                          "5 a||k3=tab\there \"q\" back\\slash", "6 a||k4=spaced   out"));
}

TEST(GitConfigText, ABareKeyIsAnEntryWithoutValue) {
  EXPECT_THAT(entries("[core]\n  bare\n  other # comment\n"),
              ElementsAre("2 core||bare=", "3 core||other="));
}

TEST(GitConfigText, AKeyMayFollowItsSectionHeaderOnTheSameLine) {
  EXPECT_THAT(entries("[credential] helper = store\n"), ElementsAre("1 credential||helper=store"));
}

TEST(GitConfigText, SubsectionEscapesAreResolved) {
  EXPECT_THAT(entries("[url \"a\\\"b\\\\c\"]\n insteadOf = d\n"),
              ElementsAre("2 url|a\"b\\c|insteadof=d"));
}

TEST(GitConfigText, LinesGitWouldRejectAreSkippedAndReadingGoesOn) {
  EXPECT_THAT(entries("orphan = before any section\n"
                      "[bad section\n"
                      "lost = under a broken header\n"
                      "[ok]\n"
                      "k = \"unterminated\n"
                      "9bad = key\n"
                      "k = bad \\q escape\n"
                      "helper = kept\n"),
              ElementsAre("8 ok||helper=kept"));
}

TEST(GitConfigText, CommentsAndBlankFilesHoldNothing) {
  EXPECT_THAT(entries(""), IsEmpty());
  EXPECT_THAT(entries("# only\n; comments\n\n"), IsEmpty());
}

TEST(GitConfigText, AByteOrderMarkIsSkipped) {
  EXPECT_THAT(entries("\xEF\xBB\xBF[a]\nb = c\n"), ElementsAre("2 a||b=c"));
}

TEST(GitConfigText, CrLfLineEndsAreRead) {
  EXPECT_THAT(entries("[a]\r\nb = c\r\n"), ElementsAre("2 a||b=c"));
}

}  // namespace
}  // namespace reviewer::credentials
