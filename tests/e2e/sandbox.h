#pragma once

#include <string>
#include <vector>

namespace reviewer::e2e {

// The output and exit status of one command.
struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved
  std::string after;   // what SandboxRun::after printed, kept out of `output`

  std::string last_line() const;
};

// Runs `command` under /bin/sh and captures it.
RunResult run_command(const std::string& command);

// A temporary copy of examples/node-app that a test may change, cloned the way the host does.
class ExampleRepo {
 public:
  ExampleRepo();
  ~ExampleRepo();
  ExampleRepo(const ExampleRepo&) = delete;
  ExampleRepo& operator=(const ExampleRepo&) = delete;

  // Overwrites (or creates) a file of the source before it is committed and cloned.
  void write(const std::string& relative, const std::string& content);
  // Commits the source to a fresh origin and clones it: depth 1 without tags, or full.
  void clone(bool full = false);
  // Makes the source itself a git repository on branch `main` (at the first call) and commits
  // everything in it, as a pull request's head; returns the commit id. For `reviewer review`,
  // which clones the source itself.
  std::string commit_source(const std::string& message = "change");
  // The source directory (a git repository after commit_source).
  const std::string& source() const { return source_; }
  // The clone the sandbox gets as /workspace.
  const std::string& workspace() const { return clone_; }
  // Runs a git command in the clone (as the host would have set it up).
  void git_in_clone(const std::string& args);

 private:
  std::string root_;
  std::string source_;
  std::string clone_;
};

struct SandboxRun {
  std::string workflow = ".github/workflows/ci.yml";
  std::string job = "test";
  std::string base = "main";
  std::string matrix;            // REVIEWER_CI_MATRIX: NAME=VALUE lines
  bool pinned_only = false;      // REVIEWER_CI_PINNED_ONLY=true
  std::string event;             // REVIEWER_CI_EVENT: the host's event description, compact JSON
  bool same_repository = false;  // REVIEWER_CI_SAME_REPOSITORY=true
  std::vector<std::string> caller_env;
  std::vector<std::string> launcher_args;
  std::string prefix = REVIEWER_E2E_STAGE;  // the image install the sandbox binds read-only
  // Shell commands run as the sandbox user inside the same sandbox, before the launcher starts
  // (to plant something) and once it has exited (to look at what it left behind: the sandbox's
  // tmpfs dies with it). What `before` prints goes to `output`, ahead of the launcher's.
  std::string before;
  std::string after;
  // The weaker layout of a host that runs PID 1 and the launcher as the steps' user (a step can
  // then write PID 1's memory); by default PID 1 is root and the launcher starts as root and
  // becomes the sandbox user, as `reviewer review` does.
  bool pid1_as_steps = false;
  // The sandbox's limits, as `reviewer review` sets them (podman's --pids-limit and --memory;
  // the run model's cgroup); empty: the defaults, 4096 and 8g.
  std::string pids_limit;
  std::string memory;
  // As `reviewer review` lays it out: the clone mounted read-only as the pristine clone, and an
  // empty directory beside it (workspace() + "-worktree") as /workspace, which the launcher fills
  // with a fresh copy before every job (core/launch/fresh_worktree.h).
  bool fresh_worktree = false;
};

// Runs the installed launcher in a fresh run-model sandbox over `workspace`, or, when
// REVIEWER_E2E_ENGINE=podman, in a fresh container of the real review image (the `prefix` is
// then the image's own install).
RunResult run_launcher(const std::string& workspace, const SandboxRun& run = {});

// Whether this run uses the real image (REVIEWER_E2E_ENGINE=podman).
bool in_image();

// True when this process may create namespaces (the run model needs root).
bool can_run_sandbox();

}  // namespace reviewer::e2e
