#include "core/exec/kill_children.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace reviewer::exec {
namespace {

// Reaps every child that has ended; false once this process has no child left at all.
bool reap_ended(const Reaped& reaped) {
  for (;;) {
    int status = 0;
    // __WALL: a child that signals its end with something other than SIGCHLD counts too.
    const pid_t p = ::waitpid(-1, &status, WNOHANG | __WALL);
    if (p > 0) {
      if (reaped) {
        reaped(p, status);
      }
      continue;
    }
    if (p < 0 && errno == EINTR) {
      continue;
    }
    return p == 0;
  }
}

}  // namespace

void reap_ended_children(const Reaped& reaped) { (void)reap_ended(reaped); }

std::vector<ProcessInfo> kill_children(std::chrono::steady_clock::time_point give_up,
                                       const Reaped& reaped) {
  std::vector<ProcessInfo> killed;
  const pid_t self = ::getpid();
  const pid_t own_group = ::getpgrp();
  for (int round = 0; round < 100'000 && std::chrono::steady_clock::now() < give_up; ++round) {
    const auto children = children_of(self);
    for (const auto& c : children) {
      if (c.pgid != own_group && c.pgid > 0) {
        ::kill(-c.pgid, SIGKILL);
      }
      ::kill(c.pid, SIGKILL);
      killed.push_back(c);
    }
    const bool some_left = reap_ended(reaped);
    if (!some_left && children.empty()) {
      break;
    }
    if (some_left) {
      ::usleep(1000);  // killed but not yet ended: give them a moment
    }
  }
  // Zombies reaped in the round that listed them were listed as killed too; each pid once.
  std::sort(killed.begin(), killed.end(),
            [](const ProcessInfo& a, const ProcessInfo& b) { return a.pid < b.pid; });
  killed.erase(
      std::unique(killed.begin(), killed.end(),
                  [](const ProcessInfo& a, const ProcessInfo& b) { return a.pid == b.pid; }),
      killed.end());
  return killed;
}

}  // namespace reviewer::exec
