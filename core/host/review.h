#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/contract/assignment.h"

namespace reviewer::host {

// What `reviewer review` was asked: one job of one workflow of a repository at a head, for a
// base branch, in one engine.
struct ReviewRequest {
  std::string repository;  // a local git repository or a URL git can fetch
  std::string head;        // branch, tag or commit; empty: the repository's HEAD
  // What the sandbox is assigned: the workflow (under .github/workflows/), the job, the base, the
  // matrix combination (--matrix NAME=VALUE, a line each), --pinned-only and --same-repository as
  // the command line gives them; the event the host adds from `event_file`.
  contract::Assignment assignment;
  std::string engine;       // podman, docker or namespaces; empty: podman where it exists
  std::string stage;        // the namespaces engine's staged install
  std::string reports_dir;  // where report.json and report.xml go; empty: not kept
  bool keep_clone = false;  // leave the clone in place (its path is printed)
  std::string event_file;   // --event: the pull request's github fields (plan/event_facts.h)
  int pids_limit = 4096;    // the sandbox's limits (podman and docker; see SandboxLimits)
  std::string memory_limit = "8g";
  std::string cpu_limit = "2";
  // The fetch phase: the shared dependency store (empty: default_store_dir()), the registry
  // every tarball must come from, and the bound on the tarballs together.
  std::string store_dir;
  std::string registry = "https://registry.npmjs.org/";
  std::uint64_t max_dependency_bytes = 2ull << 30;
};

// Does what a reviewer host does: a shallow clone to read the workflow, the plan (refusals end
// the review before any sandbox exists), the fresh clone the plan's history shape needs, the one
// matrix image the worktree and the plan's pins select, the sandbox with the production flags and
// the assignment in its creation environment, the launcher's log streamed, the reports copied
// out, the sandbox removed. Host lines go to stdout prefixed "review: "; the last stdout line is
// the verdict. Returns the launcher's exit code (0 ok, 1 failed, 3 refused), 2 for a request
// that cannot be carried out, 4 when the host side failed.
int review(const ReviewRequest& request);

}  // namespace reviewer::host
