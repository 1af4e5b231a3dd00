// The launcher's mbedtls_x509_crt_parse_file: the launcher is linked with
// --wrap=mbedtls_x509_crt_parse_file (cmake/ReviewerSystemLibraries.cmake), so libgit2's calls
// of it come here instead of to mbedTLS's.
//
// Why: Debian builds libgit2 with mbedTLS, and git_libgit2_init loads the CA bundle compiled
// into it (/etc/ssl/certs/ca-certificates.crt), decoding every certificate's base64 in constant
// time. That was the largest single item in a profile of launcher runs: 12.6 % of the user-space
// samples, node's and bash's included, CPU taken from node's --version on a two-core machine.
// The launcher never speaks TLS: libgit2 only reads the local worktree, and the sandbox has no
// network. With no CA loaded, a TLS connection through libgit2 would fail verification, which is
// the launcher's policy anyway.
//
// Only what is linked like the launcher has this; the host's binaries keep mbedTLS's function.
// tests/unit/launch/launcher_link.sh checks that libgit2's start reads no CA bundle.

extern "C" int __wrap_mbedtls_x509_crt_parse_file(void* /*chain*/, const char*) {
  // The chain libgit2 initialised stays empty; 0 is mbedTLS's "every certificate parsed".
  return 0;
}
