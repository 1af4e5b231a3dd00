#!/usr/bin/env bash
# Feeds the runtime verification of the image build the attacks it exists for, and fails unless
# each is refused with its message:
#   integrity  a tarball whose SHA-512 is not the table's integrity (fetch-runtime.sh)
#   sha256     a runtime file whose SHA-256 is not the table's (fetch-runtime.sh)
#   dockerfile the Dockerfile's own check, handed a SHA-256 its tarball does not match
# Exit 77 (skipped) where the images could not be built. Usage: runtime-verification.sh BUILD_DIR CASE
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "$1")
matrix=$root/matrix/runtime-matrix.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
zeros=$(printf '0%.0s' {1..64})

# Runs CMD..., which must fail with `expected` in its output.
must_refuse() {
  local expected=$1 out
  shift
  if out=$("$@" 2>&1); then fail "accepted: $* (output: $out)"; fi
  [[ $out == *"$expected"* ]] || fail "refused without '$expected': $out"
  echo "refused as expected: $expected"
}

case $2 in
  integrity)
    bogus="sha512-$(printf 'A%.0s' {1..86})=="
    jq --arg i "$bogus" '.runtimes.npm["11.21.2"].integrity = $i' "$matrix" >"$tmp/m.json"
    real=$(jq -r '.runtimes.npm["11.21.2"].integrity' "$matrix")
    must_refuse "npm@11.21.2: the tarball's integrity is $real, the table says $bogus" \
      "$root/docker/reviewer/fetch-runtime.sh" "$tmp/m.json" "$tmp/cache" npm 11.21.2
    [[ -z $(find "$tmp/cache" -name '*.tgz') ]] || fail "a refused tarball was kept in the cache"
    ;;
  sha256)
    jq --arg s "$zeros" '.runtimes.npm["11.21.2"].sha256 = $s' "$matrix" >"$tmp/m.json"
    real=$(jq -r '.runtimes.npm["11.21.2"].sha256' "$matrix")
    must_refuse "npm@11.21.2: package/bin/npm-cli.js has SHA-256 $real, the table says $zeros" \
      "$root/docker/reviewer/fetch-runtime.sh" "$tmp/m.json" "$tmp/cache" npm 11.21.2
    [[ -z $(find "$tmp/cache" -name '*.tgz') ]] || fail "a refused tarball was kept in the cache"
    ;;
  dockerfile)
    image=reviewer-node20-bun1310
    "$root/docker/reviewer/engine.sh" image inspect "localhost/$image:latest" >/dev/null 2>&1 ||
      { echo "skipped: localhost/$image:latest was not built" >&2; exit 77; }
    v() { jq -r --arg t "$1" --arg n "$image" '.images[] | select(.name == $n) | .runtimes[$t]' "$matrix"; }
    s() { jq -r --arg t "$1" --arg v "$(v "$1")" '.runtimes[$t][$v].sha256' "$matrix"; }
    digest=$(jq -r .base.digest "$matrix")
    must_refuse "package/bin/bun: FAILED" \
      "$root/docker/reviewer/engine.sh" build --no-cache --force-rm -f "$root/docker/reviewer/Dockerfile" \
      --build-arg "BASE=localhost/reviewer-base@$digest" --build-arg "BASE_DIGEST=$digest" \
      --build-arg "IMAGE_NAME=$image" --build-arg PROJECT_VERSION=0 \
      --build-arg "NODE_VERSION=$(v node)" --build-arg "NODE_SHA256=$(s node)" \
      --build-arg "NPM_VERSION=$(v npm)" --build-arg "NPM_SHA256=$(s npm)" \
      --build-arg "BUN_VERSION=$(v bun)" --build-arg "BUN_SHA256=$zeros" \
      -t localhost/reviewer-verification-test:latest "$build/image-context"
    "$root/docker/reviewer/engine.sh" rmi -f localhost/reviewer-verification-test:latest >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: runtime-verification.sh BUILD_DIR integrity|sha256|dockerfile" >&2
    exit 2
    ;;
esac
