#!/usr/bin/env bash
# The sandbox's seccomp profile (docker/reviewer/seccomp.json) is the engine's default with the
# keyring calls denied: no rule allows add_key, keyctl or request_key, a rule denies all three, and
# regenerated from this machine's default it is the committed file. Without podman's default
# profile the comparison is skipped (exit 77), the denial still checked.
set -euo pipefail
source_dir=$1
profile=$source_dir/docker/reviewer/seccomp.json
allowed=$(jq -r '[.syscalls[] | select(.action == "SCMP_ACT_ALLOW") | .names[]
                  | select(. == "add_key" or . == "keyctl" or . == "request_key")] | join(" ")' "$profile")
[[ -z $allowed ]] || { echo "FAIL: the profile allows $allowed"; exit 1; }
denied=$(jq -r '[.syscalls[] | select(.action == "SCMP_ACT_ERRNO") | .names[]
                 | select(. == "add_key" or . == "keyctl" or . == "request_key")] | length' "$profile")
[[ $denied == 3 ]] || { echo "FAIL: the profile denies $denied of the 3 keyring calls"; exit 1; }
[[ $(jq -r .defaultAction "$profile") == SCMP_ACT_ERRNO ]] || { echo "FAIL: the default action is not ERRNO"; exit 1; }
default=/usr/share/containers/seccomp.json
if [[ ! -r $default ]]; then
  echo "SKIP: no engine default profile at $default to compare with"
  exit 77
fi
if ! diff -u "$profile" <("$source_dir/docker/reviewer/seccomp-profile.sh" "$default"); then
  echo "FAIL: docker/reviewer/seccomp.json is not this engine's default less the keyring calls;"
  echo "      regenerate it: docker/reviewer/seccomp-profile.sh > docker/reviewer/seccomp.json"
  exit 1
fi
echo "ok: the profile is the engine's default with add_key, keyctl and request_key denied"
