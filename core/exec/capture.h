#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/exec/child.h"
#include "core/util/result.h"

namespace reviewer::exec {

// Runs `argv` (absolute argv[0]) with exactly `env`, stdin from /dev/null, and returns what it
// printed on stdout (at most `max_bytes`) if it exited 0 within a few seconds. Used for the
// launcher's own tool checks (`node --version`), never for workflow code.
util::Result<std::string> capture_output(const std::vector<std::string>& argv,
                                         const std::vector<std::string>& env,
                                         std::size_t max_bytes = 4096);

// capture_output in two halves, for a caller with work to do while the tool runs: started here,
// in the caller's thread, at once; finish() then reads and reaps it, by the same rules and the
// same deadline (counted from the start). Destroyed unfinished, it kills the tool's group.
class StartedCapture;
util::Result<StartedCapture> start_capture(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& env,
                                           std::size_t max_bytes = 4096);

class StartedCapture {
 public:
  StartedCapture(StartedCapture&& o) noexcept = default;
  StartedCapture& operator=(StartedCapture&&) = delete;
  // Once only.
  util::Result<std::string> finish();

 private:
  friend util::Result<StartedCapture> start_capture(const std::vector<std::string>& argv,
                                                    const std::vector<std::string>& env,
                                                    std::size_t max_bytes);
  StartedCapture(Child child, std::string name, std::size_t max_bytes);

  Child child_;  // destroyed unfinished, it kills the tool's group
  bool finished_ = false;
  std::string name_;
  std::size_t max_bytes_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace reviewer::exec
