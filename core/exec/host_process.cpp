#include "core/exec/host_process.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/unique_fd.h"

extern char** environ;

namespace reviewer::exec {
namespace {

util::Refusal failure(const std::vector<std::string>& argv, const std::string& why) {
  return util::Refusal{"host-command", command_line(argv) + ": " + why, std::nullopt};
}

// A host command: found on PATH, with the host's environment and `extra_env`, stderr discarded
// when `quiet`.
exec::ChildOptions command_options(const std::vector<std::string>& argv, exec::Output out,
                                   bool quiet, const std::vector<std::string>& extra_env) {
  exec::ChildOptions options;
  options.argv = argv;
  options.search_path = true;
  for (char** e = environ; *e != nullptr; ++e) {
    options.env.emplace_back(*e);
  }
  options.env.insert(options.env.end(), extra_env.begin(), extra_env.end());
  options.out = out;
  if (quiet) {
    options.err = exec::Output::discard();
  }
  return options;
}

util::Result<exec::Child> start(const std::vector<std::string>& argv,
                                const exec::ChildOptions& options) {
  auto child = exec::Child::spawn(options);
  if (!child) {
    return failure(argv, "cannot start: " + child.error().message);
  }
  return child;
}

// Waits for `child`; past `limit` kills its process group and, as a subreaper, what it left.
Exit wait_for(exec::Child& child, const std::optional<std::chrono::milliseconds>& limit) {
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit
                              : std::chrono::steady_clock::time_point::max();
  if (child.wait_until(deadline)) {
    return {child.exit_status()->shell_status(), false};
  }
  return {child.terminate(std::chrono::milliseconds(0)).shell_status(), true};
}

// The last non-empty line of `text`.
std::string last_line_of(std::string text) {
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  const auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

// wait_for, copying what `child` writes to its output pipe to the host's stdout meanwhile and
// keeping its last line. After the command ends, only what is already in the pipe is read: a
// process it left holding the pipe cannot hold the host.
Exit wait_teeing(exec::Child& child, const std::optional<std::chrono::milliseconds>& limit,
                 std::string& last_line) {
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit
                              : std::chrono::steady_clock::time_point::max();
  const int read_fd = child.output().get();
  std::string tail;
  bool open = true;
  auto pump = [&](int timeout_ms) {
    pollfd p{read_fd, POLLIN, 0};
    while (open && ::poll(&p, 1, timeout_ms) > 0) {
      char buf[16384];
      const ssize_t n = ::read(read_fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        open = n < 0 && errno == EAGAIN;
        return;
      }
      for (ssize_t done = 0; done < n;) {
        const ssize_t w = ::write(1, buf + done, static_cast<std::size_t>(n - done));
        if (w <= 0 && errno != EINTR) {
          break;
        }
        done += w > 0 ? w : 0;
      }
      tail.append(buf, static_cast<std::size_t>(n));
      if (tail.size() > 65536) {
        tail.erase(0, tail.size() - 65536);
      }
      timeout_ms = 0;
    }
  };
  Exit out;
  for (;;) {
    if (open) {
      pump(20);
    } else {
      child.wait_until(deadline);
    }
    if (child.poll()) {
      out = {child.exit_status()->shell_status(), false};
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      out = {child.terminate(std::chrono::milliseconds(0)).shell_status(), true};
      break;
    }
  }
  ::fcntl(read_fd, F_SETFL, ::fcntl(read_fd, F_GETFL) | O_NONBLOCK);
  pump(0);
  last_line = last_line_of(tail);
  return out;
}

}  // namespace

util::Result<exec::Child> start_command(const std::vector<std::string>& argv, int out_fd,
                                        bool quiet, const std::vector<std::string>& extra_env) {
  const auto out = out_fd >= 0 ? exec::Output::to_fd(out_fd) : exec::Output::inherit();
  return start(argv, command_options(argv, out, quiet, extra_env));
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) {
      out += ' ';
    }
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                         "qrstuvwxyz0123456789_./=:@-") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return out;
}

util::Result<Exit> run_command(const std::vector<std::string>& argv,
                               const CommandOptions& options) {
  util::UniqueFd out;
  if (!options.stdout_file.empty()) {
    out = util::UniqueFd(::open(options.stdout_file.c_str(),
                                O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!out.valid()) {
      return failure(argv, "cannot write " + options.stdout_file + ": " + std::strerror(errno));
    }
  }
  const bool tee = options.last_line != nullptr && !out.valid();
  auto child_options = command_options(argv,
                                       tee           ? exec::Output::pipe()
                                       : out.valid() ? exec::Output::to_fd(out.get())
                                                     : exec::Output::inherit(),
                                       options.quiet_stderr, options.extra_env);
  // What a limited command leaves behind when killed is re-parented to the host, not to init,
  // so the host can end it.
  child_options.subreaper = options.limit.has_value();
  auto child = start(argv, child_options);
  if (!child) {
    return child.refusals();
  }
  if (tee) {
    return wait_teeing(*child, options.limit, *options.last_line);
  }
  return wait_for(*child, options.limit);
}

util::Result<std::string> command_output(const std::vector<std::string>& argv,
                                         std::size_t max_bytes) {
  auto child = start(argv, command_options(argv, exec::Output::pipe(), true, {}));
  if (!child) {
    return child.refusals();
  }
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(child->output().get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      child->terminate(std::chrono::milliseconds(0));
      return failure(argv, "printed more than " + std::to_string(max_bytes) + " bytes");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  child->output().reset();
  const Exit exit = wait_for(*child, std::nullopt);
  if (exit.status != 0) {
    return failure(argv, "exited with status " + std::to_string(exit.status));
  }
  return text;
}

}  // namespace reviewer::exec
