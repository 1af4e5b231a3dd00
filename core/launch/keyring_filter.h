#pragma once

#include <set>
#include <string>

#include "core/util/result.h"

namespace reviewer::launch {

// Kernel keyrings are not namespaced by the mount, PID or IPC namespaces a sandbox has: a step
// could read a key of its uid's user keyring (KEYCTL_READ), leave one for the next job, or carry
// state in the name of a session keyring it joins. Docker's default seccomp profile denies the
// three keyring calls; podman's allows keyctl, and the namespaces engine has no profile at all.
// So the launcher denies them itself: this installs a seccomp filter on the calling thread (and
// so on every process it starts from then on) that fails add_key, request_key and keyctl with
// EPERM in each of the x86-64, x32 and i386 system-call tables. Sets no_new_privs first (the
// kernel's condition for an unprivileged filter). Refuses `keyring-filter` when the kernel
// will not take it.
util::Status deny_kernel_keyrings();

// The keys /proc/keys lists for this process (their serials): what the between-jobs check
// compares with the first job's. /proc/keys needs no keyring call, so the check works under the
// filter above, and it sees the session and user keyrings a step could reach.
util::Result<std::set<std::string>> visible_kernel_keys();

// Between jobs: `cleanup-failed` naming the first key that /proc/keys lists now and did not
// list in `baseline` (a key cannot be removed under the filter, so it is refused, not swept).
util::Status check_no_new_kernel_keys(const std::set<std::string>& baseline);

}  // namespace reviewer::launch
