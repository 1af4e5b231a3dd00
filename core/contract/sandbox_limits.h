#pragma once

#include <string>

namespace reviewer::contract {

// What one sandbox may take of the host, so that a fork bomb or a memory hog in a step fails
// that review and nothing else: a review's sandbox and a resolution's alike. GitHub's standard
// Linux runner has 4 CPUs and 16 GB.
struct SandboxLimits {
  int pids = 4096;            // processes and threads
  std::string memory = "8g";  // the engine's size syntax
  std::string cpus = "2";     // a CPU quota, in CPUs
};

}  // namespace reviewer::contract
