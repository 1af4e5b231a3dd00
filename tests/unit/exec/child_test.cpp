// exec::Child with real processes: how a child ended, the kill at a deadline and its grace, the
// subreaper that ends what escaped into a session of its own, and a destructor that leaves
// neither a process nor a zombie. Processes are counted by a marker unique to the test in their
// argv, never by assuming the machine is idle.
#include "core/exec/child.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

namespace reviewer::exec {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

const std::vector<std::string> kEnv = {"PATH=/usr/bin:/bin"};

// A word for argv that no other process on the machine carries.
std::string marker() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return "reviewer-child-test-" + std::to_string(::getpid()) + "-" + test->name();
}

// Live processes with `word` as one of their arguments (a zombie's argv is empty).
int count_marked(const std::string& word) {
  int count = 0;
  DIR* proc = ::opendir("/proc");
  while (dirent* e = proc != nullptr ? ::readdir(proc) : nullptr) {
    std::ifstream in(std::string("/proc/") + e->d_name + "/cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(in)), {});
    for (std::size_t at = 0; at < cmdline.size(); at = cmdline.find('\0', at) + 1) {
      if (cmdline.compare(at, cmdline.find('\0', at) - at, word) == 0) {
        ++count;
        break;
      }
      if (cmdline.find('\0', at) == std::string::npos) {
        break;
      }
    }
  }
  if (proc != nullptr) {
    ::closedir(proc);
  }
  return count;
}

bool within(std::chrono::seconds limit, const std::function<bool()>& holds) {
  for (const auto give_up = Clock::now() + limit; Clock::now() < give_up;) {
    if (holds()) {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  return holds();
}

// `script` run by bash with the test's marker as $0, so that `exec -a "$0"` marks a process.
ChildOptions bash(const std::string& script) {
  ChildOptions options;
  options.argv = {"/bin/bash", "-c", script, marker()};
  options.env = kEnv;
  return options;
}

// One line of `fd`, without its newline (a writer that keeps the pipe open is not waited for).
std::string read_line(int fd) {
  std::string line;
  char c = 0;
  while (::read(fd, &c, 1) == 1 && c != '\n') {
    line += c;
  }
  return line;
}

// True when `pid` is neither running nor a zombie of this process.
bool gone(pid_t pid) {
  return ::kill(pid, 0) != 0 && errno == ESRCH && ::waitpid(pid, nullptr, WNOHANG) < 0;
}

// True while `pid` runs (not reaped yet is not running: who reaps an orphan is not this test's).
bool running(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), {});
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

TEST(Child, ReportsTheExitCode) {
  auto child = Child::spawn(bash("exit 3"));
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(child->wait_until(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status()->code, 3);
  EXPECT_EQ(child->exit_status()->signal, 0);
  EXPECT_EQ(child->exit_status()->shell_status(), 3);
}

TEST(Child, ReportsTheSignalThatEndedIt) {
  auto child = Child::spawn(bash("kill -USR1 $$"));
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(child->wait_until(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status()->code, -1);
  EXPECT_EQ(child->exit_status()->signal, SIGUSR1);
  EXPECT_EQ(child->exit_status()->shell_status(), 128 + SIGUSR1);
}

TEST(Child, AProgramThatCannotStartIsAnErrorNamingIt) {
  ChildOptions options;
  options.argv = {"/nonexistent/tool", "--version"};
  auto child = Child::spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().rule, "io-error");
  EXPECT_EQ(child.error().message, "/nonexistent/tool: No such file or directory");
}

TEST(Child, TerminateSendsSigtermFirst) {
  auto options = bash("echo ready; exec -a \"$0\" sleep 1000");
  options.out = Output::pipe();
  auto child = Child::spawn(options);
  ASSERT_TRUE(child) << child.error().message;
  char ready[6];
  ASSERT_EQ(::read(child->output().get(), ready, sizeof ready), 6);
  const auto start = Clock::now();
  EXPECT_EQ(child->terminate(std::chrono::seconds(30)).signal, SIGTERM);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10)) << "it waited for the grace";
}

TEST(Child, AChildThatIgnoresSigtermIsKilledAtTheDeadlinePlusTheGrace) {
  // The trap is set before "ready" is printed, so SIGTERM cannot come before it.
  auto options = bash("trap '' TERM; echo ready; exec -a \"$0\" sleep 1000");
  options.out = Output::pipe();
  const auto start = Clock::now();
  auto child = Child::spawn(options);
  ASSERT_TRUE(child) << child.error().message;
  char ready[6];
  ASSERT_EQ(::read(child->output().get(), ready, sizeof ready), 6);
  const auto deadline = start + milliseconds(300);
  const auto grace = milliseconds(400);
  EXPECT_FALSE(child->wait_until(deadline));
  EXPECT_GE(Clock::now(), deadline);
  const ExitStatus ended = child->terminate(grace);
  EXPECT_EQ(ended.signal, SIGKILL) << "SIGTERM was ignored, so only SIGKILL ends it";
  EXPECT_EQ(ended.code, -1);
  EXPECT_GE(Clock::now() - start, deadline - start + grace) << "killed before the grace ran out";
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(gone(child->pid()));
  EXPECT_EQ(count_marked(marker()), 0);
}

TEST(Child, AsASubreaperItEndsAGrandchildThatEscapedIntoItsOwnSession) {
  auto options = bash(
      "setsid bash -c 'echo escaped; exec -a \"$0\" sleep 1000' \"$0\" &\n"
      "exec -a \"$0\" sleep 1000\n");
  options.out = Output::pipe();
  options.subreaper = true;
  auto child = Child::spawn(options);
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_EQ(read_line(child->output().get()), "escaped");
  ASSERT_TRUE(within(std::chrono::seconds(10), [] { return count_marked(marker()) == 2; }));
  child->terminate(milliseconds(100));
  EXPECT_EQ(count_marked(marker()), 0) << "what escaped its group is still running";
  EXPECT_TRUE(gone(child->pid()));
}

TEST(Child, DestroyedRunningItLeavesNoProcessAndNoZombie) {
  pid_t pid = -1;
  {
    auto child = Child::spawn(bash("(exec -a \"$0\" sleep 1000) &\nexec -a \"$0\" sleep 1000\n"));
    ASSERT_TRUE(child) << child.error().message;
    pid = child->pid();
    ASSERT_TRUE(within(std::chrono::seconds(10), [] { return count_marked(marker()) == 2; }));
  }
  EXPECT_TRUE(gone(pid)) << "the child is running or a zombie";
  // Its background job, killed with its group, may take a moment to be gone.
  EXPECT_TRUE(within(std::chrono::seconds(5), [] { return count_marked(marker()) == 0; }));
}

TEST(Child, EndingTheGroupAtExitKillsWhatItLeftThere) {
  auto options = bash("(exec -a \"$0\" sleep 1000) &\necho $!\n");
  options.out = Output::pipe();
  options.end_group_at_exit = true;
  auto child = Child::spawn(options);
  ASSERT_TRUE(child) << child.error().message;
  const pid_t left = static_cast<pid_t>(std::stol(read_line(child->output().get())));
  ASSERT_TRUE(child->wait_until(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status()->code, 0);
  EXPECT_TRUE(within(std::chrono::seconds(5), [left] { return !running(left); }))
      << "its background job outlived it";
}

}  // namespace
}  // namespace reviewer::exec
