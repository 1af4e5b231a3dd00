#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/contract/assignment.h"
#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::host {

// One review sandbox as the production host makes it: the matrix image, the fresh clone bound
// read-write at /workspace, and the assignment in the sandbox's creation environment.
// What one sandbox may take of the host, so that a fork bomb or a memory hog in a step fails
// that review and nothing else. GitHub's standard Linux runner has 4 CPUs and 16 GB.
struct SandboxLimits {
  int pids = 4096;            // processes and threads
  std::string memory = "8g";  // the engine's size syntax
  std::string cpus = "2";     // a CPU quota, in CPUs
};

struct SandboxSpec {
  std::string image;      // the matrix image's name, e.g. reviewer-node22-bun1310
  std::string workspace;  // the worktree on the host, bound at /workspace
  // The pristine clone, bound read-only at contract::kPristineMount, which the launcher copies into
  // the worktree before every job; empty: the worktree is the clone itself, shared by the jobs.
  std::string pristine;
  // The sandbox's assignment, in its creation environment as contract::assignment_environment()
  // writes it.
  contract::Assignment assignment;
  std::chrono::milliseconds limit{0};  // wall clock for the launcher, after which it is killed
  std::string reports_dir;             // where report.json and report.xml go; empty: nowhere
  // A dependency view (an npm cache of the tarballs the lock pins) mounted read-only at
  // contract::kDependencyMount; empty: the review has none.
  std::string dependencies;
  SandboxLimits limits;
  // A fresh nonce for the launcher's exec (contract::kNonceVariable), passed in its environment
  // and never in an argv; empty: none.
  std::string nonce;
};

// How the launcher ended. `status` is its exit code (or 128 + signal); `timed_out` when the host
// killed it at `limit`.
struct SandboxRun {
  int status = 0;
  bool timed_out = false;
  std::string last_line;  // the launcher's last line on stdout (its verdict, when it gave one)
};

// The resolution sandbox of a project without a lock file (host/npm_resolution.h): a sandbox
// like a review's (its own user namespace, read-only root, no capability, no network) over the
// review's image, with `dir` (holding the project's package.json alone) as its working directory.
// The one thing it reaches is a registry the host serves on its loopback.
struct ResolutionSpec {
  std::string image;
  std::string dir;
  std::chrono::milliseconds limit{0};
  SandboxLimits limits;
  // Starts the host's registry on `listener`, a socket listening on 127.0.0.1 in the sandbox's
  // network namespace, once the sandbox exists; returns the URL the command is to use.
  std::function<util::Result<std::string>(util::UniqueFd listener)> serve;
  // The command to run in the sandbox as its user, given `dir` as the sandbox sees it and the
  // URL `serve` returned.
  std::function<std::vector<std::string>(const std::string& dir, const std::string& registry)>
      command;
};

// A way to make sandboxes: a container engine's command line, or the namespace run model.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // The engine's id of `image` (what the review ran, for the log); `image-missing` when this
  // host has not built it.
  virtual util::Result<std::string> image_id(const std::string& image) = 0;
  // Creates the sandbox, execs the launcher in it with its output streamed to this process's
  // stdout and stderr, copies the reports out, and removes the sandbox whatever happened.
  virtual util::Result<SandboxRun> run(const SandboxSpec& spec) = 0;
  // Makes a resolution sandbox, hands spec.serve a listener on its loopback, runs spec.command
  // in it with its output on the host's stderr, and removes the sandbox whatever happened; the
  // command's exit code (or timed_out at spec.limit). Errors: the engine's, spec.serve's, and
  // `resolution-network` when the listener cannot be made in the sandbox's network namespace.
  virtual util::Result<SandboxRun> resolve(const ResolutionSpec& spec) = 0;
};

// `podman` or `docker` (the command on PATH), with exactly the production flags.
std::unique_ptr<Engine> make_container_engine(const std::string& program);

// The namespace run model (docker/run-model/run-model.sh, installed as
// <prefix>/share/reviewer/run-model.sh) over `stage`, an install staged as the image.
std::unique_ptr<Engine> make_namespace_engine(const std::string& stage);

// The uid that owns /workspace in every sandbox (the images' USER, the run model's setpriv).
inline constexpr int kSandboxUid = 1000;

}  // namespace reviewer::host
