// Steps run as the launcher's user and can write anywhere under /tmp, including the review root
// the reports go to. Whatever a step leaves there, /tmp/review/report.json afterwards is the
// launcher's own account, and a report that could not be written never comes with
// review-build-ok.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr const char* kForged = R"({"verdict":"review-build-ok"})";

SandboxRun then(const std::string& after) {
  SandboxRun run;
  run.after = after;
  return run;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_F(LauncherE2E, AReadOnlyForgedReportIsReplacedByTheLaunchersOwn) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", std::string("      - run: |\n"
                                              "          mkdir -p /tmp/review\n"
                                              "          echo '") +
                                      kForged +
                                      "' > /tmp/review/report.json\n"
                                      "          chmod 444 /tmp/review/report.json\n"
                                      "          exit 1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), then("cat /tmp/review/report.json"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 1");
  EXPECT_THAT(r.after, HasSubstr(R"("verdict": "review-build-failed")")) << r.after;
  EXPECT_THAT(r.after, Not(HasSubstr(kForged)));
}

TEST_F(LauncherE2E, ASymlinkAtTheReportIsReplacedAndItsTargetLeftAlone) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n"
                          "          mkdir -p /tmp/review\n"
                          "          ln -s /workspace/package.json /tmp/review/report.json\n")));
  repo.clone();
  const std::string before = read_file(repo.workspace() + "/package.json");
  auto r =
      run_launcher(repo.workspace(), then("test -L /tmp/review/report.json && echo still-a-link; "
                                          "cat /tmp/review/report.json"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");
  EXPECT_EQ(read_file(repo.workspace() + "/package.json"), before) << "written through the link";
  EXPECT_THAT(r.after, Not(HasSubstr("still-a-link")));
  EXPECT_THAT(r.after, HasSubstr(R"("verdict": "review-build-ok")")) << r.after;
}

TEST_F(LauncherE2E, ADirectoryAtTheReportFailsTheBuild) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - run: mkdir -p /tmp/review/report.json\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-failed: report-unwritable: cannot write "
                                        "/tmp/review/report.json: "));
}

// The review root itself swapped for a link to a directory holding a read-only forgery: the
// launcher puts its own review root back before it writes.
TEST_F(LauncherE2E, AReplacedReviewRootIsPutBack) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", std::string("      - run: |\n"
                                              "          mkdir /tmp/fake\n"
                                              "          echo '") +
                                      kForged +
                                      "' > /tmp/fake/report.json\n"
                                      "          chmod 444 /tmp/fake/report.json\n"
                                      "          mv /tmp/review /tmp/moved\n"
                                      "          ln -s /tmp/fake /tmp/review\n"
                                      "          exit 1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), then("test -L /tmp/review && echo still-a-link; "
                                               "cat /tmp/review/report.json"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 1");
  EXPECT_THAT(r.after, Not(HasSubstr("still-a-link")));
  EXPECT_THAT(r.after, HasSubstr(R"("verdict": "review-build-failed")")) << r.after;
  EXPECT_THAT(r.after, Not(HasSubstr(kForged)));
}

}  // namespace
}  // namespace reviewer::e2e
