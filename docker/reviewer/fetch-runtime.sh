#!/usr/bin/env bash
# Fetches one runtime of the trusted table from the npm registry (the only place runtimes come
# from) and prints the path of its tarball, verified before anything is unpacked: the file's
# SHA-512 must be the table's integrity and the runtime's binary inside it must have the table's
# SHA-256. Tarballs are kept in CACHE_DIR by integrity, so a second call does not ask the network.
#
# Usage: fetch-runtime.sh MATRIX CACHE_DIR TOOL VERSION
set -euo pipefail
matrix=$1 cache=$2 tool=$3 version=$4

entry() { jq -er --arg t "$tool" --arg v "$version" ".runtimes[\$t][\$v].$1" "$matrix"; }
package=$(entry package) || { echo "fetch-runtime: $tool $version is not in $matrix" >&2; exit 1; }
integrity=$(entry integrity)
binary=$(entry binary)
sha256=$(entry sha256)

# The file name is derived from the integrity, so a table edit can never reuse a stale file.
file="$cache/$(printf '%s' "$integrity" | sha256sum | cut -c1-32)-$tool-$version.tgz"
verify() {
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$1" | base64 -w0)"
  if [[ $got != "$integrity" ]]; then
    echo "fetch-runtime: $package: the tarball's integrity is $got, the table says $integrity" >&2
    return 1
  fi
  got=$(tar -xzOf "$1" "package/$binary" | sha256sum | cut -c1-64)
  if [[ $got != "$sha256" ]]; then
    echo "fetch-runtime: $package: package/$binary has SHA-256 $got, the table says $sha256" >&2
    return 1
  fi
}

if [[ ! -f $file ]] || ! verify "$file" 2>/dev/null; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.pack.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # The registry is the only network this needs; a passing hiccup gets two more tries.
  for attempt in 1 2 3; do
    (cd "$tmp" && npm pack "$package" --silent --ignore-scripts >/dev/null) && break
    [[ $attempt -lt 3 ]] || { echo "fetch-runtime: npm pack $package failed 3 times" >&2; exit 1; }
    sleep $((attempt * 5))
  done
  verify "$tmp"/*.tgz
  mv "$tmp"/*.tgz "$file"
fi
echo "$file"
