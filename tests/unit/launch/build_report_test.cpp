#include "core/launch/build_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;
using ::testing::HasSubstr;

class PublishReports : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = JobScratch::create(tmp_.path(), {});
    ASSERT_TRUE(made) << made.error().to_string();
    scratch_.emplace(std::move(*made));
    ASSERT_EQ(::pipe(log_), 0);
  }
  void TearDown() override {
    ::close(log_[0]);
    ::close(log_[1]);
  }
  std::string logged() {
    ::close(log_[1]);
    log_[1] = -1;
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(log_[0], buf, sizeof buf)) > 0;) {
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }

  TempDir tmp_;
  std::optional<JobScratch> scratch_;
  plan::Plan plan_;
  int log_[2] = {-1, -1};
};

TEST_F(PublishReports, AnOkBuildWritesBothReports) {
  BuildOutcome outcome;
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  EXPECT_EQ(outcome.verdict, BuildOutcome::Verdict::kOk);
  EXPECT_THAT(tmp_.read("review/report.json"), HasSubstr(R"("verdict": "review-build-ok")"));
  EXPECT_TRUE(tmp_.has("review/report.xml"));
}

TEST_F(PublishReports, AReportThatCannotBeWrittenFailsAnOkBuild) {
  fs::create_directories(tmp_ / "review/report.json");
  BuildOutcome outcome;
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  EXPECT_EQ(outcome.verdict, BuildOutcome::Verdict::kFailed);
  const std::string expected =
      "report-unwritable: cannot write " + tmp_ / "review/report.json" + ": Is a directory";
  EXPECT_EQ(outcome.summary, expected);
  EXPECT_EQ(logged(), "reviewer: " + expected + "\n");
}

TEST_F(PublishReports, AReportWrittenBeforeALaterFailureSaysFailed) {
  fs::create_directories(tmp_ / "review/report.xml");
  BuildOutcome outcome;
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  EXPECT_EQ(outcome.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_THAT(tmp_.read("review/report.json"), HasSubstr(R"("verdict": "review-build-failed")"));
  EXPECT_THAT(tmp_.read("review/report.json"), HasSubstr("report-unwritable: "));
}

TEST_F(PublishReports, AFailedBuildKeepsItsOwnSummary) {
  fs::create_directories(tmp_ / "review/report.json");
  BuildOutcome outcome;
  outcome.verdict = BuildOutcome::Verdict::kFailed;
  outcome.summary = "job 'test' step 2 'run' exited 1";
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  EXPECT_EQ(outcome.summary, "job 'test' step 2 'run' exited 1");
  EXPECT_THAT(logged(), HasSubstr("report-unwritable: "));
}

// What a person sees (issue 14): a refused or interrupted build is a failing test case with
// its reason, not an empty <testsuites/> a CI tool would show as green.
TEST_F(PublishReports, ARefusedBuildIsAFailingTestCaseWithTheReason) {
  BuildOutcome outcome;
  outcome.verdict = BuildOutcome::Verdict::kRefused;
  outcome.summary = "git-dir-changed '.git/logs/x' was created after the first job";
  outcome.jobs.push_back({"lint", RunStatus::kOk, {}});
  outcome.steps.push_back({"lint", 1, "run", "", "run", RunStatus::kOk, 0, 0.25, ""});
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  const std::string xml = tmp_.read("review/report.xml");
  EXPECT_THAT(xml, HasSubstr(R"(<testsuite name="review-build">)")) << xml;
  EXPECT_THAT(xml, HasSubstr(R"(<testcase classname="review-build" name="verdict" time="0.000">)"))
      << xml;
  EXPECT_THAT(
      xml,
      HasSubstr(
          R"(<failure message="review-build-refused: git-dir-changed '.git/logs/x' was created after the first job" />)"))
      << xml;
  EXPECT_THAT(xml, HasSubstr(R"(<testcase classname="lint" name="2 run" time="0.250" />)")) << xml;
}

TEST_F(PublishReports, AnInterruptedBuildWithNoStepIsNotAnEmptyDocument) {
  BuildOutcome outcome;
  outcome.verdict = BuildOutcome::Verdict::kFailed;
  outcome.summary = "interrupted";
  exec::FdLogSink log(log_[1]);
  publish_build_reports(*scratch_, plan_, outcome, log);
  EXPECT_THAT(tmp_.read("review/report.xml"),
              HasSubstr(R"(<failure message="review-build-failed: interrupted" />)"));
}

TEST(SummaryTable, OneRowPerStepWithOutcomeTimeAndWhatWasKilled) {
  BuildOutcome outcome;
  outcome.jobs.push_back({"lint", RunStatus::kFailed, {"sleep (42)"}});
  outcome.jobs.push_back({"test", RunStatus::kNotRun, {}});
  outcome.steps.push_back({"lint", 0, "actions/checkout", "", "skip", RunStatus::kOk, -1, 0, ""});
  outcome.steps.push_back(
      {"lint", 1, "npm test", "", "run", RunStatus::kFailed, 2, 1.5, "exited 2"});
  EXPECT_THAT(summary_table(outcome),
              ::testing::ElementsAre(
                  "reviewer: job  | step                | outcome | time    | killed",
                  "reviewer: lint | #1 actions/checkout | ok      | 0.000 s",
                  "reviewer: lint | #2 npm test         | failed  | 1.500 s | sleep (42)",
                  "reviewer: test | -                   | not-run | -"));
}

}  // namespace
}  // namespace reviewer::launch
