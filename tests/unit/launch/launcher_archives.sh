#!/usr/bin/env bash
# docker/reviewer/launcher-archives.sh, on this machine's packages: the launcher's archives are
# the versions the base records (scripts/install-deps.sh installs them) and the files the build
# linked, and each way they can disagree is refused by name.
# Usage: launcher_archives.sh SCRIPT BUILD_DIR BASE_PACKAGES
set -euo pipefail
script=$1 build=$2 base=$3
list=$build/launcher-archives.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect WANT_RC WANT_TEXT CMD...: the command's exit code and a line of its stderr
  local want_rc=$1 want=$2 rc=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" || rc=$?
  [[ $rc == "$want_rc" ]] || fail "$* exited $rc, not $want_rc: $(cat "$work/err")"
  [[ -z $want ]] || grep -qF -- "$want" "$work/err" || fail "$* did not say '$want': $(cat "$work/err")"
}

expect 0 "" "$script" check "$build" "$base"
[[ -z $("$script" pins "$base" libgit2-dev libssl-dev) ]] || fail "pins asked for a change"
echo "ok: the launcher's archives are the base's versions"

git2=$(grep -m1 '/libgit2\.a$' "$list") || fail "libgit2.a is not in $list"
sed 's/^libgit2-1.5 .*/libgit2-1.5 1.5.1+ds-1+deb12u99/' "$base" >"$work/newer"
expect 1 "$git2 is libgit2-dev $(dpkg-query -W -f='${Version}' libgit2-dev); the image's base has 1.5.1+ds-1+deb12u99: install libgit2-dev=1.5.1+ds-1+deb12u99" \
  "$script" check "$build" "$work/newer"
[[ $("$script" pins "$work/newer" libgit2-dev libssl-dev) == "libgit2-dev=1.5.1+ds-1+deb12u99" ]] ||
  fail "pins did not ask for libgit2-dev=1.5.1+ds-1+deb12u99"
echo "ok: another libgit2 in the base is refused, and pinned"

grep -v '^libyaml-0-2 ' "$base" >"$work/no-yaml"
expect 1 "the image's base holds no package of its source" "$script" check "$build" "$work/no-yaml"
echo "ok: a library the base does not carry is refused"

: >"$work/libstray.a"
mkdir "$work/stray"
printf '%s\n' "$work/libstray.a" >"$work/stray/launcher-archives.txt"
sha256sum "$work/libstray.a" >"$work/stray/launcher-archives.sha256"
expect 1 "$work/libstray.a belongs to no Debian package" "$script" check "$work/stray" "$base"
echo "ok: an archive of no package is refused"

# The build linked another libcrypto.a than the one installed now (an upgrade since).
crypto=$(grep -m1 '/libcrypto\.a$' "$list") || fail "libcrypto.a is not in $list"
mkdir "$work/stale"
cp "$list" "$work/stale/"
sed "s|^[0-9a-f]*  $crypto\$|$(printf '0%.0s' {1..64})  $crypto|" "$build/launcher-archives.sha256" \
  >"$work/stale/launcher-archives.sha256"
expect 1 "$crypto is not the file the launcher was linked with: build $work/stale again" \
  "$script" check "$work/stale" "$base"
expect 2 "has no launcher-archives.txt and .sha256: build it" "$script" check "$work" "$base"
echo "ok: a launcher linked before an archive changed is refused"
