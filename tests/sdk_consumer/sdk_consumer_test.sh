#!/usr/bin/env bash
# Installs the SDK from the build tree into a temporary prefix, builds sdk/template out of
# tree against it with find_package(ReviewerSDK), and loads the result through the real plugin
# host (with a manifest, as an install would write it).
set -euo pipefail
build=$1 source=$2 load_check=$3
work=$(mktemp -d /tmp/reviewer-sdk-consumer.XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/ReviewerSDK/ReviewerSDKConfig.cmake"
cp -r "$work/prefix/share/reviewer/sdk-template" "$work/template"
cmake -S "$work/template" -B "$work/template-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$work/template-build"
mkdir -m 0755 "$work/plugins"
install -m 0644 "$work/template-build/hello.so" "$work/plugins/hello.so"
cmake -DDIR="$work/plugins" -P "$work/prefix/share/reviewer/cmake/WritePluginManifest.cmake"
out=$("$load_check" "$work/plugins")
echo "$out"
grep -qx "loaded hello claiming example-org/hello 0123456789abcdef0123456789abcdef01234567=v1.0.0" <<<"$out"
# The template's own fixtures, as its author runs them: its plugin from its own directory, beside
# the build tree's plugins, with no change to any install.
"$build/bin/reviewer" fixtures "$work/template" --plugin-dir "$work/plugins"
# Its own rule is explained as the core's are, and a plan's SARIF carries its entry as the help.
explained=$("$build/bin/reviewer" explain hello-sends-greeting --plugin-dir "$work/plugins")
grep -qF 'A rule of plugin `hello`' <<<"$explained"
grep -qF 'The review has no network' <<<"$explained"
if "$build/bin/reviewer" explain hello-sends-greeting >/dev/null 2>&1; then
  echo "unexpected: the rule was explained without the author's plugin" >&2
  exit 1
fi
mkdir -p "$work/repo/.github/workflows"
cat >"$work/repo/.github/workflows/ci.yml" <<'YML'
on: pull_request
jobs:
  greet:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1
      - uses: example-org/hello@0123456789abcdef0123456789abcdef01234567
        with:
          greeting: hi
          to: https://example.org/inbox
YML
sarif=$("$build/bin/reviewer" plan --workflow "$work/repo/.github/workflows/ci.yml" --job greet --base main \
  --format sarif --plugin-dir "$work/plugins") && { echo "unexpected: the plan passed" >&2; exit 1; }
grep -qF '"ruleId": "hello-sends-greeting"' <<<"$sarif"
grep -qF '"markdown": "example-org/hello sends the greeting' <<<"$sarif"
# The operator's image build takes the plugin from its author's directory, held to its manifest
# (docker/reviewer/add-plugins.sh, which build.sh --plugin-dir runs on the image's install).
add=$source/docker/reviewer/add-plugins.sh
author() {  # author NAME FILE...: an author's directory with FILEs and their manifest
  local dir=$work/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do install -m 0644 "$work/template-build/hello.so" "$dir/$f"; done
  cmake -DDIR="$dir" -P "$work/prefix/share/reviewer/cmake/WritePluginManifest.cmake"
  echo "$dir"
}
refused() {  # refused WHAT EXPECTED DIR: add-plugins.sh fails saying EXPECTED, the install unchanged
  local before out
  before=$(sha256sum "$work/image-plugins/MANIFEST.sha256" "$work/image-plugins/PLUGINS.index")
  if out=$("$add" "$build/bin/reviewer" "$work/image-plugins" "$3" 2>&1); then
    echo "unexpected: $1 was added" >&2
    exit 1
  fi
  grep -qF "$2" <<<"$out" || { echo "$1: expected \"$2\" in: $out" >&2; exit 1; }
  [[ $(sha256sum "$work/image-plugins/MANIFEST.sha256" "$work/image-plugins/PLUGINS.index") == "$before" ]] ||
    { echo "$1 changed the install" >&2; exit 1; }
  echo "refused, as it should be: $1"
}
cp -a "$build/plugins" "$work/image-plugins"
tampered=$(author tampered hello.so)
printf 'x' >>"$tampered/hello.so"
refused "a plugin changed after its manifest" "has SHA-256" "$tampered"
unlisted=$(author unlisted hello.so)
install -m 0644 "$work/template-build/hello.so" "$unlisted/extra.so"
refused "a plugin its manifest does not list" "extra.so is not in" "$unlisted"
refused "a plugin named as an installed one" "already holds a plugin of that name" \
  "$(author clash checkout.so)"
climbing=$(author climbing hello.so)
printf '%s  ../hello.so\n' "$(sha256sum "$climbing/hello.so" | cut -c1-64)" >"$climbing/MANIFEST.sha256"
refused "a manifest naming a path" "is not \"<sha256>  <name>.so\"" "$climbing"
refused "a plugin renamed from the name it declares" "plugin-name-mismatch" "$(author renamed hello2.so)"
"$add" "$build/bin/reviewer" "$work/image-plugins" "$(author good hello.so)"
grep -q '  hello.so$' "$work/image-plugins/MANIFEST.sha256"
grep -q 'example-org/hello' "$work/image-plugins/PLUGINS.index"
cmp "$work/template-build/hello.so" "$work/image-plugins/hello.so"
echo "the image's install takes the author's plugin"
# SameMajorVersion: a consumer asking for SDK 2 must not accept this SDK 1.
mkdir "$work/v2"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(v2 LANGUAGES CXX)\nfind_package(ReviewerSDK 2 REQUIRED)\n' >"$work/v2/CMakeLists.txt"
if cmake -S "$work/v2" -B "$work/v2-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null 2>&1; then
  echo "unexpected: SDK 1 satisfied find_package(ReviewerSDK 2)" >&2
  exit 1
fi
echo "sdk consumer: ok"
