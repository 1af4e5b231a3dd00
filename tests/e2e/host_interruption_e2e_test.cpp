// The isolation issue's finding 8: SIGTERM or SIGINT of `reviewer review` left its sandbox
// running (`sleep infinity` and the step's processes) and its clone in TMPDIR. Now an interrupted
// review removes both; one killed outright (SIGKILL) leaves them for `reviewer gc`, which ends a
// sandbox and removes a clone only once the host process that made it is gone.
#include <signal.h>
#include <sys/wait.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// A review of `repo` in the background, its TMPDIR `tmp`; its pid once it has started.
class BackgroundReview {
 public:
  BackgroundReview(const ExampleRepo& repo, const std::string& tmp) : pid_file_(tmp + ".pid") {
    const std::string engine =
        in_image() ? "podman" : std::string("namespaces --stage ") + REVIEWER_E2E_STAGE;
    const std::string command =
        "TMPDIR=" + tmp + " sh -c 'echo $$ > " + pid_file_ +
        "; exec " REVIEWER_BINARY_DIR "/bin/reviewer review " + repo.source() +
        " --workflow .github/workflows/ci.yml --job test --base main --engine " + engine + "' >" +
        tmp + ".out 2>&1; echo \"exit=$?\"";
    done_ = std::async(std::launch::async, [command] { return run_command(command); });
  }
  pid_t pid() {
    for (int i = 0; i < 200; ++i) {
      std::ifstream in(pid_file_);
      if (pid_t p = 0; in >> p) {
        return p;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
  }
  std::string wait() { return done_.get().output; }

 private:
  std::string pid_file_;
  std::future<RunResult> done_;
};

bool step_running(const std::string& pattern) {
  return !run_command("pgrep -f '" + pattern + "'").output.empty();
}

bool wait_until(const std::function<bool()>& condition, int seconds) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (condition()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return condition();
}

// The scratch directories of reviews in `tmp`.
int clones_in(const std::string& tmp) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(tmp, ec)) {
    n += e.path().filename().string().rfind("reviewer-review.", 0) == 0 ? 1 : 0;
  }
  return n;
}

// The podman sandboxes whose host label names `pid`.
int sandboxes_of(pid_t pid) {
  if (!in_image()) {
    return 0;
  }
  return std::stoi(run_command(REVIEWER_SOURCE_DIR
                               "/docker/reviewer/engine.sh ps --all --format "
                               "'{{index .Labels \"org.reviewer.host\"}}' | grep -c '^" +
                               std::to_string(pid) + ":' || true")
                       .output);
}

class HostInterruption : public LauncherE2E, public ::testing::WithParamInterface<int> {};

TEST_P(HostInterruption, AnInterruptedReviewRemovesItsSandboxAndClone) {
  const int sig = GetParam();
  const std::string marker = "sleep 61" + std::to_string(30 + sig);
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: " + marker + "\n")));
  repo.commit_source();
  const std::string tmp = repo.source() + "/../tmp";
  fs::create_directories(tmp);
  BackgroundReview review(repo, tmp);
  const pid_t pid = review.pid();
  ASSERT_NE(pid, 0);
  // The brackets keep pgrep from finding its own command line.
  const std::string pattern = marker.substr(0, marker.size() - 1) + "[" + marker.back() + "]";
  ASSERT_TRUE(wait_until([&] { return step_running(pattern); }, 60)) << review.wait();
  ASSERT_EQ(clones_in(tmp), 1);
  ::kill(pid, sig);
  const std::string exit = review.wait();
  EXPECT_EQ(exit, "exit=" + std::to_string(128 + sig) + "\n");
  std::ifstream in(tmp + ".out");
  const std::string out((std::istreambuf_iterator<char>(in)), {});
  EXPECT_THAT(out, HasSubstr("interrupted by")) << out;
  EXPECT_FALSE(step_running(pattern)) << "the sandbox outlived the review";
  EXPECT_EQ(clones_in(tmp), 0) << "the clone outlived the review:\n"
                               << run_command("find " + tmp + " -maxdepth 3 | head -20").output
                               << out;
  EXPECT_EQ(sandboxes_of(pid), 0);
}

INSTANTIATE_TEST_SUITE_P(Signals, HostInterruption, ::testing::Values(SIGTERM, SIGINT, SIGHUP));

TEST_F(LauncherE2E, WhatAReviewKilledOutrightLeftIsRemovedByGcOnlyOnceItsHostIsGone) {
  const std::string marker = "sleep 6149";
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: " + marker + "\n")));
  repo.commit_source();
  const std::string tmp = repo.source() + "/../tmp";
  fs::create_directories(tmp);
  const std::string gc = "TMPDIR=" + tmp + " " REVIEWER_BINARY_DIR "/bin/reviewer gc";
  BackgroundReview review(repo, tmp);
  const pid_t pid = review.pid();
  ASSERT_NE(pid, 0);
  ASSERT_TRUE(wait_until([&] { return step_running("sleep 614[9]"); }, 60)) << review.wait();
  // While its host lives, gc leaves the review alone.
  const auto early = run_command(gc);
  EXPECT_THAT(early.output, Not(HasSubstr(std::to_string(pid) + ":"))) << early.output;
  EXPECT_TRUE(step_running("sleep 614[9]"));
  ::kill(pid, SIGKILL);
  EXPECT_EQ(review.wait(), "exit=137\n");
  // The canary: the kill left the sandbox and the clone.
  EXPECT_TRUE(step_running("sleep 614[9]"));
  EXPECT_EQ(clones_in(tmp), 1);
  const auto collected = run_command(gc);
  EXPECT_EQ(collected.exit_code, 0) << collected.output;
  EXPECT_THAT(collected.output, HasSubstr("of host " + std::to_string(pid) + ":"))
      << collected.output;
  EXPECT_TRUE(wait_until([] { return !step_running("sleep 614[9]"); }, 30)) << "still running";
  EXPECT_EQ(clones_in(tmp), 0);
  EXPECT_EQ(sandboxes_of(pid), 0);
}

}  // namespace
}  // namespace reviewer::e2e
