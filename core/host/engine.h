#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/contract/assignment.h"
#include "core/contract/sandbox_limits.h"
#include "core/deps/resolution_sandbox.h"
#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::host {

using SandboxLimits = contract::SandboxLimits;

// One review sandbox as the production host makes it: the matrix image, the fresh clone bound
// read-write at /workspace, and the assignment in the sandbox's creation environment.
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

// A way to make sandboxes: a container engine's command line, or the namespace run model.
class Engine : public deps::ResolutionSandbox {
 public:
  virtual std::string name() const = 0;
  // The engine's id of `image` (what the review ran, for the log); `image-missing` when this
  // host has not built it.
  virtual util::Result<std::string> image_id(const std::string& image) = 0;
  // Creates the sandbox, execs the launcher in it with its output streamed to this process's
  // stdout and stderr, copies the reports out, and removes the sandbox whatever happened.
  virtual util::Result<SandboxRun> run(const SandboxSpec& spec) = 0;
  // resolve(): a resolution sandbox (deps/resolution_sandbox.h).
};

// `podman` or `docker` (the command on PATH), with exactly the production flags.
std::unique_ptr<Engine> make_container_engine(const std::string& program);

// The namespace run model (docker/run-model/run-model.sh, installed as
// <prefix>/share/reviewer/run-model.sh) over `stage`, an install staged as the image.
std::unique_ptr<Engine> make_namespace_engine(const std::string& stage);

// The uid that owns /workspace in every sandbox (the images' USER, the run model's setpriv).
inline constexpr int kSandboxUid = 1000;

}  // namespace reviewer::host
