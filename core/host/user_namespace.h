#pragma once

#include <sys/types.h>

#include <string>

#include "core/util/result.h"

namespace reviewer::host {

// Every review's sandbox has a user namespace of its own (podman's `--userns=auto`), so its
// users are host ids that no host account and no other live review holds. How many ids it maps:
// the 65,536 of a Linux system, uid 1000 (the steps' user) among them.
inline constexpr unsigned kUserNamespaceSize = 65536;

// The host id that `inside` maps to under a mapping as podman's inspect prints it
// (`{"UidMap":["0:1000000000:65536"],"GidMap":[...]}`, one "INSIDE:HOST:COUNT" per range).
// Refuses `host-command` when the text is not such a mapping, or maps `inside` nowhere, or to a
// host id below 65536 (a host account's).
struct HostIds {
  uid_t uid = 0;
  gid_t gid = 0;
};
util::Result<HostIds> mapped_host_ids(const std::string& inspect_json, uid_t inside);

// Gives `root` and everything below it to `ids` without following a link (lchown), as the
// container user owns its bind-mounted clone: the host made the clone, so no step has touched it
// yet. Refuses `host-command` naming the first path that cannot be changed.
util::Status give_tree_to(const std::string& root, HostIds ids);

}  // namespace reviewer::host
