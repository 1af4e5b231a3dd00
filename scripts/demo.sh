#!/usr/bin/env bash
# README command 1: install what is needed, build, and review the bundled example
# (examples/node-app, job `test`, which needs `lint`) through `reviewer review`, as a reviewer
# host would. Its last line is the verdict, `review-build-ok`.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || exec sudo -E "$0" "$@"
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
docker/run-model/stage-image.sh build/release build/release/stage

# The example as a pull request's repository: its files committed on branch main.
repo=$(mktemp -d /tmp/reviewer-demo.XXXXXX)
trap 'rm -rf "$repo"' EXIT
cp -a examples/node-app/. "$repo/"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.name=reviewer -c user.email=reviewer@example.invalid commit -q -m example

build/release/bin/reviewer review "$repo" --workflow .github/workflows/ci.yml --job test \
  --base main --engine namespaces --stage build/release/stage --reports build/release/demo-reports
