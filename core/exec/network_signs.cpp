// NetworkSigns: the words a failed network access leaves in npm's, pnpm's, yarn's and Node's
// output.
#include "core/exec/network_signs.h"

#include <array>

namespace reviewer::exec {
namespace {

bool has(std::string_view line, std::string_view word) {
  return line.find(word) != std::string_view::npos;
}

// npm and pnpm (node-fetch, undici): "request to https://registry.npmjs.org/x failed, reason: ..."
bool failed_request(std::string_view line) {
  for (std::string_view scheme : {"request to https://", "request to http://"}) {
    const auto at = line.find(scheme);
    if (at != std::string_view::npos && line.find(" failed", at) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// A refused connection to the sandbox's own loopback is a service the job did not start, not
// the network.
bool refused_elsewhere(std::string_view line) {
  if (!has(line, "ECONNREFUSED")) {
    return false;
  }
  constexpr std::array<std::string_view, 4> kLocal = {"127.", "::1", "localhost", "0.0.0.0"};
  for (auto local : kLocal) {
    if (has(line, local)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool shows_network_access(std::string_view line) {
  return has(line, "ENOTFOUND") || has(line, "EAI_AGAIN") || has(line, "getaddrinfo") ||
         has(line, "ENETUNREACH") || refused_elsewhere(line) || failed_request(line);
}

void NetworkSigns::see(std::string_view line) {
  if (first_.empty() && shows_network_access(line)) {
    first_ = std::string(line.substr(0, 200));
  }
}

}  // namespace reviewer::exec
