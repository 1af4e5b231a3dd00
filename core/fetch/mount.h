#pragma once

// Where the host mounts a review's dependency view (a read-only npm cache holding exactly the
// tarballs the lock pins) in every sandbox, and where the launcher looks for it. Outside /tmp,
// /var/tmp and /run, which the launcher clears between jobs, and under a read-only root, so a
// pull request can neither make nor replace it.
namespace reviewer::fetch {

inline constexpr const char* kDependencyMount = "/var/cache/reviewer-deps";

}  // namespace reviewer::fetch
