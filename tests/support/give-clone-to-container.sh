#!/usr/bin/env bash
# Gives a clone to the image's user (uid and gid 1000) of a created container, as the host id the
# container's own user namespace (`--userns auto`) maps 1000 to, as core/host/container_engine.cpp
# does before it starts a review's sandbox. Usage: give-clone-to-container.sh ENGINE NAME DIR
set -euo pipefail
engine=$1 name=$2 dir=$3
ids=$("$engine" inspect --format '{{json .HostConfig.IDMappings}}' "$name" | jq -r '
  [.UidMap[], .GidMap[]]
  | map(split(":") | map(tonumber) | select(.[0] <= 1000 and 1000 < .[0] + .[2]) | .[1] + 1000 - .[0])
  | if length == 2 and .[0] >= 65536 and .[1] >= 65536 then "\(.[0]):\(.[1])" else empty end')
[[ -n $ids ]] || { echo "give-clone-to-container.sh: $name has no user namespace of its own" >&2; exit 1; }
chown -R --no-dereference "$ids" "$dir"
