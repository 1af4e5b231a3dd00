#pragma once

#include <sys/types.h>

namespace reviewer::contract {

// The image's unprivileged user (docker/reviewer/Dockerfile: `reviewer`, uid and gid 1000; the
// run model's sandbox user, docker/run-model/run-model.sh): who the launcher's work and every
// step run as, and whom the host maps to an id of the review's own user namespace.
inline constexpr uid_t kSandboxUid = 1000;
inline constexpr gid_t kSandboxGid = 1000;

}  // namespace reviewer::contract
