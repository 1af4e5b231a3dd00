#include "core/host/interruption.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <variant>

#include "core/exec/host_process.h"

namespace reviewer::host {
namespace {

using Removal = std::variant<std::vector<std::string>, std::string>;

struct HeldRemovals {
  std::mutex mutex;
  std::map<int, Removal> removals;
  int next = 1;
};

HeldRemovals& held() {
  static HeldRemovals h;
  return h;
}

sigset_t interruptions() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  return set;
}

// The host's children that have not exited yet (a zombie has; the main thread reaps it).
std::vector<pid_t> live_children() {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (pid_t p = 0; in >> p;) {
      std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
      const std::string text((std::istreambuf_iterator<char>(stat)), {});
      const auto close = text.rfind(')');
      if (close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z') {
        out.push_back(p);
      }
    }
  }
  return out;
}

// A step's leftovers may still be going away as the tree is walked; a few passes outlast that.
std::error_code remove_tree(const std::string& path) {
  std::error_code ec;
  for (int pass = 0; pass < 5; ++pass) {
    ec.clear();
    std::filesystem::remove_all(path, ec);
    if (!ec) {
      return ec;
    }
  }
  return ec;
}

// Every command the host started leads a process group of its own (host_process.cpp).
void signal_children(int sig) {
  for (pid_t p : live_children()) {
    ::kill(-p, sig);
    ::kill(p, sig);
  }
}

// Held by the thread that cleans up after an interruption until it ends the process, so that the
// main thread, which may meanwhile see its command end and finish the review, cannot exit first
// (an exit handler waits for it).
std::mutex& cleaning() {
  static std::mutex m;
  return m;
}

[[noreturn]] void clean_up_and_exit(int sig) {
  cleaning().lock();
  signal_children(SIGTERM);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!live_children().empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  signal_children(SIGKILL);
  std::map<int, Removal> removals;
  {
    std::lock_guard<std::mutex> lock(held().mutex);
    removals = held().removals;
  }
  // The sandboxes before the directories: a sandbox may still use its clone.
  for (const auto& [token, removal] : removals) {
    if (const auto* argv = std::get_if<std::vector<std::string>>(&removal)) {
      exec::CommandOptions quiet;
      quiet.stdout_file = "/dev/null";
      quiet.quiet_stderr = true;
      quiet.limit = std::chrono::seconds(60);
      (void)exec::run_command(*argv, quiet);
    }
  }
  // Under the lock, one directory at a time: the main thread may be removing the same tree
  // (remove_held_directory), and two removals of one tree each stop at the other's ENOENT.
  for (const auto& [token, removal] : removals) {
    if (std::holds_alternative<std::string>(removal)) {
      std::lock_guard<std::mutex> lock(held().mutex);
      if (const auto found = held().removals.find(token); found != held().removals.end()) {
        (void)remove_tree(std::get<std::string>(found->second));
        held().removals.erase(found);
      }
    }
  }
  const std::string line = std::string("reviewer review: interrupted by SIG") +
                           ::sigabbrev_np(sig) + ": the review's sandbox and clone are removed\n";
  (void)!::write(2, line.data(), line.size());
  // The last line on stdout is the verdict, whatever the main thread printed meanwhile.
  const std::string verdict =
      std::string("review-build-failed: host: interrupted by SIG") + ::sigabbrev_np(sig) + "\n";
  std::fflush(stdout);
  (void)!::write(1, verdict.data(), verdict.size());
  ::_exit(128 + sig);
}

int add(Removal removal) {
  std::lock_guard<std::mutex> lock(held().mutex);
  const int token = held().next++;
  held().removals.emplace(token, std::move(removal));
  return token;
}

}  // namespace

void handle_interruptions() {
  static bool installed = false;
  if (installed) {
    return;
  }
  installed = true;
  std::atexit([] { std::lock_guard<std::mutex> wait_for(cleaning()); });
  const sigset_t set = interruptions();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (::sigwait(&set, &sig) != 0) {
    }
    clean_up_and_exit(sig);
  }).detach();
}

Held::~Held() {
  if (token_ != 0) {
    std::lock_guard<std::mutex> lock(held().mutex);
    held().removals.erase(token_);
  }
}

Held& Held::operator=(Held&& other) noexcept {
  if (this != &other) {
    Held dropped(token_);
    token_ = other.token_;
    other.token_ = 0;
  }
  return *this;
}

std::error_code remove_held_directory(Held& handle, const std::string& path) {
  std::error_code ec;
  {
    std::lock_guard<std::mutex> lock(held().mutex);
    ec = remove_tree(path);
  }
  handle = Held();
  return ec;
}

Held hold_command(std::vector<std::string> argv) { return Held(add(std::move(argv))); }

Held hold_directory(std::string path) { return Held(add(std::move(path))); }

}  // namespace reviewer::host
