#!/usr/bin/env bash
# Makes a host-style clone of SOURCE_DIR's files at CLONE_DIR: the files are committed to a
# fresh origin repository on branch `main`, then cloned as the host would (depth 1 without tags
# by default, or a full clone with --full).
#
# Usage: make-clone.sh [--full] SOURCE_DIR CLONE_DIR
set -euo pipefail
depth=(--depth 1 --no-tags)
if [[ ${1:-} == --full ]]; then depth=(); shift; fi
src=$(realpath "$1")
clone=$2
origin=$(mktemp -d /tmp/reviewer-origin.XXXXXX)
cp -a "$src/." "$origin/"
git -C "$origin" init -q -b main
git -C "$origin" -c user.name=reviewer -c user.email=reviewer@example.invalid add -A
git -C "$origin" -c user.name=reviewer -c user.email=reviewer@example.invalid commit -q -m "example"
rm -rf "$clone"
git clone -q "${depth[@]}" "file://$origin" "$clone"
rm -rf "$origin"
