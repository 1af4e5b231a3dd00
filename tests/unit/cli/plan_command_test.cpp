// `reviewer plan` as the host runs it: the text form names each refusal, shows the line and a
// caret, and never passes a workflow's control bytes through to the terminal.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/temp_dir.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

std::pair<int, std::string> run(const std::string& args) {
  return testing::run_reviewer("plan " + args);
}

class PlanCommand : public ::testing::Test {
 protected:
  std::string workflow(const std::string& text) {
    dir_.write("ci.yml", text);
    return dir_ / "ci.yml";
  }
  test_support::TempDir dir_;
};

TEST_F(PlanCommand, EachRefusalShowsItsLineAndACaret) {
  const std::string w = workflow(
      "on: pull_request\njobs:\n  build:\n    runs-on: windows-latest\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out, w + ":4:14: runner-label: 'runs-on' is 'windows-latest'; only ubuntu-latest and "
                     "ubuntu-24.04 match the review image\n"
                     "    runs-on: windows-latest\n"
                     "             ^\n");
}

// format('{0}{0}...', ...) nested eight deep, eight copies a level (issue 37): 8^8 characters
// from a few hundred bytes of workflow.
std::string format_bomb() {
  std::string e = "'x'";
  for (int i = 0; i < 8; ++i) {
    e = "format('{0}{0}{0}{0}{0}{0}{0}{0}', " + e + ")";
  }
  return e;
}

// The evaluation stops at the bound before building the string, and says so where the
// expression stands, like the parser's refusals: the line, a caret, and the character.
TEST_F(PlanCommand, AnExpressionBombIsRefusedAtItsLine) {
  const std::string w = workflow(
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
      "      - run: echo ${{ " +
      format_bomb() + " }}\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out, w + ":7:14: expression-too-large: the script: format() makes a string longer "
                     "than 1048576 bytes (1 MiB), the bound of one value (at character 36)\n"
                     "      - run: echo ${{ format('{0}{0}{0}{0}{0}{0}{0}{0}', "
                     "format('{0}{0}{0}{0}{0}{0}{0}{0}', format('{0}{0}{0}{0}{0}{0}{0...\n"
                     "             ^\n");
}

// One field repeated by YAML aliases is evaluated, and its value kept, each time: the fields of
// one plan share one 16 MiB total (each value of a mebibyte counts about twice: built, then
// kept), so the eighth is refused where it stands (built, but not kept), and so is each one
// after it.
TEST_F(PlanCommand, ExpressionsShareOneTotalPerPlan) {
  std::string mebibyte = "'x'";
  for (int i = 0; i < 5; ++i) {
    mebibyte = "format('{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}', " + mebibyte + ")";
  }
  std::string env = "    env:\n      V0: &v ${{ " + mebibyte + " }}\n";
  for (int i = 1; i < 40; ++i) {
    env += "      V" + std::to_string(i) + ": *v\n";
  }
  const std::string w =
      workflow("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n" + env +
               "    steps:\n"
               "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.rfind(w + ":13:11: expression-too-large: job env 'V7': the expression's value "
                          "takes what the workflow's expressions build together past 16777216 "
                          "bytes (16 MiB), the bound of one plan (at character 1)\n"
                          "      V7: *v\n"
                          "          ^\n",
                      0),
            0u)
      << out.substr(0, 2000);
  std::size_t refusals = 0;
  for (auto at = out.find("expression-too-large"); at != std::string::npos;
       at = out.find("expression-too-large", at + 1)) {
    ++refusals;
  }
  EXPECT_EQ(refusals, 33u);
}

// libcrypto reads no configuration: an openssl.cnf whose only provider is OpenSSL's null one
// (no algorithms) made the plugins' hashing fail its checks before util::init_crypto.
TEST_F(PlanCommand, AnOpensslConfigurationCannotReplaceTheDigests) {
  dir_.write("null.cnf",
             "openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
             "[provider_sect]\nnull = null_sect\n[null_sect]\nactivate = 1\n");
  const std::string w = workflow(
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  auto [code, out] = testing::run_reviewer("plan --workflow " + w + " --job build --base main",
                                           "OPENSSL_CONF=" + (dir_ / "null.cnf"));
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out.rfind("plan: job 'build' of ", 0), 0u) << out;
}

// A job without setup-node runs the runner's default Node: the plan says so, text and JSON.
TEST_F(PlanCommand, TheRunnersDefaultNodeIsAPinThatSaysSo) {
  const std::string w = workflow(
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("\npin node 22 (" + w +
                     ":4:14): the runner's default Node 22 (ubuntu-24.04, "
                     "actions/runner-images #14046)\n"),
            std::string::npos)
      << out;
  auto [json_code, json] = run("--workflow " + w + " --job build --base main --format json");
  EXPECT_EQ(json_code, 0) << json;
  EXPECT_NE(json.find("\"runner_default\": \"the runner's default Node 22 (ubuntu-24.04, "
                      "actions/runner-images #14046)\""),
            std::string::npos)
      << json;
}

TEST_F(PlanCommand, LoadingRefusalsToo) {
  const std::string w = workflow("on: pull_request\njobs: [a\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out, w + ":3:1: yaml-syntax: did not find expected ',' or ']' (while parsing a flow "
                     "sequence at 2:7)\n"
                     "\n"
                     "^\n");
}

TEST_F(PlanCommand, AWorkflowCannotWriteControlBytesToTheTerminal) {
  // A double-quoted scalar may hold any escape; the label lands in the message.
  const std::string w = workflow(
      "on: pull_request\njobs:\n  build:\n    runs-on: \"\\e]0;owned\\a\\e[2J\"\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(out.find('\a'), std::string::npos) << out;
  EXPECT_NE(out.find("'\\x1B]0;owned\\x07\\x1B[2J'"), std::string::npos) << out;
}

TEST_F(PlanCommand, JsonAndSarifCarryNoExcerpt) {
  const std::string w = workflow("on: push\njobs: {}\n");
  auto [code, out] = run("--workflow " + w + " --job build --base main --format json");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.find('^'), std::string::npos) << out;
}

TEST_F(PlanCommand, AMissingFileIsNamedWithoutAnExcerpt) {
  auto [code, out] = run("--workflow " + (dir_ / "nope.yml") + " --job build --base main");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.rfind((dir_ / "nope.yml") + ": workflow-unreadable: cannot open", 0), 0U) << out;
  EXPECT_EQ(out.find('^'), std::string::npos) << out;
}

TEST_F(PlanCommand, UsageErrorsExitTwo) {
  auto [code, out] = run("--workflow x.yml --job build");
  EXPECT_EQ(code, 2) << out;
}

}  // namespace
}  // namespace reviewer::cli
