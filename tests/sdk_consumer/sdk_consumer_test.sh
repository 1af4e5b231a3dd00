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
# SameMajorVersion: a consumer asking for SDK 2 must not accept this SDK 1.
mkdir "$work/v2"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(v2 LANGUAGES CXX)\nfind_package(ReviewerSDK 2 REQUIRED)\n' >"$work/v2/CMakeLists.txt"
if cmake -S "$work/v2" -B "$work/v2-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null 2>&1; then
  echo "unexpected: SDK 1 satisfied find_package(ReviewerSDK 2)" >&2
  exit 1
fi
echo "sdk consumer: ok"
