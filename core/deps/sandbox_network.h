#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

// How the host reaches into a sandbox that has no network: a listening socket made inside the
// sandbox's network namespace, on its loopback, and served by a host thread. The sandbox reaches
// that one socket and nothing else (the resolution's registry, deps/resolution_registry.h).
// Making a socket in another namespace needs CAP_SYS_ADMIN over it: the host runs as root.
// Errors are `resolution-network`.
namespace reviewer::deps {

// The network namespace of process `pid` (a sandbox's PID 1), refused when it is the host's own:
// a sandbox with the host's network, or a pid that no longer is the sandbox's.
util::Result<util::UniqueFd> network_namespace_of(pid_t pid);

// A new network namespace holding only its loopback, up: for a sandbox that joins it (the
// namespaces engine). It lives as long as the descriptor, or a process in it.
util::Result<util::UniqueFd> make_loopback_network();

// A TCP socket listening on 127.0.0.1, at a port the kernel picks, in the network namespace
// `network` (a descriptor of one); this process's own threads keep theirs.
util::Result<util::UniqueFd> listen_in_network(int network);

// The same in this thread's own network namespace (tests, and listen_in_network's last step).
util::Result<util::UniqueFd> listen_on_loopback();

// Makes a listener in `network` (listen_in_network) and hands it to `serve`, which starts what
// answers on it and returns the URL the sandbox is to use.
util::Result<std::string> serve_in_network(
    int network, const std::function<util::Result<std::string>(util::UniqueFd)>& serve);

// The port a listening socket was bound to; 0 when it cannot be read.
int listening_port(int listener);

}  // namespace reviewer::deps
