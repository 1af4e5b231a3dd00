#!/usr/bin/env bash
# How reviewer-launch is linked (cmake/ReviewerSystemLibraries.cmake), checked on the binaries:
#   1. the launcher maps no shared object but the C and C++ runtimes, fmt, and the sanitizers'
#      runtimes in a sanitizer build;
#   2. libgit2's start reads the CA bundle when linked like the host's binaries (the control:
#      this test can see the read), and does not when linked like the launcher
#      (core/cli/no_ca_bundle.cpp);
#   3. linked like the launcher, libgit2 asked for Negotiate finds no GSS-API mechanism and says
#      so (core/cli/no_gssapi.cpp).
# Usage: launcher_link.sh LAUNCHER PROBE_LIKE_LAUNCHER PROBE_LIKE_HOST
set -euo pipefail
launcher=$1 probe=$2 host_probe=$3
fail() { echo "FAIL: $*"; exit 1; }

needed=$(readelf -d "$launcher" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
allowed='^(libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libfmt\.so\.[0-9]+|ld-linux-x86-64\.so\.2'
allowed+='|libasan\.so\.[0-9]+|libubsan\.so\.[0-9]+|libclang_rt\.[a-z_-]+-x86_64\.so)$'
extra=$(grep -Ev "$allowed" <<<"$needed" || true)
[[ -z $extra ]] || fail "the launcher needs shared objects beyond the runtimes: $(echo $extra)"
echo "ok: the launcher needs only $(echo $needed)"

ca=/etc/ssl/certs/ca-certificates.crt
[[ -f $ca ]] || fail "$ca is missing: the control cannot show libgit2 reading it"
opened() { strace -f -qq -e trace=open,openat -o /dev/stdout "$@" init 2>/dev/null | grep -F "\"$ca\"" || true; }
[[ -n $(opened "$host_probe") ]] || fail "linked like the host, libgit2's start did not open $ca: this check sees nothing"
got=$(opened "$probe")
[[ -z $got ]] || fail "linked like the launcher, libgit2's start opened the CA bundle: $got"
echo "ok: libgit2 opens $ca linked like the host, not linked like the launcher"

answer=$("$probe" negotiate)
[[ $answer == "-1 negotiate authentication is not supported" ]] ||
  fail "libgit2 asked for Negotiate answered: $answer"
echo "ok: $answer"
