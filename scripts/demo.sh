#!/usr/bin/env bash
# README command 1: install what is needed, build, build the review image the bundled example
# needs, and review the example (examples/node-app, job `test`, which needs `lint`) through
# `reviewer review` in that real image with the production sandbox flags, as a reviewer host
# would. Its last line is the verdict, `review-build-ok`.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || exec sudo -E "$0" "$@"
scripts/install-deps.sh
# The product alone: no test or benchmark is built (275 of the release preset's 500 build steps).
cmake --preset product >/dev/null
cmake --build --preset product
reviewer=build/product/bin/reviewer
workflow=.github/workflows/ci.yml

# The one image of the trusted table that the example's declarations select.
image=$("$reviewer" resolve examples/node-app --workflow "examples/node-app/$workflow" --job test)
docker/reviewer/build.sh build/product "$image"

# The example as a pull request's repository: its files committed on branch main.
repo=$(mktemp -d /tmp/reviewer-demo.XXXXXX)
trap 'rm -rf "$repo"' EXIT
cp -a examples/node-app/. "$repo/"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.name=reviewer -c user.email=reviewer@example.invalid commit -q -m example

"$reviewer" review "$repo" --workflow "$workflow" --job test --base main --engine podman \
  --reports build/product/demo-reports
