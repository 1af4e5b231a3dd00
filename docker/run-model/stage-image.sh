#!/usr/bin/env bash
# Installs a build into STAGE_DIR as the run model's image: the reviewer install
# (`cmake --install`, which writes the plugin manifest), Bun from the npm registry verified by
# package-lock.json's integrity, and share/reviewer/image.json naming the matrix image whose
# runtimes this machine provides (node at /usr/bin/node, bun under /opt/reviewer/runtimes).
# Bun and the unwrapped sfw go under /opt/reviewer/runtimes but not into image.json's `path`
# (every step's PATH): GitHub's runners carry neither, so on CI `bun` and `sfw` exist only after
# setup-bun and SocketDev/action ran; their plugins add the directories through GITHUB_PATH for
# the job's later steps.
#
# Usage: stage-image.sh BUILD_DIR STAGE_DIR
set -euo pipefail
build=$(realpath "$1")
stage=$2
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$stage"
mkdir -p "$stage"
stage=$(realpath "$stage")
cmake --install "$build" --prefix "$stage" >/dev/null

# Bun, cached per lockfile in the build tree so repeated stagings do not ask the registry.
cache="$build/run-model-runtimes"
if [[ ! -x $cache/node_modules/@oven/bun-linux-x64/bin/bun || $here/runtimes/package-lock.json -nt $cache/package-lock.json ]]; then
  rm -rf "$cache" && mkdir -p "$cache"
  cp "$here/runtimes/package.json" "$here/runtimes/package-lock.json" "$cache/"
  # The registry is the only network this needs; a passing hiccup gets two more tries.
  for attempt in 1 2 3; do
    (cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) && break
    [[ $attempt -lt 3 ]] || { echo "stage-image: npm ci failed 3 times" >&2; exit 1; }
    sleep $((attempt * 5))
  done
fi
install -D -m 0755 "$cache/node_modules/@oven/bun-linux-x64/bin/bun" "$stage/runtimes/bun/bin/bun"
install -D -m 0755 "$here/../reviewer/sfw" "$stage/runtimes/sfw/bin/sfw"

node_version=$(/usr/bin/node --version | sed 's/^v//')
bun_version=$("$stage/runtimes/bun/bin/bun" --version)
image=$(/usr/bin/node -e '
  const m = require(process.argv[1]);
  const hit = m.images.filter(i => i.runtimes.node === process.argv[2] && i.runtimes.bun === process.argv[3]);
  if (hit.length !== 1) { console.error(`no single matrix image has node ${process.argv[2]} and bun ${process.argv[3]}`); process.exit(1); }
  console.log(hit[0].name);' "$stage/share/reviewer/runtime-matrix.json" "$node_version" "$bun_version")
cat > "$stage/share/reviewer/image.json" <<JSON
{
  "name": "$image",
  "runtimes": {
    "node": { "path": "/usr/bin/node", "version": "$node_version" },
    "bun": { "path": "/opt/reviewer/runtimes/bun/bin/bun", "version": "$bun_version" }
  },
  "path": []
}
JSON
chmod -R go-w "$stage"
echo "staged $image (node $node_version, bun $bun_version) in $stage"
