// `reviewer resolve --workflow --job`: the planned job's pins join the declarations.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace reviewer::cli {
namespace {

namespace fs = std::filesystem;

std::pair<int, std::string> run(const std::string& args) {
  std::string cmd = REVIEWER_BINARY_DIR "/bin/reviewer resolve " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) {
    out.append(buf, n);
  }
  int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class ResolveCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "reviewer-resolve-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    fs::create_directories(dir_ + "/.github/workflows");
    std::ofstream(dir_ + "/package.json") << R"({"engines": {"node": ">=20"}})";
    std::ofstream(dir_ + "/.github/workflows/ci.yml")
        << "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
           "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
           "      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020\n"
           "        with:\n          node-version: 22.22.1\n"
           "      - run: node --version\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(ResolveCommand, DeclarationsAloneCanBeAmbiguous) {
  auto [code, out] = run(dir_);
  EXPECT_EQ(code, 3);
  EXPECT_EQ(out.substr(0, 10), "ambiguous:");
}

TEST_F(ResolveCommand, ThePlannedJobsPinSelectsOneImage) {
  auto [code, out] = run("--workflow " + dir_ + "/.github/workflows/ci.yml --job t " + dir_);
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out, "reviewer-node22-bun1310\n");
}

TEST_F(ResolveCommand, AnUnplannableWorkflowGivesItsRefusals) {
  auto [code, out] = run("--workflow " + dir_ + "/.github/workflows/ci.yml --job missing " + dir_);
  EXPECT_EQ(code, 3);
  EXPECT_NE(out.find("job-not-found"), std::string::npos) << out;
}

TEST_F(ResolveCommand, WorkflowAndJobGoTogether) {
  EXPECT_EQ(run("--workflow x.yml " + dir_).first, 2);
}

}  // namespace
}  // namespace reviewer::cli
