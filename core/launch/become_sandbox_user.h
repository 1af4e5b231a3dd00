#pragma once

#include "core/contract/sandbox_user.h"
#include "core/util/result.h"

namespace reviewer::launch {

enum class StartedAs { kSandboxUser, kRoot };

// A launcher started as root (the host's protected layout: PID 1 runs as root, so no step can
// write the assignment into its memory; docs/threat-model.md) gives root up for good before it
// reads anything of the pull request: no supplementary groups, the sandbox user's gid and uid
// (real, effective and saved), no capability left, no_new_privs and not dumpable. Refuses
// `launcher-user` when any part fails or does not hold afterwards, so nothing ever runs as root.
// A launcher started as another user stays who it is (kSandboxUser).
util::Result<StartedAs> become_sandbox_user();

}  // namespace reviewer::launch
