#!/usr/bin/env bash
# Installs a build into STAGE_DIR as the run model's image: the reviewer install
# (`cmake --install`, which writes the plugin manifest), the runtimes of the matrix image
# reviewer-node22-bun1310 from the npm registry, verified against the trusted table
# (docker/reviewer/fetch-runtime.sh), and share/reviewer/image.json naming that image. The
# run model's root is the host's /usr, so its own node (if any) stays where it is; the image's
# node and npm come first on every step's PATH (image.json `path`), as in the real images.
# Bun and the unwrapped sfw go under /opt/reviewer/runtimes but not into `path`: GitHub's
# runners carry neither, so on CI `bun` and `sfw` exist only after setup-bun and SocketDev/action
# ran; their plugins add the directories through GITHUB_PATH for the job's later steps.
#
# Usage: stage-image.sh BUILD_DIR STAGE_DIR
set -euo pipefail
build=$(realpath "$1")
stage=$2
here=$(cd "$(dirname "$0")" && pwd)
image=reviewer-node22-bun1310

rm -rf "$stage"
mkdir -p "$stage"
stage=$(realpath "$stage")
cmake --install "$build" --prefix "$stage" >/dev/null
matrix=$stage/share/reviewer/runtime-matrix.json

# Tarballs are cached by integrity in the build tree, so repeated stagings do not ask the registry.
declare -A v
for tool in node npm bun corepack; do
  v[$tool]=$(jq -er --arg n "$image" --arg t "$tool" '.images[] | select(.name == $n) | .runtimes[$t]' "$matrix")
  tarball=$("$here/../reviewer/fetch-runtime.sh" "$matrix" "$build/image-cache/runtimes" "$tool" "${v[$tool]}")
  mkdir -p "$stage/runtimes/.unpack/$tool"
  tar -xzf "$tarball" -C "$stage/runtimes/.unpack/$tool"
done
unpack=$stage/runtimes/.unpack
install -D -m 0755 "$unpack/node/package/bin/node" "$stage/runtimes/node/bin/node"
mkdir -p "$stage/runtimes/node/lib/node_modules"
mv "$unpack/npm/package" "$stage/runtimes/node/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/runtimes/node/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/runtimes/node/bin/npx"
install -D -m 0755 "$unpack/bun/package/bin/bun" "$stage/runtimes/bun/bin/bun"
mv "$unpack/corepack/package" "$stage/runtimes/node/lib/node_modules/corepack"
rm -rf "$unpack"
install -D -m 0755 "$here/../reviewer/sfw" "$stage/runtimes/sfw/bin/sfw"

"$here/../reviewer/image-json.sh" "$image" "${v[node]}" "${v[npm]}" "${v[bun]}" "${v[corepack]}" \
  >"$stage/share/reviewer/image.json"
chmod -R go-w "$stage"
echo "staged $image (node ${v[node]}, npm ${v[npm]}, bun ${v[bun]}) in $stage"
