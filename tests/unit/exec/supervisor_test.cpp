// The supervisor with real bash: CI's two shell modes, sessions, stdin, deadlines and the kill
// sequence, the launcher's own interruption, descriptor hygiene and a 1 GiB flood.
#include "core/exec/supervisor.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "tests/unit/exec/bash_steps.h"

namespace reviewer::exec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Scratch;

constexpr KillPolicy kQuick{std::chrono::milliseconds(150), std::chrono::milliseconds(150)};

TEST(Supervisor, StreamsOutputLineByLineWithTheStepLabel) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  auto r = sup.run(s.step("echo one\necho two >&2\nprintf partial\n"));
  EXPECT_TRUE(r.success());
  EXPECT_EQ(s.log(), "[step] one\n[step] two\n[step] partial\n");
}

TEST(Supervisor, DefaultShellLetsAFailedPipelineStagePassButPipefailDoesNot) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  const std::string script = "false | true\necho after\n";
  auto plain = sup.run(s.step(script, /*pipefail=*/false));
  EXPECT_TRUE(plain.success());
  auto strict = sup.run(s.step(script, /*pipefail=*/true));
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(s.log(), "[step] after\n");
}

TEST(Supervisor, ErrexitStopsAtTheFirstFailingCommand) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  auto r = sup.run(s.step("echo before\nexit 7\necho never\n"));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_FALSE(r.success());
  EXPECT_THAT(s.log(), Not(HasSubstr("never")));
}

TEST(Supervisor, StdinIsDevNullAndTheStepHasItsOwnSessionAndGroup) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  auto r =
      sup.run(s.step("if read -r x; then echo got-input; else echo stdin-eof; fi\n"
                     "read -r pid comm state ppid pgrp session rest < /proc/$$/stat\n"
                     "[ \"$pgrp\" = \"$$\" ] && [ \"$session\" = \"$$\" ] && echo own-session\n"));
  EXPECT_TRUE(r.success());
  EXPECT_EQ(s.log(), "[step] stdin-eof\n[step] own-session\n");
}

TEST(Supervisor, NoDescriptorOfTheLauncherLeaksIntoAStep) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  // bash keeps the script open on fd 255; anything else would be ours (or inherited by us: the
  // test runner itself may hold descriptors without O_CLOEXEC, and those must not pass either).
  // ls runs in a child; the redirection is opened there, so only bash's own descriptors show.
  auto r = sup.run(s.step("ls /proc/$$/fd > \"$HOME/fds\"\ntr '\\n' ' ' < \"$HOME/fds\"\n"));
  EXPECT_TRUE(r.success());
  EXPECT_EQ(s.log(), "[step] 0 1 2 255 \n");
}

TEST(Supervisor, TheEnvironmentIsExactlyWhatTheSpecSays) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  ::setenv("REVIEWER_TEST_LEAK", "from-launcher", 1);
  auto spec = s.step("env | sort | grep -v '^_=' | grep -v '^PWD=' | grep -v '^SHLVL='\n");
  spec.env.push_back("ONLY=this");
  auto r = sup.run(spec);
  ::unsetenv("REVIEWER_TEST_LEAK");
  EXPECT_TRUE(r.success());
  EXPECT_EQ(s.log(), "[step] HOME=" + s.dir() + "\n[step] ONLY=this\n" +
                         "[step] PATH=/usr/local/bin:/usr/bin:/bin\n");
}

TEST(Supervisor, ADeadlineRunsTheKillSequenceAndNamesTheLimit) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  auto spec = s.step(
      "trap 'echo got-INT' INT\ntrap 'echo got-TERM' TERM\n"
      "while :; do sleep 0.02 || true; done\n");
  spec.deadline = Clock::now() + std::chrono::milliseconds(200);
  spec.deadline_reason = "step timeout-minutes: 1";
  auto started = Clock::now();
  auto r = sup.run(spec);
  auto took = Clock::now() - started;
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.success());
  EXPECT_EQ(r.signal, SIGKILL) << "the step ignored INT and TERM, so only KILL ends it";
  EXPECT_EQ(r.deadline_reason, "step timeout-minutes: 1");
  EXPECT_THAT(s.log(), HasSubstr("got-INT"));
  EXPECT_THAT(s.log(), HasSubstr("got-TERM"));
  EXPECT_LT(s.log().find("got-INT"), s.log().find("got-TERM"));
  EXPECT_LT(took, std::chrono::seconds(3));
}

TEST(Supervisor, AStepThatHonoursSigintEndsAtTheFirstSignal) {
  Scratch s;
  Supervisor sup(s.log_fd(), KillPolicy{std::chrono::seconds(30), std::chrono::seconds(30)});
  auto spec = s.step("sleep 30\n");
  spec.deadline = Clock::now() + std::chrono::milliseconds(100);
  auto started = Clock::now();
  auto r = sup.run(spec);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGINT);
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
}

TEST(Supervisor, TheLaunchersOwnSigtermEndsTheStepAsInterrupted) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  std::thread killer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(::getpid(), SIGTERM);
  });
  auto started = Clock::now();
  auto r = sup.run(s.step("trap '' TERM INT\nsleep 30\n"));
  killer.join();
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.success());
  EXPECT_TRUE(sup.interrupted());
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
}

TEST(Supervisor, AMissingInterpreterIsASpawnErrorNotACrash) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  auto spec = s.step("true\n");
  spec.argv[0] = "/nonexistent/bash";
  auto r = sup.run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_THAT(r.spawn_error, HasSubstr("/nonexistent/bash"));
}

long max_rss_kib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(Supervisor, AGibibyteOfOutputLeavesMemoryFlat) {
  Scratch s;
  int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  Supervisor sup(devnull, kQuick);
  long before = max_rss_kib();
  // 1 GiB in all: 512 MiB of 80-column lines, 512 MiB without a single newline.
  auto lines = sup.run(s.step("yes \"$(printf '%079d' 0)\" | head -c 536870912\n"));
  auto blob = sup.run(s.step("head -c 536870912 /dev/zero\n"));
  long grown = max_rss_kib() - before;
  ::close(devnull);
  EXPECT_TRUE(lines.success());
  EXPECT_TRUE(blob.success());
  RecordProperty("rss_growth_kib", std::to_string(grown));
  EXPECT_LT(grown, 8 * 1024) << "peak RSS grew by " << grown << " KiB";
}

}  // namespace
}  // namespace reviewer::exec
