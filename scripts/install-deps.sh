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
  nodejs hyperfine jq strace
  podman runc catatonit mmdebstrap openssl
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
