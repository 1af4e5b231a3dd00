#!/usr/bin/env bash
# The launcher's libgit2 must not parse the CA bundle (core/cli/no_ca_bundle.cpp): its call of
# mbedtls_x509_crt_parse_file binds to the launcher's own definition, not mbedTLS's. Bound at
# once (LD_BIND_NOW) and reported by the dynamic loader itself; the launcher is refused by its
# argument right after, before it reads anything.
# Usage: ca_bundle_binding.sh LAUNCHER
set -euo pipefail
launcher=$1
bindings=$(LD_BIND_NOW=1 LD_DEBUG=bindings "$launcher" --no-such-argument 2>&1 >/dev/null |
  grep "normal symbol \`mbedtls_x509_crt_parse_file'" || true)
# libgit2's own reference, wherever the loader found libgit2 (its path is the loader's cache's).
bound=$(grep -F "/libgit2.so." <<<"$bindings" | grep -F " to $launcher [0]: normal symbol" || true)
if [[ -z $bound ]]; then
  echo "libgit2's mbedtls_x509_crt_parse_file is not bound to the launcher; the loader said:"
  echo "${bindings:-(no binding of that symbol)}"
  exit 1
fi
echo "ok: $bound"
