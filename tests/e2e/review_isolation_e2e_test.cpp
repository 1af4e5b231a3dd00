// The isolation issue's finding 1: the steps' user was host uid 1000, the uid of a real host
// account and of every other review. A host process of that uid (a leftover of another review)
// wrote into a running review's worktree through /proc/PID/root and could kill its steps, and
// RLIMIT_NPROC counted every review's processes together, so one review holding processes made
// another's forks fail. Now each sandbox has a user namespace of its own: inside, the steps' user
// is still 1000; on the host it is an id of a range no account and no other live review holds.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The host PID of the process whose command line holds `marker`; 0 when none does (yet).
pid_t find_process(const std::string& marker) {
  DIR* proc = ::opendir("/proc");
  pid_t found = 0;
  for (dirent* e = ::readdir(proc); e != nullptr && found == 0; e = ::readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
    if (pid <= 0) {
      continue;
    }
    // Read with read(2): a process that ends meanwhile fails the read with ESRCH, which a stream
    // would throw.
    const int fd = ::open(("/proc/" + std::string(e->d_name) + "/cmdline").c_str(), O_RDONLY);
    if (fd < 0) {
      continue;
    }
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    ::close(fd);
    if (n > 0 && std::string(buf, static_cast<std::size_t>(n)).find(marker) != std::string::npos) {
      found = pid;
    }
  }
  ::closedir(proc);
  return found;
}

TEST_F(LauncherE2E, ConcurrentReviewsAndHostUsersCannotReachEachOther) {
  const std::string marker = "reviewer-victim-" + std::to_string(::getpid());
  // Review A: a step holds 60 processes for a while, then says whether its worktree was touched.
  ExampleRepo a;
  a.write(".github/workflows/ci.yml",
          workflow(job("test",
                       "      - run: |\n"
                       "          for i in $(seq 60); do sleep 14 & done\n"
                       "          bash -c 'exec -a " +
                           marker +
                           " sleep 14' &\n"
                           "          sleep 12\n"
                           "          if test -e /workspace/tampered; then echo A-TAMPERED; "
                           "else echo A-untouched; fi\n"
                           "          wait\n")));
  a.clone();
  // Review B, at the same time: its own process limit of 50, which A's 60 must not count against.
  ExampleRepo b;
  b.write(".github/workflows/ci.yml",
          workflow(job("test",
                       "      - run: |\n"
                       "          ulimit -u 50\n"
                       "          for i in $(seq 10); do sleep 0.2 & done\n"
                       "          wait && echo B-forked\n")));
  b.clone();
  auto review_a = std::async(std::launch::async, [&] { return run_launcher(a.workspace()); });
  pid_t victim = 0;
  for (int i = 0; i < 200 && victim == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    victim = find_process(marker);
  }
  ASSERT_NE(victim, 0) << "review A's step never started";
  // B runs whole while A holds its processes.
  const RunResult rb = run_launcher(b.workspace());
  EXPECT_THAT(rb.output, Not(HasSubstr("Resource temporarily unavailable"))) << rb.output;
  EXPECT_THAT(rb.output, HasSubstr("B-forked")) << rb.output;
  EXPECT_EQ(rb.last_line(), "review-build-ok") << rb.output;
  // A's step is nobody's on the host: an id of its own range, not 1000.
  struct stat st {};
  ASSERT_EQ(::stat(("/proc/" + std::to_string(victim)).c_str(), &st), 0)
      << "review A's step ended early";
  EXPECT_GE(st.st_uid, 65536u) << "review A's step runs as host uid " << st.st_uid;
  // A host process of uid 1000 (what the steps' user was) tries A's worktree and A's step.
  const auto attack =
      run_command("setpriv --reuid 1000 --regid 1000 --clear-groups sh -c 'echo x > /proc/" +
                  std::to_string(victim) + "/root/workspace/tampered && echo WROTE; kill -9 " +
                  std::to_string(victim) + " && echo KILLED' 2>&1");
  EXPECT_THAT(attack.output, Not(HasSubstr("WROTE")));
  EXPECT_THAT(attack.output, Not(HasSubstr("KILLED")));
  const RunResult ra = review_a.get();
  EXPECT_THAT(ra.output, HasSubstr("A-untouched")) << ra.output;
  EXPECT_EQ(ra.last_line(), "review-build-ok") << ra.output;
}

}  // namespace
}  // namespace reviewer::e2e
