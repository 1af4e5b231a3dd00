// `reviewer review --engine podman`: the host command end to end in the real images, as a
// reviewer host runs it (plan, clone, image, the production sandbox with its limits, the
// launcher, the reports, the sandbox removed).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/image/container.h"

namespace reviewer::image_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kExampleImage = "reviewer-node22-bun1310";

class ReviewCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = missing_image_reason(kExampleImage); !why.empty()) {
      GTEST_SKIP() << why;
    }
    std::string tmpl = (fs::temp_directory_path() / "reviewer-review-test-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    repo_ = root_ + "/repo";
    fs::copy(REVIEWER_SOURCE_DIR "/examples/node-app", repo_, fs::copy_options::recursive);
  }
  void TearDown() override {
    if (!root_.empty()) {
      fs::remove_all(root_);
    }
  }

  void write(const std::string& relative, const std::string& text) {
    std::ofstream(repo_ + "/" + relative, std::ios::trunc) << text;
  }
  void commit() {
    ASSERT_EQ(run("cd " + shell_quote(repo_) +
                  " && git init -q -b main && git add -A && git -c user.name=t "
                  "-c user.email=t@example.invalid commit -q -m pr")
                  .exit_code,
              0);
  }
  Outcome review(const std::string& extra = "") {
    return run(REVIEWER_BINARY_DIR "/bin/reviewer review " + shell_quote(repo_) +
               " --workflow .github/workflows/ci.yml --job test --base main --engine podman " +
               extra);
  }

  std::string root_;
  std::string repo_;
};

TEST_F(ReviewCommand, TheExampleReviewsOkInItsImageAndLeavesNoSandbox) {
  commit();
  auto r = review("--reports " + shell_quote(root_ + "/reports"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  // The log names the image, its id and the runtime versions from the table.
  EXPECT_THAT(r.output, HasSubstr("review: image reviewer-node22-bun1310 ("));
  EXPECT_THAT(r.output, HasSubstr("node 22.23.5"));
  EXPECT_THAT(r.output, HasSubstr("engine podman"));
  EXPECT_THAT(r.output, HasSubstr("[test #2 Node version] v22.23.5"));
  EXPECT_TRUE(fs::exists(root_ + "/reports/report.json"));
  EXPECT_TRUE(fs::exists(root_ + "/reports/report.xml"));
  EXPECT_EQ(containers_left_by(r.output), 0) << "the sandbox was not removed";
}

TEST_F(ReviewCommand, ARefusedPlanCreatesNoSandbox) {
  write(".github/workflows/ci.yml",
        "on: pull_request\njobs:\n  test:\n    runs-on: windows-latest\n    steps:\n"
        "      - run: dir\n");
  commit();
  auto r = review();
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("runner-label"));
  EXPECT_EQ(containers_left_by(r.output), 0);
}

// The attack on the launcher, finding 10: a fork bomb in a step filled the host's PID table.
// With the sandbox's PID limit it fails that review and leaves the host as it was.
TEST_F(ReviewCommand, AForkBombFailsItsReviewAndNothingElse) {
  write(".github/workflows/ci.yml",
        "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    timeout-minutes: 2\n    steps:\n"
        "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
        "      - run: |\n          for i in $(seq 1 3000); do sleep 120 & done\n"
        "          echo forked-all\n");
  commit();
  const int host_before = std::stoi(run("ps -e --no-headers | wc -l").output);
  auto r = review("--pids-limit 256");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("fork: Resource temporarily unavailable"));
  EXPECT_THAT(r.last_line(), StartsWith("review-build-failed: job 'test' step 2"));
  const int host_after = std::stoi(run("ps -e --no-headers | wc -l").output);
  EXPECT_LT(host_after, host_before + 50) << "processes outlived the sandbox";
}

}  // namespace
}  // namespace reviewer::image_test
