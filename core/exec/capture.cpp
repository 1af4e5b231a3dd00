#include "core/exec/capture.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include "core/util/check.h"
#include "core/util/unique_fd.h"

namespace reviewer::exec {
namespace {

// Reaps `pid` if it exits before `deadline`. The wait wakes when it exits (a pidfd polls
// readable then): its stdout closes a moment before it can be reaped, and a waitpid polled
// every millisecond made node's `--version` answer a millisecond later, most of the time.
bool reap_by(pid_t pid, std::chrono::steady_clock::time_point deadline, int& status) {
  // glibc 2.36 declares pidfd_open without C linkage (its sys/pidfd.h), so the system call.
  const util::UniqueFd exited(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      return true;
    }
    if (r < 0 && errno != EINTR) {
      return false;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      return false;
    }
    if (exited.valid()) {
      pollfd p{exited.get(), POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(left));
    } else {
      ::usleep(1000);  // a kernel without pidfds (before 5.3)
    }
  }
}

// Kills `pid`'s group, then reaps `pid` unless it was.
void kill_group(pid_t pid, bool reaped, int& status) {
  ::kill(-pid, SIGKILL);
  while (!reaped && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

util::Result<StartedCapture> start_capture(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& env,
                                           std::size_t max_bytes) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return util::refusal("io-error", "pipe failed");
  }
  util::UniqueFd rd(fds[0]);
  util::UniqueFd wr(fds[1]);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, wr.get(), 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  std::vector<char*> a;
  for (const auto& s : argv) {
    a.push_back(const_cast<char*>(s.c_str()));
  }
  a.push_back(nullptr);
  std::vector<char*> e;
  for (const auto& s : env) {
    e.push_back(const_cast<char*>(s.c_str()));
  }
  e.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv[0].c_str(), &fa, &attr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  wr.reset();
  if (rc != 0) {
    return util::refusal("io-error", argv[0] + ": " + std::strerror(rc));
  }
  return StartedCapture(pid, std::move(rd), argv[0], max_bytes);
}

StartedCapture::StartedCapture(pid_t pid, util::UniqueFd out, std::string name,
                               std::size_t max_bytes)
    : pid_(pid),
      out_(std::move(out)),
      name_(std::move(name)),
      max_bytes_(max_bytes),
      deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(10)) {}

StartedCapture::StartedCapture(StartedCapture&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      out_(std::move(o.out_)),
      name_(std::move(o.name_)),
      max_bytes_(o.max_bytes_),
      deadline_(o.deadline_) {}

StartedCapture::~StartedCapture() {
  if (pid_ > 0) {
    int status = 0;
    kill_group(pid_, false, status);
  }
}

util::Result<std::string> StartedCapture::finish() {
  REVIEWER_CHECK(pid_ > 0);
  const pid_t pid = std::exchange(pid_, -1);
  const auto deadline = deadline_;

  std::string out;
  char buf[1024];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      break;
    }
    pollfd p{out_.get(), POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) {
      break;
    }
    ssize_t n = ::read(out_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    if (out.size() < max_bytes_) {
      out.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), max_bytes_ - out.size()));
    }
  }
  // Its stdout closed is not its exit: GNU tar closes stdout (gnulib's close_stdout) and then
  // waits for its gzip; killed in between, a tool that succeeded would read as failed. Wait for
  // the exit until the deadline, then kill the group: the tool, if it hangs, and whatever it
  // left behind.
  int status = 0;
  const bool reaped = reap_by(pid, deadline, status);
  kill_group(pid, reaped, status);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return util::refusal("io-error", name_ + " did not exit 0");
  }
  return out;
}

util::Result<std::string> capture_output(const std::vector<std::string>& argv,
                                         const std::vector<std::string>& env,
                                         std::size_t max_bytes) {
  auto started = start_capture(argv, env, max_bytes);
  if (!started) {
    return started.refusals();
  }
  return started->finish();
}

}  // namespace reviewer::exec
