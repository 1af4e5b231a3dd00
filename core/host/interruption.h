#pragma once

#include <string>
#include <system_error>
#include <vector>

namespace reviewer::host {

// A review that is interrupted (SIGTERM, SIGINT or SIGHUP) removes what it holds on the host
// before it ends: the commands it started, its sandbox and its scratch directory (the clone).
// One killed with SIGKILL cannot; `reviewer gc`, which every review also runs first, removes what
// such a review left (leftovers.h).

// Blocks the three signals in the calling thread and starts a thread that waits for them. Call it
// first in main, before any other thread exists, so that every thread inherits the mask (the
// host's children get the default mask back at spawn). On a signal: SIGTERM to every command the
// host started (their process groups; the run model removes its sandbox on it), SIGKILL to what
// is left 10 s later, then every held removal runs, a line says so on stderr, and the process
// exits with 128 + the signal.
void handle_interruptions();

// Something to remove if the review is interrupted, from its creation until the review removed it
// itself (the handle's end).
class Held {
 public:
  Held() = default;
  ~Held();
  Held(Held&& other) noexcept : token_(other.token_) { other.token_ = 0; }
  Held& operator=(Held&& other) noexcept;
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

 private:
  friend Held hold_command(std::vector<std::string> argv);
  friend std::error_code remove_held_directory(Held& handle, const std::string& path);
  friend Held hold_directory(std::string path);
  explicit Held(int token) : token_(token) {}
  int token_ = 0;
};

// A command that removes something (an engine's `rm --force`), run on interruption.
Held hold_command(std::vector<std::string> argv);
// A directory removed with everything below it on interruption.
Held hold_directory(std::string path);
// Removes `path`, held by `held`, now, and lets go of it; never while an interruption's cleanup
// removes a directory.
std::error_code remove_held_directory(Held& handle, const std::string& path);

}  // namespace reviewer::host
