#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/process_table.h"

namespace reviewer::exec {

using Clock = std::chrono::steady_clock;

struct StepSpec {
  std::vector<std::string> argv;  // argv[0] is an absolute path
  std::vector<std::string> env;   // "NAME=value", the complete environment
  std::string cwd;
  std::optional<Clock::time_point> deadline;
  std::string deadline_reason;  // names the limit, e.g. "step timeout-minutes: 1"
  std::string label;            // prefixed to every output line
};

struct StepResult {
  bool started = false;
  std::string spawn_error;
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  bool interrupted = false;  // the launcher itself got SIGINT or SIGTERM
  std::string deadline_reason;
  // The first output line that showed a network access (exec/network_signs.h); empty when none.
  std::string network_sign = {};

  bool success() const {
    return started && !timed_out && !interrupted && signal == 0 && exit_code == 0;
  }
};

// What the job loop needs from whatever runs the steps' processes, as ninja's CommandRunner:
// the Supervisor is the real one; tests hand the job loop a fake that spawns nothing, so CI's
// gating is tested without processes. Every outcome the loop judges comes from here, never from
// a plugin's own account.
class StepRunner {
 public:
  virtual ~StepRunner() = default;
  // Runs one step to its end (or its deadline) and reports how it ended.
  virtual StepResult run(const StepSpec& spec) = 0;
  // Kills whatever the job left running; returns what was killed.
  virtual std::vector<ProcessInfo> kill_leftovers() = 0;
  // True once the launcher itself was told to stop.
  virtual bool interrupted() = 0;
};

}  // namespace reviewer::exec
