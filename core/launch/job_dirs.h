#pragma once

#include <cstddef>
#include <string>

#include "core/exec/step_environment.h"

namespace reviewer::launch {

// Makes `path` (mode 0700); true when it exists afterwards.
bool make_dir(const std::string& path);

// The fresh directories of the `n`th job the build starts, under `root`: its HOME, TMPDIR,
// caches, RUNNER_TEMP and step files. Named by position only: a job id is the workflow's text
// and never part of a path.
exec::JobDirs make_job_dirs(const std::string& root, std::size_t n);

}  // namespace reviewer::launch
