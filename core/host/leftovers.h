#pragma once

#include <string>
#include <vector>

namespace reviewer::host {

// The engine label naming the host process (host_identity.h) that made a sandbox.
inline constexpr const char* kHostLabel = "org.reviewer.host";
// The file in a review's scratch directory naming the host process that made it.
inline constexpr const char* kScratchOwnerFile = ".reviewer-host";
// Where the run model records each live sandbox: a file per run-model.sh, named by its pid,
// holding "OWNER SELF" (the identities of the host that started it and of the script).
inline constexpr const char* kRunModelSandboxes = "/run/reviewer/sandboxes";
// The scratch directories of reviews: TMPDIR/<prefix>XXXXXX.
inline constexpr const char* kScratchPrefix = "reviewer-review.";

// Removes what reviews whose host process is gone (killed with SIGKILL, say) left on this
// machine, and says what in one line each:
// - podman sandboxes and resolution containers whose kHostLabel names a dead process (only when
//   `engine` is not empty: engine.sh's path);
// - run-model sandboxes whose owner is dead: SIGTERM to their run-model.sh, which removes the
//   sandbox as it would at its own end;
// - scratch directories in `tmp_dir` whose owner file names a dead process.
// What it cannot read or remove is left and said; nothing of a live review is touched.
std::vector<std::string> collect_leftovers(const std::string& engine, const std::string& tmp_dir);

}  // namespace reviewer::host
