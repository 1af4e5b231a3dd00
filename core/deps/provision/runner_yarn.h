#pragma once

#include <string>

#include "core/util/result.h"

namespace reviewer::deps {

// The view's yarn offline mirror (contract::kYarnMirrorDir under `view`, the read-only dependency
// view) when the host made one for a yarn.lock, else "". The launcher names it in every step's
// YARN_YARN_OFFLINE_MIRROR, so yarn 1 reads each tarball from there (docs/dependencies.md, "Yarn").
std::string yarn_offline_mirror(const std::string& view);

// Unpacks the runner's yarn (contract::kRunnerYarnVersion), whose registry tarball the host
// verified and placed in `view`/package-managers, into `into` (a directory of the job's own
// scratch, made here) and returns its `bin` directory for the job's PATH; "" when the view holds no
// yarn (the worktree has no yarn.lock). Runs /bin/tar inside the sandbox, at the start of the job,
// never earlier. Error `dependency-unpack` when the tarball is not a regular file or cannot be
// unpacked into a yarn (`bin/yarn.js`); the caller logs it, and `yarn` is then missing as it would
// be on a runner without it.
util::Result<std::string> unpack_runner_yarn(const std::string& view, const std::string& into);

}  // namespace reviewer::deps
