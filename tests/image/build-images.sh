#!/usr/bin/env bash
# The image tests' fixture: builds every matrix image with docker/reviewer/build.sh, or exits
# 77 (ctest's SKIP_RETURN_CODE for this test) saying why this machine cannot.
# Usage: build-images.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${REVIEWER_ENGINE:-podman}
skip() { echo "image tests skipped: $*" >&2; exit 77; }
command -v "$engine" >/dev/null || skip "$engine is not installed (scripts/install-deps.sh installs podman)"
[[ $(id -u) -eq 0 ]] || skip "the recipe runs mmdebstrap and rootful $engine, which need root"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed"
"$here/../../docker/reviewer/engine.sh" info >/dev/null 2>&1 || skip "'$engine info' fails here"
exec "$here/../../docker/reviewer/build.sh" "$1"
