#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/child.h"
#include "core/util/result.h"

namespace reviewer::exec {

// How a host-side command ended: its exit status (128 + signal when a signal ended it), or that
// the wall-clock limit ran out first (then its whole process group was killed).
struct Exit {
  int status = 0;
  bool timed_out = false;
};

struct CommandOptions {
  // Kill the command's process group and report timed_out after this long; none: wait. With a
  // limit the host becomes a child subreaper, and at the limit also kills and reaps whatever the
  // command left outside its process group.
  std::optional<std::chrono::milliseconds> limit;
  // Where its stdout goes: the host's own stdout (streamed) when empty, else this file
  // (created or truncated, mode 0600).
  std::string stdout_file;
  // Its stderr goes to the host's stderr unless this is set (then it is discarded).
  bool quiet_stderr = false;
  // NAME=VALUE added to the host's environment for this command only (a secret passed this way
  // is in no argv a process list shows).
  std::vector<std::string> extra_env;
  // When set (and stdout_file is empty), the command's stdout is still streamed to the host's
  // stdout, through a pipe, and its last non-empty line is stored here.
  std::string* last_line = nullptr;
};

// Runs `argv` (argv[0] found on PATH) with the host's environment and stdin from /dev/null, in a
// process group of its own, and waits for it. A command that cannot be started is an error
// (`host-command`), not an exit status.
util::Result<Exit> run_command(const std::vector<std::string>& argv,
                               const CommandOptions& options = {});

// Starts `argv` as run_command does (argv[0] found on PATH, stdin from /dev/null, stdout to
// `out_fd` when it is >= 0, stderr discarded when `quiet`, a process group of its own, no signal
// blocked and every one at its default) and does not wait: the caller waits for the Child, which
// kills and reaps the command if it is dropped first.
util::Result<exec::Child> start_command(const std::vector<std::string>& argv, int out_fd,
                                        bool quiet, const std::vector<std::string>& extra_env = {});

// Runs `argv` and returns its stdout (at most `max_bytes`; more is an error) if it exited 0;
// otherwise an error `host-command` naming the command and its status.
util::Result<std::string> command_output(const std::vector<std::string>& argv,
                                         std::size_t max_bytes = 1 << 20);

// `argv` as one line for messages, each word quoted when it holds anything but [A-Za-z0-9_./=:@-].
std::string command_line(const std::vector<std::string>& argv);

}  // namespace reviewer::exec
