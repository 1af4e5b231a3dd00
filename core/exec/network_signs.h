#pragma once

#include <string>
#include <string_view>

namespace reviewer::exec {

// Watches a step's output lines for the signs of a network access that the sandbox cannot make:
// a name lookup that failed (`ENOTFOUND`, `EAI_AGAIN`, `getaddrinfo`), an unreachable network
// (`ENETUNREACH`), a refused connection to an address that is not the sandbox's own loopback
// (`ECONNREFUSED` without 127.x, ::1, localhost or 0.0.0.0 on the line), or npm's and pnpm's
// `request to http(s)://... failed`. These are the words Node's resolver and npm, pnpm and yarn 1
// print (docs/dependencies.md: lifecycle scripts that download). Only a diagnosis for
// the log: it never changes an outcome.
class NetworkSigns {
 public:
  // Looks at one line of output (without its newline).
  void see(std::string_view line);
  // The first line that showed a sign, bounded to 200 bytes; empty when none did.
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

// Whether `line` shows such a sign.
bool shows_network_access(std::string_view line);

}  // namespace reviewer::exec
