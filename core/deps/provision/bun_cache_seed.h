#pragma once

#include <string>

#include "core/util/result.h"

namespace reviewer::deps {

// Unpacks, into `cache_dir` (the job's BUN_INSTALL_CACHE_DIR), every package the host listed in
// `view`/contract::kBunList: each tarball of the read-only view becomes the folder Bun's cache
// keeps for it ("name@1.2.3@@@1"), which `bun install` then links from instead of downloading.
// Bun does not read tarballs from a cache, and verifies nothing it finds there; the bytes were
// verified by the host against the lock's integrity before they entered the store. Runs
// /bin/tar inside the sandbox (never on the host), one package at a time. Error
// `dependency-unpack` naming the first package that could not be unpacked; the caller logs it,
// and `bun install` then fails offline as it would without the cache.
util::Status seed_bun_cache(const std::string& view, const std::string& cache_dir);

}  // namespace reviewer::deps
