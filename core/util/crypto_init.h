#pragma once

namespace reviewer::util {

// Initialises libcrypto the way reviewer uses it: digests and HMAC from its default provider,
// nothing else. Left to itself, libcrypto's first digest builds the legacy cipher and digest
// name tables (about a millisecond of CPU in every process that hashes anything, issue 15) and
// reads the system's openssl.cnf, or $OPENSSL_CONF, which can replace the provider that computes
// every hash reviewer checks. libcrypto keeps the first choice made, so the executables' mains
// call this before anything else, before any thread: libssh2's later request for the tables
// (in libgit2's initialisation) is then ignored.
void init_crypto();

}  // namespace reviewer::util
