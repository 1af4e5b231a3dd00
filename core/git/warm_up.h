#pragma once

#include <thread>

namespace reviewer::git {

// Starts libgit2's one-time initialisation on a thread of its own, so it overlaps whatever the
// caller does next; the first real use of libgit2 waits for it if it is still running. Why:
// Debian's libgit2 is built with mbedTLS, whose initialisation parses every CA certificate in
// /etc/ssl/certs/ca-certificates.crt (about 8 ms on the reference machine), which the launcher
// otherwise pays on its one core in the middle of its first job. Joined on destruction.
//
// The thread inherits the caller's signal mask: create it after signals are blocked for the
// supervisor, so no signal meant for the supervisor is delivered to it. Create it after the
// process stops changing its environment too (the launcher unsets the host's nonce first):
// libgit2 reads the environment as it initialises, and getenv is not safe against a concurrent
// setenv or unsetenv.
class Libgit2WarmUp {
 public:
  Libgit2WarmUp();
  ~Libgit2WarmUp();
  Libgit2WarmUp(const Libgit2WarmUp&) = delete;
  Libgit2WarmUp& operator=(const Libgit2WarmUp&) = delete;

 private:
  std::thread thread_;
};

}  // namespace reviewer::git
