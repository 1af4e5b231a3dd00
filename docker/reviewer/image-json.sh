#!/usr/bin/env bash
# The image description (share/reviewer/image.json) of a matrix image: where its runtimes stand
# and which versions they are. One writer for the review images (build.sh) and the run model's
# stage (stage-image.sh), which lay the runtimes out alike.
# corepack stands where Node's distributions put it, but its `corepack` command is not in node's
# bin directory: `corepack enable` writes its shims beside that command, so the launcher links it
# from each job's own writable directory (docs/dependencies.md, "corepack").
# Usage: image-json.sh NAME NODE_VERSION NPM_VERSION BUN_VERSION COREPACK_VERSION
set -euo pipefail
[[ $# -eq 5 ]] || { echo "usage: image-json.sh NAME NODE_VERSION NPM_VERSION BUN_VERSION COREPACK_VERSION" >&2; exit 2; }
cat <<JSON
{
  "name": "$1",
  "runtimes": {
    "node": { "path": "/opt/reviewer/runtimes/node/bin/node", "version": "$2" },
    "npm": { "path": "/opt/reviewer/runtimes/node/lib/node_modules/npm/bin/npm-cli.js", "version": "$3" },
    "bun": { "path": "/opt/reviewer/runtimes/bun/bin/bun", "version": "$4" },
    "corepack": { "path": "/opt/reviewer/runtimes/node/lib/node_modules/corepack/dist/lib/corepack.cjs", "version": "$5" }
  },
  "path": ["/opt/reviewer/runtimes/node/bin"]
}
JSON
