#include "core/exec/child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/exec/kill_children.h"
#include "core/exec/poll_timeout.h"
#include "core/exec/spawn_attributes.h"
#include "core/util/check.h"

namespace reviewer::exec {
namespace {

using Clock = Child::Clock;

// What a subreaper gives its child's leftovers to end before it stops waiting for them: a
// process that will not die by then (stuck in the kernel) is left.
constexpr std::chrono::seconds kLeftoversGiveUp{30};

std::vector<char*> c_strings(const std::vector<std::string>& words) {
  std::vector<char*> out;
  out.reserve(words.size() + 1);
  for (const auto& w : words) {
    out.push_back(const_cast<char*>(w.c_str()));  // posix_spawn's signature, not a write
  }
  out.push_back(nullptr);
  return out;
}

}  // namespace

util::Result<Child> Child::spawn(const ChildOptions& options) {
  REVIEWER_CHECK(!options.argv.empty());
  util::UniqueFd read_end;
  util::UniqueFd write_end;
  if (options.out.to == Output::To::kPipe || options.err.to == Output::To::kPipe) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      return util::refusal("io-error", std::string("pipe: ") + std::strerror(errno));
    }
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
  }
  // Set before the spawn, so that not even what the child leaves at once escapes to init.
  if (options.subreaper && ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return util::refusal("io-error",
                         std::string("cannot become a child subreaper: ") + std::strerror(errno));
  }
  SpawnAttributes attributes(options, write_end.get());
  const auto argv = c_strings(options.argv);
  const auto envp = c_strings(options.env);
  pid_t pid = -1;
  const int rc = (options.search_path ? ::posix_spawnp : ::posix_spawn)(
      &pid, argv[0], attributes.actions(), attributes.attr(), argv.data(), envp.data());
  if (rc != 0) {
    return util::refusal("io-error", options.argv[0] + ": " + std::strerror(rc));
  }
  return Child(pid, std::move(read_end), options);
}

Child::Child(pid_t pid, util::UniqueFd output, const ChildOptions& options)
    : pid_(pid),
      output_(std::move(output)),
      // Race-free while it is not reaped: its pid cannot name another process before then. glibc
      // 2.36 declares pidfd_open without C linkage (sys/pidfd.h), so the system call.
      exited_(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))),
      end_group_at_exit_(options.end_group_at_exit),
      subreaper_(options.subreaper) {}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      output_(std::move(other.output_)),
      exited_(std::move(other.exited_)),
      end_group_at_exit_(other.end_group_at_exit_),
      subreaper_(other.subreaper_),
      exit_(std::exchange(other.exit_, std::nullopt)),
      stages_(std::move(other.stages_)),
      next_stage_(other.next_stage_),
      stage_due_(other.stage_due_) {}

Child::~Child() {
  if (pid_ > 0) {
    (void)terminate(std::chrono::milliseconds(0));
  }
}

void Child::record(int wait_status) {
  ExitStatus status;
  if (WIFEXITED(wait_status)) {
    status.code = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    status.signal = WTERMSIG(wait_status);
  }
  exit_ = status;
}

bool Child::reap(int options) {
  if (exit_) {
    return true;
  }
  if (end_group_at_exit_) {
    siginfo_t info{};
    int r = 0;
    do {
      r = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT | options);
    } while (r < 0 && errno == EINTR);
    if (r == 0 && info.si_pid != pid_) {
      return false;  // WNOHANG, and it is still running
    }
    if (r == 0) {
      ::kill(-pid_, SIGKILL);
    }
  }
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, options);
    if (r == pid_) {
      record(status);
      return true;
    }
    if (r == 0) {
      return false;
    }
    if (errno != EINTR) {
      exit_ = ExitStatus{};  // someone else in this process reaped it: its end is not known
      return true;
    }
  }
}

bool Child::poll() { return reap(WNOHANG); }

bool Child::poll_with_orphans() {
  REVIEWER_CHECK(!end_group_at_exit_);
  if (!exit_) {
    reap_ended_children([this](pid_t pid, int status) {
      if (pid == pid_) {
        record(status);
      }
    });
  }
  return poll();
}

bool Child::wait_until(Clock::time_point deadline) {
  for (;;) {
    if (poll()) {
      return true;
    }
    const int timeout = poll_timeout_ms(deadline);
    if (timeout == 0) {
      return false;
    }
    if (exited_.valid()) {
      pollfd p{exited_.get(), POLLIN, 0};
      ::poll(&p, 1, timeout);
    } else {
      ::usleep(1000);  // a kernel without pidfds (before 5.3)
    }
  }
}

void Child::begin_kill(std::vector<KillStage> stages) {
  stages_ = std::move(stages);
  next_stage_ = 0;
  stage_due_ = Clock::now();
  continue_kill();
}

Clock::time_point Child::next_kill() const {
  return next_stage_ < stages_.size() ? stage_due_ : Clock::time_point::max();
}

void Child::continue_kill() {
  // Once it is reaped its group's id may name another group: nothing more is sent.
  if (exit_ || next_stage_ >= stages_.size() || Clock::now() < stage_due_) {
    return;
  }
  const KillStage& stage = stages_[next_stage_++];
  ::kill(-pid_, stage.signal);
  stage_due_ = Clock::now() + stage.grace;
}

ExitStatus Child::terminate(std::chrono::milliseconds grace) {
  if (!poll()) {
    if (grace.count() > 0) {
      begin_kill({{SIGTERM, grace}, {SIGKILL, std::chrono::milliseconds(0)}});
    } else {
      begin_kill({{SIGKILL, std::chrono::milliseconds(0)}});
    }
    while (next_kill() != Clock::time_point::max() && !wait_until(next_kill())) {
      continue_kill();
    }
    if (subreaper_) {
      // Its leftovers, and it too when it is a namespace's init that ends only once they do.
      kill_children(Clock::now() + kLeftoversGiveUp, [this](pid_t pid, int status) {
        if (pid == pid_) {
          record(status);
        }
      });
    }
    reap(0);
  }
  return *exit_;
}

}  // namespace reviewer::exec
