#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <vector>

#include "core/exec/process_table.h"

namespace reviewer::exec {

// Told of each child reaped: its pid and its wait status.
using Reaped = std::function<void(pid_t pid, int wait_status)>;

// Reaps every child of this process that has ended, without waiting.
void reap_ended_children(const Reaped& reaped = {});

// Kills every child of this process, with its process group unless that is this process's own,
// and reaps it, round after round, until none is left or `give_up` passes. As a child subreaper
// this process inherits what each killed one started, so every round also ends a generation
// that escaped its group (a fork storm, bounded by RLIMIT_NPROC, loses one every round).
// Whichever ends first is reaped first: a PID namespace's init does not finish ending until its
// namespace is reaped, and only this process may reap what was re-parented here. Returns what
// was killed, each pid once.
std::vector<ProcessInfo> kill_children(
    std::chrono::steady_clock::time_point give_up = std::chrono::steady_clock::time_point::max(),
    const Reaped& reaped = {});

}  // namespace reviewer::exec
