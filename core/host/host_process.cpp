#include "core/host/host_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/util/unique_fd.h"

extern char** environ;

namespace reviewer::host {
namespace {

util::Refusal failure(const std::vector<std::string>& argv, const std::string& why) {
  return util::Refusal{"host-command", command_line(argv) + ": " + why, std::nullopt};
}

int status_of(int wstatus) {
  if (WIFEXITED(wstatus)) {
    return WEXITSTATUS(wstatus);
  }
  return 128 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
}

// The host's children now: the commands it started and, as a subreaper, whatever they left
// behind when they died.
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  std::error_code ec;
  // An orphan is re-parented to any live thread of the subreaper: every task's list counts.
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (pid_t p = 0; in >> p;) {
      out.push_back(p);
    }
  }
  return out;
}

// Kills and reaps every process left below the host: a command killed at its limit may leave
// descendants outside its process group (a stopped nsenter's child, a sandbox's PID 1); as the
// subreaper the host inherits them and ends them. Whichever ends first is reaped first: a PID
// namespace's init does not finish exiting until every process of its namespace is reaped, and
// one re-parented here (the launcher, nsenter's child) only the host can reap, so waiting for a
// given pid could wait for ever. Bounded: a process that will not die within 30 s is left.
void reap_leftovers() {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < give_up) {
    const std::vector<pid_t> left = children();
    if (left.empty()) {
      return;
    }
    for (pid_t p : left) {
      ::kill(p, SIGKILL);
    }
    while (::waitpid(-1, nullptr, WNOHANG | __WALL) > 0) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Waits for `pid`; past `limit` kills its process group, reaps it and whatever it left.
Exit wait_for(pid_t pid, const std::optional<std::chrono::milliseconds>& limit) {
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit
                              : std::chrono::steady_clock::time_point::max();
  int wstatus = 0;
  for (;;) {
    const pid_t got = waitpid(pid, &wstatus, limit ? WNOHANG : 0);
    if (got == pid) {
      return {status_of(wstatus), false};
    }
    if (got < 0 && errno != EINTR) {
      return {128, false};
    }
    if (limit && std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
      }
      reap_leftovers();
      return {status_of(wstatus), true};
    }
    if (limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

// The last non-empty line of `text`.
std::string last_line_of(std::string text) {
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  const auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

// wait_for, copying what `pid` writes to `read_fd` to the host's stdout meanwhile and keeping its
// last line. After the command ends, only what is already in the pipe is read: a process it left
// holding the pipe cannot hold the host.
Exit wait_teeing(pid_t pid, int read_fd, const std::optional<std::chrono::milliseconds>& limit,
                 std::string& last_line) {
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit
                              : std::chrono::steady_clock::time_point::max();
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
  int wstatus = 0;
  Exit out;
  for (;;) {
    if (open) {
      pump(20);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const pid_t got = waitpid(pid, &wstatus, WNOHANG);
    if (got == pid) {
      out = {status_of(wstatus), false};
      break;
    }
    if (got < 0 && errno != EINTR) {
      out = {128, false};
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
      }
      reap_leftovers();
      out = {status_of(wstatus), true};
      break;
    }
  }
  ::fcntl(read_fd, F_SETFL, ::fcntl(read_fd, F_GETFL) | O_NONBLOCK);
  pump(0);
  last_line = last_line_of(tail);
  return out;
}

}  // namespace

// posix_spawnp with stdin from /dev/null, stdout to `out_fd` when >= 0, stderr to /dev/null when
// `quiet`, and a process group of its own so a timeout can end everything it started.
util::Result<pid_t> start_command(const std::vector<std::string>& argv, int out_fd, bool quiet,
                                  const std::vector<std::string>& extra_env) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));  // posix_spawn's signature, not a write
  }
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (out_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  }
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  // The host blocks the signals it handles (interruption.h); a command starts with none blocked
  // and their default actions.
  sigset_t none;
  sigset_t handled;
  sigemptyset(&none);
  sigemptyset(&handled);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    sigaddset(&handled, sig);
  }
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &handled);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    env.push_back(*e);
  }
  for (const auto& e : extra_env) {
    env.push_back(const_cast<char*>(e.c_str()));  // posix_spawn's signature, not a write
  }
  env.push_back(nullptr);
  const int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return failure(argv, std::string("cannot start: ") + std::strerror(rc));
  }
  return pid;
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
  if (options.limit) {
    // What a limited command leaves behind when killed is re-parented to the host, not to init,
    // so the host can end it (reap_leftovers).
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  }
  if (options.last_line != nullptr && !out.valid()) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      return failure(argv, std::string("pipe: ") + std::strerror(errno));
    }
    util::UniqueFd read_end(fds[0]);
    util::UniqueFd write_end(fds[1]);
    auto pid = start_command(argv, write_end.get(), options.quiet_stderr, options.extra_env);
    write_end.reset();
    if (!pid) {
      return pid.error();
    }
    return wait_teeing(*pid, read_end.get(), options.limit, *options.last_line);
  }
  auto pid = start_command(argv, out.get(), options.quiet_stderr, options.extra_env);
  if (!pid) {
    return pid.error();
  }
  return wait_for(*pid, options.limit);
}

util::Result<std::string> command_output(const std::vector<std::string>& argv,
                                         std::size_t max_bytes) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return failure(argv, std::string("pipe: ") + std::strerror(errno));
  }
  util::UniqueFd read_end(fds[0]);
  util::UniqueFd write_end(fds[1]);
  auto pid = start_command(argv, write_end.get(), true);
  write_end.reset();
  if (!pid) {
    return pid.error();
  }
  std::string text;
  bool too_long = false;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(read_end.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      too_long = true;
      kill(-*pid, SIGKILL);
      break;
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  read_end.reset();
  const Exit exit = wait_for(*pid, std::nullopt);
  if (too_long) {
    return failure(argv, "printed more than " + std::to_string(max_bytes) + " bytes");
  }
  if (exit.status != 0) {
    return failure(argv, "exited with status " + std::to_string(exit.status));
  }
  return text;
}

}  // namespace reviewer::host
