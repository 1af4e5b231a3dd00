// capture_output, the launcher's runner for its own tools (node --version, tar for Bun's cache):
// the exit status is the tool's, even when the tool closes its stdout before it exits (GNU tar
// does, through gnulib's close_stdout), and a tool that hangs is killed at the deadline.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/exec/capture.h"
#include "tests/support/temp_dir.h"

namespace reviewer::exec {
namespace {

const std::vector<std::string> kEnv = {"PATH=/usr/bin:/bin"};

TEST(CaptureOutput, ReturnsWhatTheToolPrinted) {
  auto r = capture_output({"/bin/sh", "-c", "echo hello"}, kEnv);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "hello\n");
}

TEST(CaptureOutput, AToolThatClosesStdoutBeforeExitingIsNotKilled) {
  auto r = capture_output({"/bin/sh", "-c", "echo early; exec 1>&-; sleep 0.3; exit 0"}, kEnv);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "early\n");
}

TEST(CaptureOutput, ANonZeroExitIsAnError) {
  auto r = capture_output({"/bin/sh", "-c", "exec 1>&-; sleep 0.1; exit 3"}, kEnv);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, ::testing::HasSubstr("did not exit 0"));
}

TEST(CaptureOutput, AHungToolIsKilledAtTheDeadline) {
  const auto start = std::chrono::steady_clock::now();
  auto r = capture_output({"/bin/sh", "-c", "exec 1>&-; exec sleep 60"}, kEnv);
  EXPECT_FALSE(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

// The launcher starts node's --version in its own thread and reads the answer later.
TEST(StartedCapture, FinishesWithWhatTheToolPrinted) {
  auto started = start_capture({"/bin/sh", "-c", "echo hello"}, kEnv);
  ASSERT_TRUE(started) << started.error().message;
  auto r = started->finish();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "hello\n");
}

TEST(StartedCapture, AToolThatCannotStartIsAnErrorAtTheStart) {
  auto started = start_capture({"/nonexistent/node", "--version"}, kEnv);
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().rule, "io-error");
  EXPECT_THAT(started.error().message, ::testing::HasSubstr("/nonexistent/node"));
}

// A launcher that returns before it reads the answer leaves nothing of the tool running.
TEST(StartedCapture, DestroyedUnfinishedItKillsTheTool) {
  test_support::TempDir dir;
  const std::string late = dir / "late";
  {
    auto started = start_capture({"/bin/sh", "-c", "sleep 0.5; touch '" + late + "'"}, kEnv);
    ASSERT_TRUE(started) << started.error().message;
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_NE(::access(late.c_str(), F_OK), 0) << "the tool ran on after its StartedCapture";
}

}  // namespace
}  // namespace reviewer::exec
