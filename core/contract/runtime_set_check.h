#pragma once

#include <string>

#include "core/resolve/runtime_set.h"
#include "core/util/result.h"

namespace reviewer::contract {

// Holds every file of `set` under `root` (its layout is runtime_layout.h) to the SHA-256 the
// trusted catalogue records: `--version` proves only what a binary prints. The host calls it on
// the tree it has just laid out (deps/runtime_provision.h), before trusting it; the launcher is to
// call it on kRuntimesRoot before the first step. Each file is read without following a link.
// Refusals, one per file, all returned: `runtime-checksum` naming the runtime, its release, the
// path, and both checksums (or why it cannot be read).
util::Status check_runtime_set(const std::string& root, const resolve::RuntimeSet& set);

}  // namespace reviewer::contract
