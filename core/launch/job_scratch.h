#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/launch/scratch_dir.h"
#include "core/launch/sysv_ipc.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Everything a job can leave outside the worktree for the next one (the writable mounts, the
// System V IPC objects of the sandbox's IPC namespace), and the launcher's own directories there:
// the review root `<tmp>/review` (the reports) and this build's directory in it (every job's HOME,
// TMPDIR, caches and step files). Every job of a review build runs as the launcher's user, so each
// can rename, replace or fill any of these; on GitHub each job would start on a fresh runner.
class JobScratch {
 public:
  // Before any step runs: records what `tmp`, each of `shared` (/var/tmp, /run, /dev/shm,
  // /dev/mqueue), the IPC namespace and the kernel keys this process sees hold as their
  // baselines, then makes (or opens) the review root in `tmp` and a fresh build directory in it.
  // `sweep_ipc` false leaves IPC and keys alone (a test outside a sandbox shares the host's).
  static util::Result<JobScratch> create(const std::string& tmp,
                                         const std::vector<std::string>& shared,
                                         bool sweep_ipc = false);

  // Between two jobs: removes every entry of the shared directories and every System V IPC
  // object that is not in their baseline, refuses a kernel key that is not in its baseline (the
  // launcher's keyring filter denies every keyring call, so none can be removed; none should
  // appear), puts the review root and the build directory back under
  // their names (recreated if a job removed them), and empties both but for what the review root
  // held at the start. Errors carry cleanup-failed and name what could not be removed.
  util::Status clear();
  // Before the reports are written: the review root is the launcher's own again, whatever a job
  // put in its place (recreated if a job removed it); its content is left as the last job left
  // it, for the report writer to replace or fail on.
  util::Status reclaim_review_root();

  int review_root_fd() const { return review_.fd(); }
  const std::string& review_root() const { return review_.path(); }
  // The build directory's path, for the per-job directories.
  const std::string& build_dir() const { return build_.path(); }

 private:
  JobScratch(ScratchDir tmp, std::vector<ScratchDir> shared, std::optional<SysvIpc> ipc,
             std::optional<std::set<std::string>> keys, ScratchDir review, ScratchDir build,
             std::string build_name)
      : tmp_(std::move(tmp)),
        shared_(std::move(shared)),
        ipc_(std::move(ipc)),
        keys_(std::move(keys)),
        review_(std::move(review)),
        build_(std::move(build)),
        build_name_(std::move(build_name)) {}
  util::Status restore_own_dirs();
  util::Status recreate_review_root();

  ScratchDir tmp_;
  std::vector<ScratchDir> shared_;
  std::optional<SysvIpc> ipc_;
  std::optional<std::set<std::string>> keys_;
  ScratchDir review_;
  ScratchDir build_;
  std::string build_name_;
};

}  // namespace reviewer::launch
