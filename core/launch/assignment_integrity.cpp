#include "core/launch/assignment_integrity.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace reviewer::launch {

std::string IntegrityProbe::describe() const {
  if (!probed) {
    return "unknown (the probe could not run)";
  }
  if (is_protected()) {
    return "protected";
  }
  std::string which;
  if (mem_writable) {
    which = "/proc/1/mem writable";
  }
  if (ptrace_seize) {
    which += std::string(which.empty() ? "" : ", ") + "ptrace attach";
  }
  return "unprotected (" + which + ")";
}

namespace {

// The child's whole work: system calls only, as it shares the launcher's memory and stack frame.
int probe_pid1(void*) {
  int bits = 0;
  const int fd = ::open("/proc/1/mem", O_RDWR | O_CLOEXEC);
  if (fd >= 0) {
    bits |= 1;
    ::close(fd);
  }
  if (::ptrace(PTRACE_SEIZE, 1, nullptr, nullptr) == 0) {
    bits |= 2;
    ::ptrace(PTRACE_DETACH, 1, nullptr, nullptr);
  }
  ::_exit(bits);
}

}  // namespace

IntegrityProbe probe_assignment_integrity() {
  IntegrityProbe out;
  // A child sharing the launcher's memory until it exits (posix_spawn's own way), not a fork:
  // a fork copies the page tables and leaves every page the launcher writes afterwards to fault
  // once more, which measured 2.3 ms before the first step on a machine with costly faults.
  // The launcher waits in clone until the child is gone, so the child's stack can be here.
  alignas(16) char stack[16 * 1024];
  const pid_t child =
      ::clone(probe_pid1, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, nullptr);
  if (child < 0) {
    return out;
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    out.probed = true;
    out.mem_writable = (WEXITSTATUS(status) & 1) != 0;
    out.ptrace_seize = (WEXITSTATUS(status) & 2) != 0;
  }
  return out;
}

util::Status check_assignment_unchanged(const contract::Assignment& at_start,
                                        const InitEnvironment& init) {
  auto now = read_assignment(init);
  if (!now) {
    return util::refusal(
        "assignment-changed",
        "PID 1's environment can no longer be read as the assignment: " + now.error().message);
  }
  std::string what;
  auto differs = [&](const char* name, const std::string& a, const std::string& b) {
    if (a != b) {
      what += std::string(what.empty() ? "" : ", ") + name;
    }
  };
  differs("REVIEWER_CI_WORKFLOW", at_start.workflow, now->workflow);
  differs("REVIEWER_CI_JOB", at_start.job, now->job);
  differs("REVIEWER_CI_BASE", at_start.base, now->base);
  differs("REVIEWER_CI_MATRIX", at_start.matrix, now->matrix);
  differs("REVIEWER_CI_PINNED_ONLY", at_start.pinned_only ? "true" : "",
          now->pinned_only ? "true" : "");
  differs("REVIEWER_CI_SAME_REPOSITORY", at_start.same_repository ? "true" : "",
          now->same_repository ? "true" : "");
  differs("REVIEWER_CI_EVENT", at_start.event, now->event);
  if (!what.empty()) {
    return util::refusal("assignment-changed",
                         what +
                             " in PID 1's environment changed during the build: a step wrote "
                             "PID 1's memory");
  }
  return util::ok_status();
}

}  // namespace reviewer::launch
