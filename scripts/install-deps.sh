#!/usr/bin/env bash
# Installs every build and test dependency from Debian's archive by package name, including
# the engine and the root-fs builder of the image tests (podman, runc, catatonit, mmdebstrap).
# Idempotent: a machine that has them all pays one dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git util-linux
  clang clang-format clang-tidy libclang-rt-14-dev
  libboost-dev libboost-filesystem-dev libyaml-dev nlohmann-json3-dev libgit2-dev
  libpugixml-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libssl-dev libcli11-dev
  libcurl4-openssl-dev
  nodejs hyperfine jq strace time
  podman runc catatonit mmdebstrap openssl uidmap
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
apt_install() {
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}
if ((${#missing[@]})); then
  apt_install "${missing[@]}"
fi

# The -dev packages whose static archives the launcher links (cmake/ReviewerSystemLibraries.cmake)
# at the versions the image's base holds, so the launcher runs the same library code as the base
# pins (docker/reviewer/build.sh checks it). A version the archive no longer offers is reported;
# the image build then refuses by name, and everything else still builds and tests.
static_dev=(libgit2-dev libmbedtls-dev libhttp-parser-dev libssh2-1-dev libpcre2-dev zlib1g-dev
            libyaml-dev libpugixml-dev libssl-dev)
here=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t pins < <("$here/docker/reviewer/launcher-archives.sh" pins \
  "$here/docker/reviewer/base-packages.txt" "${static_dev[@]}")
if ((${#pins[@]})); then
  apt_install "${pins[@]}" ||
    echo "install-deps.sh: could not install ${pins[*]}: the image build will refuse" >&2
fi

# Every review's sandbox has a user namespace of its own, over host ids no account holds
# (docs/threat-model.md): podman's `--userns=auto` takes its ranges from the subordinate ids of
# the user `containers`, the namespaces engine (run-model.sh, through newuidmap) from root's.
# The two ranges are disjoint and above every account's id. A line an operator already wrote for
# either user is kept.
for file in /etc/subuid /etc/subgid; do
  for entry in containers:1000000000:1000000000 root:2000000000:1000000000; do
    grep -q "^${entry%%:*}:" "$file" 2>/dev/null || echo "$entry" | "${sudo_cmd[@]}" tee -a "$file" >/dev/null
  done
done
