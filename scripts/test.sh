#!/usr/bin/env bash
# README command 2: install what is needed, build with tests (the dev preset), and run the
# whole suite: unit tests, the plugin fixtures, the SDK consumer build, the end-to-end tests
# in the run model and the image tests (ctest label `image`: the review images are built by
# the image.build fixture with docker/reviewer/build.sh, then run with the production flags).
# Its last line is ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || exec sudo -E "$0" "$@"
scripts/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev
ctest --preset dev "$@"
