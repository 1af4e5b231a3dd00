#pragma once

#include <string>

#include "core/util/result.h"

namespace reviewer::deps {

// A job's own npm cache, seeded from the read-only dependency view the host mounted: npm writes
// to its cache during some commands (`npm pack` stages a tarball in `_cacache/tmp`), which a
// read-only cache fails, while on CI every job's cache is writable and starts empty. Copies the
// view's `_cacache` (directories and regular files only) into `job_cache_dir`/npm and returns
// that directory. Error: dependency-cache-seed (the copy failed: out of space, a file that is
// neither).
util::Result<std::string> seed_npm_cache(const std::string& view, const std::string& job_cache_dir);

}  // namespace reviewer::deps
