#pragma once

#include <string>

#include "core/resolve/runtime_set.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Holds every file of `set` under `root` (contract::kRuntimesRoot in a sandbox; its layout is
// contract/runtime_layout.h) to the SHA-256 the trusted catalogue records, before any step runs:
// `--version` proves only what a binary prints. Each file is read without following a link.
// Refusals, one per file, all returned: `runtime-checksum` naming the runtime, its release, the
// path, and both checksums (or why it cannot be read).
util::Status check_runtime_set(const std::string& root, const resolve::RuntimeSet& set);

}  // namespace reviewer::launch
