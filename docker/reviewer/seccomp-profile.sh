#!/usr/bin/env bash
# Prints the review sandbox's seccomp profile: the engine's default profile (podman's
# containers-common, /usr/share/containers/seccomp.json, or the file given) with the kernel's
# keyring calls denied as Docker's default denies them. podman's default allows keyctl, and
# keyrings are not namespaced by the sandbox: a step could read a key of its uid's keyring or leave
# one for the next job (docs/threat-model.md). Every other rule is the engine's own, so the
# sandbox keeps the engine's tested profile. docker/reviewer/seccomp.json is this script's output,
# checked by ctest (docker.seccomp_profile) against the installed default.
# Usage: seccomp-profile.sh [DEFAULT_PROFILE]
set -euo pipefail
default=${1:-/usr/share/containers/seccomp.json}
[[ -r $default ]] || { echo "seccomp-profile.sh: cannot read the engine's default profile $default" >&2; exit 2; }
jq --indent 1 '
  ["add_key", "keyctl", "request_key"] as $keyring
  | .syscalls |= map(
      if .action == "SCMP_ACT_ALLOW" then .names -= $keyring else . end
      | select((.names | length) > 0))
  | .syscalls += [{"names": $keyring, "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
                   "comment": "reviewer: keyrings are not namespaced; no step reaches one"}]
' "$default"
