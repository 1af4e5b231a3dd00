#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/contract/sandbox_limits.h"
#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {

// The resolution sandbox of a project without a lock file (npm_resolution.h): a sandbox like a
// review's (its own user namespace, read-only root, no capability, no network) over the review's
// image, with `dir` (holding the project's package.json alone) as its working directory. The one
// thing it reaches is a registry the host serves on its loopback.
struct ResolutionSpec {
  std::string image;
  std::string dir;
  std::chrono::milliseconds limit{0};
  contract::SandboxLimits limits;
  // Starts the host's registry on `listener`, a socket listening on 127.0.0.1 in the sandbox's
  // network namespace, once the sandbox exists; returns the URL the command is to use.
  std::function<util::Result<std::string>(util::UniqueFd listener)> serve;
  // The command to run in the sandbox as its user, given `dir` as the sandbox sees it and the
  // URL `serve` returned.
  std::function<std::vector<std::string>(const std::string& dir, const std::string& registry)>
      command;
};

// How the resolution's command ended: its exit code (or 128 + signal), or `timed_out` when the
// host killed it at spec.limit.
struct ResolutionRun {
  int status = 0;
  bool timed_out = false;
};

// What makes resolution sandboxes: each of the host's engines (host/engine.h).
class ResolutionSandbox {
 public:
  virtual ~ResolutionSandbox() = default;
  // Makes a resolution sandbox, hands spec.serve a listener on its loopback, runs spec.command
  // in it with its output on the host's stderr, and removes the sandbox whatever happened.
  // Errors: the engine's, spec.serve's, and `resolution-network` when the listener cannot be made
  // in the sandbox's network namespace.
  virtual util::Result<ResolutionRun> resolve(const ResolutionSpec& spec) = 0;
};

}  // namespace reviewer::deps
