#include "core/exec/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "core/exec/line_writer.h"
#include "core/util/check.h"

namespace reviewer::exec {
namespace {

sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

int poll_timeout_ms(Clock::time_point until) {
  if (until == Clock::time_point::max()) {
    return -1;
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
  if (left <= 0) {
    return 0;
  }
  return static_cast<int>(std::min<long long>(left + 1, 60'000));
}

// Spawn attributes every step gets: a new session (so a new process group), default signal
// dispositions and an empty signal mask (the launcher's blocked set must not leak into steps).
class SpawnAttr {
 public:
  SpawnAttr() {
    REVIEWER_CHECK(posix_spawnattr_init(&attr_) == 0);
    sigset_t empty;
    sigemptyset(&empty);
    sigset_t defaults;
    sigfillset(&defaults);
    sigdelset(&defaults, SIGKILL);
    sigdelset(&defaults, SIGSTOP);
    posix_spawnattr_setsigmask(&attr_, &empty);
    posix_spawnattr_setsigdefault(&attr_, &defaults);
    posix_spawnattr_setflags(&attr_,
                             POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  ~SpawnAttr() { posix_spawnattr_destroy(&attr_); }
  SpawnAttr(const SpawnAttr&) = delete;
  SpawnAttr& operator=(const SpawnAttr&) = delete;
  const posix_spawnattr_t* get() const { return &attr_; }

 private:
  posix_spawnattr_t attr_{};
};

class FileActions {
 public:
  FileActions() { REVIEWER_CHECK(posix_spawn_file_actions_init(&fa_) == 0); }
  ~FileActions() { posix_spawn_file_actions_destroy(&fa_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &fa_; }

 private:
  posix_spawn_file_actions_t fa_{};
};

}  // namespace

Supervisor::Supervisor(int log_fd, KillPolicy policy) : log_fd_(log_fd), policy_(policy) {
  // Orphans of a step re-parent to us instead of the namespace's init, so we can find and kill
  // them when the job ends.
  REVIEWER_CHECK(::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0);
  sigset_t set = handled_signals();
  REVIEWER_CHECK(::sigprocmask(SIG_BLOCK, &set, nullptr) == 0);
  signal_fd_.reset(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
  REVIEWER_CHECK(signal_fd_.valid());
}

Supervisor::~Supervisor() {
  kill_leftovers();
  sigset_t set = handled_signals();
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

void Supervisor::read_signals() {
  signalfd_siginfo info{};
  while (::read(signal_fd_.get(), &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo == SIGINT || info.ssi_signo == SIGTERM) {
      interrupted_ = true;
    }
  }
}

bool Supervisor::interrupted() {
  read_signals();
  return interrupted_;
}

void Supervisor::drain_signals(pid_t child, bool& child_done, int& status) {
  read_signals();
  // Reap the step and any orphan that has already exited; leftovers still running are killed
  // when the job ends.
  for (;;) {
    int st = 0;
    pid_t p = ::waitpid(-1, &st, WNOHANG);
    if (p <= 0) {
      break;
    }
    if (p == child) {
      child_done = true;
      status = st;
    }
  }
}

StepResult Supervisor::run(const StepSpec& spec) {
  StepResult result;
  result.deadline_reason = spec.deadline_reason;
  REVIEWER_CHECK(!spec.argv.empty());
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  util::UniqueFd read_end(pipe_fds[0]);
  util::UniqueFd write_end(pipe_fds[1]);

  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(actions.get(), write_end.get(), 1);
  posix_spawn_file_actions_adddup2(actions.get(), write_end.get(), 2);
  // Every descriptor above stderr is closed in the child, including any the launcher itself
  // inherited without O_CLOEXEC from whoever started it.
  posix_spawn_file_actions_addclosefrom_np(actions.get(), 3);
  if (!spec.cwd.empty()) {
    posix_spawn_file_actions_addchdir_np(actions.get(), spec.cwd.c_str());
  }
  SpawnAttr attr;

  std::vector<char*> argv;
  for (const auto& a : spec.argv) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : spec.env) {
    envp.push_back(const_cast<char*>(e.c_str()));
  }
  envp.push_back(nullptr);

  pid_t child = 0;
  int rc = ::posix_spawn(&child, spec.argv[0].c_str(), actions.get(), attr.get(), argv.data(),
                         envp.data());
  write_end.reset();
  if (rc != 0) {
    result.spawn_error = spec.argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;
  ::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);

  LineWriter out(log_fd_, spec.label);
  bool child_done = false;
  int status = 0;
  // The kill sequence's next action and when it is due.
  enum class Phase { kRunning, kInterruptSent, kTermSent, kKillSent } phase = Phase::kRunning;
  // Clock::time_point::max() = nothing due (a plain value: g++ 12 -O3 misreads std::optional
  // of a time_point as maybe-uninitialized).
  Clock::time_point next_action = spec.deadline.value_or(Clock::time_point::max());
  std::array<char, 65536> buf{};

  auto escalate = [&]() {
    if (phase == Phase::kRunning) {
      ::kill(-child, SIGINT);
      phase = Phase::kInterruptSent;
      next_action = Clock::now() + policy_.interrupt_grace;
    } else if (phase == Phase::kInterruptSent) {
      ::kill(-child, SIGTERM);
      phase = Phase::kTermSent;
      next_action = Clock::now() + policy_.term_grace;
    } else {
      ::kill(-child, SIGKILL);
      phase = Phase::kKillSent;
      next_action = Clock::time_point::max();
    }
  };

  while (!child_done) {
    std::array<pollfd, 2> fds{
        {{read_end.valid() ? read_end.get() : -1, POLLIN, 0}, {signal_fd_.get(), POLLIN, 0}}};
    int n = ::poll(fds.data(), fds.size(), poll_timeout_ms(next_action));
    if (n < 0 && errno != EINTR) {
      break;
    }
    if (fds[0].revents != 0) {
      ssize_t got = ::read(read_end.get(), buf.data(), buf.size());
      if (got > 0) {
        out.feed(std::string_view(buf.data(), static_cast<std::size_t>(got)));
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        read_end.reset();  // every writer closed; keep waiting for the exit status
      }
    }
    if (fds[1].revents != 0) {
      bool was_interrupted = interrupted_;
      drain_signals(child, child_done, status);
      if (interrupted_ && !was_interrupted) {
        result.interrupted = true;
        phase = Phase::kTermSent;  // the launcher is going away: SIGKILL next, without waiting
        ::kill(-child, SIGTERM);
        next_action = Clock::now() + std::chrono::milliseconds(500);
      }
    }
    if (!child_done && Clock::now() >= next_action) {
      if (phase == Phase::kRunning) {
        result.timed_out = true;
      }
      escalate();
    }
  }
  // What the step's exit left in the pipe is still its output; background writers that keep
  // the pipe open are not waited for (they are killed when the job ends).
  if (read_end.valid()) {
    for (;;) {
      ssize_t got = ::read(read_end.get(), buf.data(), buf.size());
      if (got <= 0) {
        break;
      }
      out.feed(std::string_view(buf.data(), static_cast<std::size_t>(got)));
    }
  }
  out.flush();
  result.network_sign = out.network_sign();
  if (interrupted_) {
    result.interrupted = true;
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

std::vector<ProcessInfo> Supervisor::kill_leftovers() {
  std::vector<ProcessInfo> killed;
  const pid_t self = ::getpid();
  const pid_t own_group = ::getpgrp();
  // Each round kills what is parented to us now; killing a process re-parents its children to
  // us (we are the subreaper), so the next round finds them. A fork storm is bounded by
  // RLIMIT_NPROC and loses a generation every round.
  for (int round = 0; round < 100'000; ++round) {
    auto children = children_of(self);
    bool any_waitable = false;
    for (const auto& c : children) {
      if (c.pgid != own_group && c.pgid > 0) {
        ::kill(-c.pgid, SIGKILL);
      }
      ::kill(c.pid, SIGKILL);
      killed.push_back(c);
    }
    for (;;) {
      int st = 0;
      pid_t p = ::waitpid(-1, &st, WNOHANG);
      if (p > 0) {
        any_waitable = true;
        continue;
      }
      if (p < 0 && errno == EINTR) {
        continue;
      }
      if (p < 0 && errno == ECHILD) {
        break;  // no child at all left
      }
      // p == 0: children exist but none has exited yet; give them a moment.
      any_waitable = true;
      ::usleep(1000);
      break;
    }
    if (children.empty() && !any_waitable) {
      break;
    }
  }
  // Zombies we reaped in the same round were listed as killed too; report each pid once.
  std::sort(killed.begin(), killed.end(),
            [](const ProcessInfo& a, const ProcessInfo& b) { return a.pid < b.pid; });
  killed.erase(
      std::unique(killed.begin(), killed.end(),
                  [](const ProcessInfo& a, const ProcessInfo& b) { return a.pid == b.pid; }),
      killed.end());
  // Drain the SIGCHLDs the kills produced so the next step starts with an empty signalfd.
  read_signals();
  return killed;
}

}  // namespace reviewer::exec
