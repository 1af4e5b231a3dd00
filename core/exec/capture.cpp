#include "core/exec/capture.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

#include "core/exec/poll_timeout.h"
#include "core/util/check.h"

namespace reviewer::exec {

util::Result<StartedCapture> start_capture(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& env,
                                           std::size_t max_bytes) {
  ChildOptions options;
  options.argv = argv;
  options.env = env;
  options.out = Output::pipe();
  options.err = Output::discard();
  // What the tool leaves in its group (GNU tar's gzip) ends with it.
  options.end_group_at_exit = true;
  auto child = Child::spawn(options);
  if (!child) {
    return child.refusals();
  }
  return StartedCapture(std::move(*child), argv[0], max_bytes);
}

StartedCapture::StartedCapture(Child child, std::string name, std::size_t max_bytes)
    : child_(std::move(child)),
      name_(std::move(name)),
      max_bytes_(max_bytes),
      deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(10)) {}

util::Result<std::string> StartedCapture::finish() {
  REVIEWER_CHECK(!finished_);
  finished_ = true;

  std::string out;
  char buf[1024];
  for (;;) {
    const int timeout = poll_timeout_ms(deadline_);
    if (timeout == 0) {
      break;
    }
    pollfd p{child_.output().get(), POLLIN, 0};
    if (::poll(&p, 1, timeout) <= 0) {
      break;
    }
    ssize_t n = ::read(child_.output().get(), buf, sizeof buf);
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
  // left behind (end_group_at_exit).
  child_.wait_until(deadline_);
  if (child_.terminate(std::chrono::milliseconds(0)).code != 0) {
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
