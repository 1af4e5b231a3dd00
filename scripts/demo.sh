#!/usr/bin/env bash
# README command 1: install what is needed, build, and run a review build of the bundled
# example (examples/node-app, job `test`, which needs `lint`) in the run model.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || exec sudo -E "$0" "$@"
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
docker/run-model/stage-image.sh build/release build/release/stage
clone=$(mktemp -d /tmp/reviewer-demo.XXXXXX)
docker/run-model/make-clone.sh examples/node-app "$clone"
docker/run-model/run-model.sh --workspace "$clone" --prefix build/release/stage \
  --workflow .github/workflows/ci.yml --job test --base main
