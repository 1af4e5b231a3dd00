#!/usr/bin/env bash
# The one way this project calls a container engine: podman by default, docker when
# REVIEWER_ENGINE=docker. Podman reads containers.conf beside this script (runc, ulimits) unless
# the caller chose its own CONTAINERS_CONF. Usage: engine.sh ARG... (the engine's own arguments).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case "${REVIEWER_ENGINE:-podman}" in
  podman)
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/containers.conf}
    exec podman "$@"
    ;;
  docker)
    exec docker "$@"
    ;;
  *)
    echo "engine.sh: REVIEWER_ENGINE must be podman or docker, not '${REVIEWER_ENGINE}'" >&2
    exit 2
    ;;
esac
