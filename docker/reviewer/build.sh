#!/usr/bin/env bash
# Builds the review images of the trusted table (matrix/runtime-matrix.json) from a reviewer
# build: every matrix image, or the ones named. Each is tagged localhost/<matrix image name>:latest;
# the last lines are one per image, `<matrix image name> <image id>`.
#
#   1. The base: mmdebstrap (suite, variant, sources and exact package versions from the table,
#      SOURCE_DATE_EPOCH from the table), imported as one layer with a fixed timestamp. It is
#      cached twice, keyed by those inputs: the root fs tar under BUILD_DIR/image-cache and the
#      engine's image localhost/reviewer-base:<key>. Its digest must be the table's.
#   2. The runtimes: npm registry tarballs, verified against the table (fetch-runtime.sh).
#   3. The reviewer install (`cmake --install BUILD_DIR`) and one image.json per image; the
#      launcher's static archives must be the versions the base holds (launcher-archives.sh).
#   4. `build` of Dockerfile FROM the base by digest (podman) or by image id (docker).
#
#   With --plugin-dir DIR (repeatable), the reviewed plugins an author built outside this tree
#   (DIR holds them and their MANIFEST.sha256) join the install's, held to the same checks
#   (add-plugins.sh).
#
# Usage: build.sh [--plugin-dir DIR]... BUILD_DIR [IMAGE...]
#        engine: podman, or docker with REVIEWER_ENGINE=docker
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
extra_plugins=()
while [[ ${1:-} == --plugin-dir ]]; do
  (($# >= 2)) || { echo "build.sh: --plugin-dir takes a directory" >&2; exit 2; }
  extra_plugins+=("$(realpath "$2")")
  shift 2
done
build=$(realpath "$1")
shift
matrix=$root/matrix/runtime-matrix.json
engine() { "$here/engine.sh" "$@"; }
say() { echo "build.sh: $*" >&2; }
podman_engine() { [[ ${REVIEWER_ENGINE:-podman} == podman ]]; }

"$build/bin/reviewer" matrix check "$matrix" >&2
if (($#)); then names=("$@"); else mapfile -t names < <(jq -r '.images[].name' "$matrix"); fi
for n in "${names[@]}"; do
  jq -e --arg n "$n" 'any(.images[]; .name == $n)' "$matrix" >/dev/null ||
    { say "'$n' is not an image of $matrix"; exit 2; }
done

# 1. The base.
# Every package the recorded base holds, `name version` a line, recorded beside the digest.
base_packages=$here/base-packages.txt
installed_packages() {
  tar -xOf "$1" ./var/lib/dpkg/status |
    awk '/^Package: /{p=$2} /^Version: /{print p, $2}' | LC_ALL=C sort
}
epoch=$(jq -r '.base.source_date_epoch' "$matrix")
key=$(jq -cS '.base | {suite, variant, sources, packages, source_date_epoch}' "$matrix" |
  sha256sum | cut -c1-16)
base_tag=localhost/reviewer-base:$key
base_dir=$build/image-cache/base-$key
if ! engine image inspect "$base_tag" >/dev/null 2>&1; then
  if [[ ! -f $base_dir/rootfs.tar ]]; then
    mkdir -p "$base_dir"
    includes=$(jq -r '.base.packages | to_entries | map("\(.key)=\(.value)") | join(",")' "$matrix")
    mapfile -t sources < <(jq -r '.base.sources[]' "$matrix")
    say "mmdebstrap $(jq -r .base.suite "$matrix") ($includes)"
    SOURCE_DATE_EPOCH=$epoch mmdebstrap --quiet --variant="$(jq -r .base.variant "$matrix")" \
      --include="$includes" "$(jq -r .base.suite "$matrix")" "$base_dir/rootfs.part.tar" \
      "${sources[@]}" >&2
    rm -rf "$base_dir/rootfs.tar" && mv "$base_dir/rootfs.part.tar" "$base_dir/rootfs.tar"
  fi
  rootfs_sha256=$(sha256sum "$base_dir/rootfs.tar" | cut -c1-64)
  want=$(jq -r .base.rootfs_sha256 "$matrix")
  if [[ $rootfs_sha256 != "$want" ]]; then
    say "the root fs has SHA-256 $rootfs_sha256, the table records $want"
    # What a maintainer reviews before recording: the packages that moved, not a bare hash.
    [[ -f $base_packages ]] && installed_packages "$base_dir/rootfs.tar" |
      diff -U0 "$base_packages" - | grep '^[-+][^-+]' |
      sed 's/^/build.sh: installed package /' >&2 || true
  fi
  cp "$here/base.Containerfile" "$base_dir/Containerfile"
  if podman_engine; then
    engine build --quiet --timestamp "$epoch" -t "$base_tag" "$base_dir" >/dev/null
  else
    engine build --quiet -t "$base_tag" "$base_dir" >/dev/null
  fi
fi
base_digest=$(jq -r .base.digest "$matrix")
if podman_engine; then
  got=$(engine image inspect --format '{{.Digest}}' "$base_tag")
  if [[ $got != "$base_digest" && ${REVIEWER_RECORD_BASE:-} == 1 ]]; then
    # A maintainer's step after a reviewed change to the base: the diff of the table shows it.
    rootfs_sha256=$(sha256sum "$base_dir/rootfs.tar" | cut -c1-64)
    jq --arg r "$rootfs_sha256" --arg d "$got" '.base.rootfs_sha256 = $r | .base.digest = $d' \
      "$matrix" >"$matrix.new" && mv "$matrix.new" "$matrix"
    installed_packages "$base_dir/rootfs.tar" >"$base_packages"
    say "recorded base rootfs_sha256 $rootfs_sha256 and digest $got in $matrix"
    base_digest=$got
  fi
  if [[ $got != "$base_digest" ]]; then
    say "the base built from the table has digest $got, the table records $base_digest:" \
      "Debian's archive changed, or the build is not reproducible here; after review, record" \
      "the new values with REVIEWER_RECORD_BASE=1 ($base_tag)"
    exit 1
  fi
  base_ref=localhost/reviewer-base@$base_digest
else
  # Docker cannot name a local image by a digest it never pushed; its image id pins it instead.
  base_ref=$(engine image inspect --format '{{.Id}}' "$base_tag")
fi

# 2.-3. The build context: verified runtime tarballs, the reviewer install, image.json files.
ctx=$build/image-context
# The launcher carries this machine's static archives of libgit2, libcrypto, ...: they must be
# the versions the base pins for those libraries.
"$here/launcher-archives.sh" check "$build" "$base_packages" ||
  { say "the launcher links libraries the base does not pin (above)"; exit 2; }
rm -rf "$ctx/reviewer" "$ctx/images"
mkdir -p "$ctx/runtimes" "$ctx/images"
cmake --install "$build" --prefix "$ctx/reviewer" >/dev/null
if ((${#extra_plugins[@]})); then
  "$here/add-plugins.sh" "$build/bin/reviewer" "$ctx/reviewer/plugins" "${extra_plugins[@]}"
fi
install -m 0755 "$here/sfw" "$ctx/sfw"
chmod -R go-w "$ctx/reviewer"
version=$(sed -n 's/^project(reviewer VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
declare -A fetched=()  # each tarball is verified once per run, however many images share it
for n in "${names[@]}"; do
  declare -A v=()
  for tool in node npm bun corepack; do
    v[$tool]=$(jq -er --arg n "$n" --arg t "$tool" '.images[] | select(.name == $n) | .runtimes[$t]' "$matrix")
    if [[ -z ${fetched[$tool-${v[$tool]}]:-} ]]; then
      tarball=$("$here/fetch-runtime.sh" "$matrix" "$build/image-cache/runtimes" "$tool" "${v[$tool]}")
      ln -f "$tarball" "$ctx/runtimes/$tool-${v[$tool]}.tgz"
      fetched[$tool-${v[$tool]}]=1
    fi
  done
  sha() { jq -r --arg t "$1" --arg v "$2" '.runtimes[$t][$v].sha256' "$matrix"; }
  "$here/image-json.sh" "$n" "${v[node]}" "${v[npm]}" "${v[bun]}" "${v[corepack]}" \
    >"$ctx/images/$n.json"
  # 4. The image.
  args=(--build-arg "BASE=$base_ref" --build-arg "BASE_DIGEST=$base_digest"
    --build-arg "IMAGE_NAME=$n" --build-arg "PROJECT_VERSION=$version")
  for tool in node npm bun corepack; do
    upper=${tool^^}
    args+=(--build-arg "${upper}_VERSION=${v[$tool]}" --build-arg "${upper}_SHA256=$(sha "$tool" "${v[$tool]}")")
  done
  if podman_engine; then args+=(--timestamp "$epoch"); fi
  say "building localhost/$n:latest"
  # The image the tag named before is left alone (it may be another build's, in use): a rebuild
  # after a code change leaves only its reviewer layer (~60 MB) untagged; `podman image prune`.
  engine build --quiet "${args[@]}" -f "$here/Dockerfile" -t "localhost/$n:latest" "$ctx" >/dev/null
  unset v
done
for n in "${names[@]}"; do
  echo "$n $(engine image inspect --format '{{.Id}}' "localhost/$n:latest")"
done
