// `reviewer resolve --workflow --job`: the planned job's pins join the declarations.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/temp_dir.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

std::pair<int, std::string> run(const std::string& args) {
  return testing::run_reviewer("resolve " + args);
}

class ResolveCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_.write("package.json", R"({"engines": {"node": ">=20"}})");
    tmp_.write(".github/workflows/ci.yml",
               "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
               "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
               "      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020\n"
               "        with:\n          node-version: 22.23.5\n"
               "      - run: node --version\n");
  }
  test_support::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

TEST_F(ResolveCommand, DeclarationsAloneCanBeAmbiguous) {
  auto [code, out] = run(dir_);
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.substr(0, 10), "ambiguous:");
}

TEST_F(ResolveCommand, ThePlannedJobsPinSelectsOneImage) {
  auto [code, out] = run("--workflow " + dir_ + "/.github/workflows/ci.yml --job t " + dir_);
  EXPECT_EQ(code, 0) << out;
  // The image on stdout, last; the package.json's engines.node before it, on stderr, as a note.
  EXPECT_TRUE(out.ends_with("\nreviewer-node22-bun1310\n")) << out;
  EXPECT_NE(out.find("reviewer resolve: package.json engines.node \">=20\" is reported, not "
                     "enforced"),
            std::string::npos)
      << out;
}

// Without setup-node the job runs the runner's default Node 22, which selects the Node 22 image;
// a declaration it does not satisfy is reported, not enforced: CI runs Node 22 whatever it says.
TEST_F(ResolveCommand, AJobWithoutSetupNodeRunsTheRunnersNode) {
  tmp_.write(".github/workflows/plain.yml",
             "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
             "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
             "      - run: node --version\n");
  const std::string args = "--workflow " + dir_ + "/.github/workflows/plain.yml --job t " + dir_;
  auto [code, out] = run(args);
  EXPECT_EQ(code, 0) << out;
  EXPECT_TRUE(out.ends_with("\nreviewer-node22-bun1310\n")) << out;
  tmp_.write(".nvmrc", "24\n");
  auto [reported, says] = run(args);
  EXPECT_EQ(reported, 0) << says;
  EXPECT_NE(says.find("reviewer resolve: .nvmrc \"24\" is reported, not enforced: CI runs the node "
                      "that the runner's default Node 22 (ubuntu-24.04, actions/runner-images "
                      "#14046) at "),
            std::string::npos)
      << says;
  EXPECT_NE(says.find("reviewer-node22-bun1310"), std::string::npos) << says;
}

TEST_F(ResolveCommand, AnUnplannableWorkflowGivesItsRefusals) {
  auto [code, out] = run("--workflow " + dir_ + "/.github/workflows/ci.yml --job missing " + dir_);
  EXPECT_EQ(code, 3);
  EXPECT_NE(out.find("job-not-found"), std::string::npos) << out;
}

TEST_F(ResolveCommand, WorkflowAndJobGoTogether) {
  EXPECT_EQ(run("--workflow x.yml " + dir_).first, 2);
}

// --runtime-set answers with the exact releases the catalogue gives the pins, each decision on
// stderr.
TEST_F(ResolveCommand, TheRuntimeSetIsTheCataloguesReleasesForThePins) {
  const std::string catalogue =
      std::string(REVIEWER_SOURCE_DIR) + "/tests/data/runtimes/valid.json";
  auto [code, out] =
      run("--runtime-set --catalogue " + catalogue + " --pin node@20.0.0 --pin bun@1.3.0 " + dir_);
  EXPECT_EQ(code, 0) << out;
  EXPECT_TRUE(out.ends_with("\nnode 20.0.0 (npm 9.6.4, corepack 0.17.2), bun 1.3.0\n")) << out;
  EXPECT_NE(out.find("reviewer resolve: node '20.0.0' taken as 20.0.0: an exact version"),
            std::string::npos)
      << out;
  auto [refused, says] =
      run("--runtime-set --catalogue " + catalogue + " --pin node@20.1.0 " + dir_);
  EXPECT_EQ(refused, 3) << says;
  EXPECT_NE(says.find("runtime-not-in-catalogue"), std::string::npos) << says;
}

}  // namespace
}  // namespace reviewer::cli
