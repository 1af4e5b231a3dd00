#include "core/exec/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "core/exec/child.h"
#include "core/exec/kill_children.h"
#include "core/exec/line_writer.h"
#include "core/exec/poll_timeout.h"
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

StepResult Supervisor::run(const StepSpec& spec) {
  StepResult result;
  result.deadline_reason = spec.deadline_reason;
  REVIEWER_CHECK(!spec.argv.empty());
  ChildOptions options;
  options.argv = spec.argv;
  options.env = spec.env;
  options.cwd = spec.cwd;
  options.new_session = true;
  options.out = Output::pipe();
  options.err = Output::pipe();
  auto child = Child::spawn(options);
  if (!child) {
    result.spawn_error = child.error().message;
    return result;
  }
  result.started = true;
  util::UniqueFd read_end = std::move(child->output());
  ::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);

  LineWriter out(log_fd_, spec.label);
  // Clock::time_point::max() = none (a plain value: g++ 12 -O3 misreads std::optional of a
  // time_point as maybe-uninitialized).
  const Clock::time_point deadline = spec.deadline.value_or(Clock::time_point::max());
  bool ending = false;  // a kill sequence has begun
  std::array<char, 65536> buf{};

  while (!child->exit_status()) {
    std::array<pollfd, 2> fds{
        {{read_end.valid() ? read_end.get() : -1, POLLIN, 0}, {signal_fd_.get(), POLLIN, 0}}};
    int n = ::poll(fds.data(), fds.size(), poll_timeout_ms(ending ? child->next_kill() : deadline));
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
      read_signals();
      // Reap the step and any orphan that has already exited; leftovers still running are
      // killed when the job ends.
      child->poll_with_orphans();
      if (interrupted_ && !was_interrupted) {
        result.interrupted = true;
        // The launcher is going away: SIGKILL next, without the step's graces.
        child->begin_kill({{SIGTERM, std::chrono::milliseconds(500)}, {SIGKILL, {}}});
        ending = true;
      }
    }
    if (!ending && !child->exit_status() && Clock::now() >= deadline) {
      result.timed_out = true;
      child->begin_kill(
          {{SIGINT, policy_.interrupt_grace}, {SIGTERM, policy_.term_grace}, {SIGKILL, {}}});
      ending = true;
    }
    child->continue_kill();
  }
  // Ended already, unless poll(2) itself failed: then it is killed now.
  const ExitStatus exit = child->terminate(std::chrono::milliseconds(0));
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
  result.exit_code = exit.code;
  result.signal = exit.signal;
  return result;
}

std::vector<ProcessInfo> Supervisor::kill_leftovers() {
  auto killed = kill_children();
  // Drain the SIGCHLDs the kills produced so the next step starts with an empty signalfd.
  read_signals();
  return killed;
}

}  // namespace reviewer::exec
