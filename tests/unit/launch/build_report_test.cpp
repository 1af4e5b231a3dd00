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

}  // namespace
}  // namespace reviewer::launch
