#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/process_table.h"
#include "core/exec/step_runner.h"
#include "core/util/unique_fd.h"

namespace reviewer::exec {

// The runner's kill sequence: SIGINT, wait, SIGTERM, wait, SIGKILL. The runner sends it to the
// direct child only; we send it to the step's whole process group (docs/fidelity.md).
struct KillPolicy {
  std::chrono::milliseconds interrupt_grace{7500};
  std::chrono::milliseconds term_grace{2500};
};

// Owns every process the launcher starts. Construction makes this process a child subreaper
// and routes SIGCHLD, SIGINT and SIGTERM through a signalfd, so orphans of a step come back to
// us and the launcher can react to its own interruption between reads.
class Supervisor final : public StepRunner {
 public:
  Supervisor(int log_fd, KillPolicy policy);
  ~Supervisor();
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  // Runs one step in its own session and process group with stdin from /dev/null, streaming
  // its output line by line to the log; enforces the deadline with the kill sequence.
  StepResult run(const StepSpec& spec) override;

  // Kills and reaps everything still running below this process (background jobs, setsid
  // daemons, double forks), until nothing is left; returns what was killed.
  std::vector<ProcessInfo> kill_leftovers() override;

  // True once the launcher received SIGINT or SIGTERM (checked now, not only during a step).
  bool interrupted() override;

 private:
  // Reads pending signals without blocking; records SIGINT/SIGTERM.
  void read_signals();

  int log_fd_;
  KillPolicy policy_;
  util::UniqueFd signal_fd_;
  bool interrupted_ = false;
};

}  // namespace reviewer::exec
