#!/usr/bin/env bash
# The production sandbox without Docker (docs/run-model.md).
#
# Production: `docker create --init --read-only --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run
# --network none --cap-drop ALL --security-opt no-new-privileges --workdir /workspace
# -e REVIEWER_CI_WORKFLOW=.. -e REVIEWER_CI_JOB=.. -e REVIEWER_CI_BASE=.. <image> sleep infinity`,
# then `docker exec <sandbox> /opt/reviewer/bin/reviewer-launch`.
#
# Here: util-linux namespaces. A new PID, mount, network, IPC and UTS namespace whose PID 1 is
# `sleep infinity` holding the assignment in its environment, as root with no capabilities and
# no_new_privs (so no step, uid 1000, can write its memory), in a read-only root made of
# read-only binds of the host's /usr and /etc, tmpfs on /tmp, /var/tmp and /run, loopback only,
# /workspace bound read-write to a clone and
# /opt/reviewer bound read-only to an install prefix. The launcher is started later inside those
# namespaces with nsenter, as `podman exec --user 0` would: root with only CAP_SETUID and
# CAP_SETGID, which it uses once to become uid 1000 for good (docs/host.md).
#
# Usage:
#   run-model.sh --workspace DIR --prefix DIR [--assign REVIEWER_CI_NAME=VALUE]...
#                [--caller-env NAME=VALUE]...
#                [--exec PROGRAM] [--before CMD] [--after CMD] [--pid1-as-steps]
#                [--pids-limit N] [--memory SIZE] [--cpus N]
#                [--pass-env NAME]... [--reports DIR] [--deps DIR] [--pristine DIR]
#                [--owner PID:START] [--net-path PATH] [--exec-as-user] [-- ARG...]
# The --assign entries are the sandbox's assignment, PID 1's creation environment, as
# `reviewer assignment` (or the host's own encoder, core/contract/assignment.h) writes them; this
# script never spells them. It passes them on unread, so a test can hand the launcher a broken one.
# Runs /opt/reviewer/bin/reviewer-launch (or PROGRAM) in a fresh sandbox with ARGs and exits
# with its exit status; with --reports, first copies /tmp/review/report.json and report.xml out
# of the sandbox into DIR; with --deps, binds DIR read-only at /var/cache/reviewer-deps (the
# review's dependency view); with --pristine, binds DIR read-only at /var/lib/reviewer-pristine
# (the review's pristine clone, which the launcher copies into the worktree before every job:
# core/launch/fresh_worktree.h); --pass-env NAME adds NAME with its value in this script's
# environment to the launcher's (the host's verdict nonce, kept out of every argv the host's
# process list shows). --before and --after run `bash -c CMD` as the sandbox user in the same
# sandbox, before and after the launcher (a second `podman exec --user 1000`), their output on
# stdout. --pid1-as-steps builds the weaker layout of a host that runs PID 1 and the launcher as
# the steps' user (a step can then write PID 1's memory: what the launcher's probe reports).
# --pids-limit, --memory (a size with k, m or g) and --cpus (a quota in CPUs, decimals allowed)
# are podman's limits, applied through a cgroup of their own where this machine lets root make
# one (cgroup v1 pids, memory and cpu hierarchies, or v2), defaults 4096, 8g and 2 as
# `reviewer review`'s; where it does not, a line on stderr says which limit is missing.
# --net-path joins the network namespace at PATH instead of making one (the namespaces engine's
# dependency resolution: the host made it, with only a loopback on which it serves the registry;
# the sandbox's root has no rights over it, so its loopback is already up), and
# --exec-as-user runs PROGRAM as the sandbox user with no capability instead of as the launcher.
# --owner names the host process that runs this script (its pid and start time, as
# core/host/host_identity.h writes them): the script records itself and its owner in
# /run/reviewer/sandboxes/PID while it runs, so that `reviewer gc` can end a sandbox whose host was
# killed outright (it sends this script SIGTERM, on which the sandbox is removed).
# Must run as root (it creates the namespaces).
set -euo pipefail

exec_as_user="" net_namespace=--net net_path="" owner="" pristine="" workspace="" prefix="" reports="" deps=""
before="" after="" pid1_as_steps="" pids_limit=4096 memory_limit=8g cpus_limit=2
program=/opt/reviewer/bin/reviewer-launch
caller_env=() assignment=()
while (($#)); do
  case "$1" in
    --workspace) workspace=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --assign)
      # Only the assignment's variables, as `reviewer assignment` writes them: no other entry
      # reaches PID 1's environment, and none can be read by env as an option or a command.
      [[ $2 =~ ^REVIEWER_CI_[A-Z_]+= ]] || { echo "run-model: --assign takes REVIEWER_CI_NAME=VALUE, not \"${2:0:80}\"" >&2; exit 2; }
      assignment+=("$2"); shift 2 ;;
    --caller-env) caller_env+=("$2"); shift 2 ;;
    --pass-env) caller_env+=("$2=${!2-}"); shift 2 ;;
    --exec) program=$2; shift 2 ;;
    --exec-as-user) exec_as_user=true; shift ;;
    --net-path) net_path=$2; net_namespace=""; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --pid1-as-steps) pid1_as_steps=true; shift ;;
    --pids-limit) pids_limit=$2; shift 2 ;;
    --memory) memory_limit=$2; shift 2 ;;
    --cpus) cpus_limit=$2; shift 2 ;;
    --reports) reports=$2; shift 2 ;;
    --deps) deps=$(realpath "$2"); shift 2 ;;
    --owner) owner=$2; shift 2 ;;
    --pristine) pristine=$(realpath "$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run-model: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for v in workspace prefix; do
  [[ -n ${!v} ]] || { echo "run-model: --$v is required" >&2; exit 2; }
done
[[ $(id -u) -eq 0 ]] || { echo "run-model: must run as root (it creates namespaces)" >&2; exit 2; }
workspace=$(realpath "$workspace")
prefix=$(realpath "$prefix")
sandbox_uid=1000

# Every sandbox gets a user namespace of its own, mapping its ids 0-65533 to a range of host ids
# that no host account and no other live sandbox holds (65534, the kernel's overflow id, stays
# unmapped, so the host's files, the install among them, show as owned by nobody inside, whom no
# process inside can be; core/plugins/file_checks.h): a slot of root's subordinate ids
# (/etc/subuid and /etc/subgid, which scripts/install-deps.sh fills), taken under a lock that the
# sandbox's PID 1 holds for as long as the sandbox lives. Inside, the steps' user stays 1000, but
# on the host it is nobody's: no host process of uid 1000 reaches the sandbox through
# /proc/PID/root, no other review shares its process count (RLIMIT_NPROC) or its keyrings.
range_size=65534
subordinate_range() {  # subordinate_range FILE: "START COUNT" of root's first range
  awk -F: '$1 == "root" || $1 == "0" { print $2, $3; exit }' "$1" 2>/dev/null
}
read -r uid_start uid_count < <(subordinate_range /etc/subuid) || true
read -r gid_start gid_count < <(subordinate_range /etc/subgid) || true
if [[ -z ${uid_start:-} || -z ${gid_start:-} || $uid_start != "$gid_start" || ${uid_count:-0} -lt $range_size || $uid_count != "${gid_count:-}" ]]; then
  echo "run-model: root has no subordinate id range of at least $range_size, the same in /etc/subuid and /etc/subgid, for the sandbox's user namespace; scripts/install-deps.sh adds root:2000000000:1000000000 to both" >&2
  exit 4
fi
slots=$((uid_count / range_size))
range_locks=/run/reviewer/user-ranges
mkdir -p "$range_locks" && chmod 0700 /run/reviewer "$range_locks"
range_lock_fd="" id_base=""
first=$(( (RANDOM * 32768 + RANDOM) % slots ))
for ((try = 0; try < slots; try++)); do
  slot=$(( (first + try) % slots ))
  exec {range_lock_fd}>"$range_locks/$slot.lock"
  if flock --nonblock "$range_lock_fd"; then
    id_base=$((uid_start + slot * range_size))
    break
  fi
  exec {range_lock_fd}>&-
done
[[ -n $id_base ]] || { echo "run-model: every one of the $slots subordinate id ranges is held by a live sandbox" >&2; exit 4; }
host_sandbox_uid=$((id_base + sandbox_uid))
# Who PID 1 and the launcher start as: root without capabilities, and root with only what it
# takes to become the sandbox user; or, in the weaker layout, the sandbox user for both.
if [[ -n $pid1_as_steps ]]; then
  pid1_uid=$sandbox_uid launcher_uid=$sandbox_uid launcher_caps=-all
else
  pid1_uid=0 launcher_uid=0 launcher_caps=-all,+setuid,+setgid
fi

# The sandbox user owns the worktree, as the container user owns its bind-mounted clone: on the
# host that is the id the sandbox's user namespace maps 1000 to.
chown -R "$host_sandbox_uid:$host_sandbox_uid" "$workspace"

[[ $pids_limit =~ ^[1-9][0-9]*$ ]] || { echo "run-model: --pids-limit is a positive integer" >&2; exit 2; }
# podman's spellings: 512m, 512M, 512mb, 8g, 4096k, 1073741824 (bytes), 1073741824b.
[[ $memory_limit =~ ^([1-9][0-9]*)([bBkKmMgG]?)[bB]?$ ]] || { echo "run-model: --memory is a size such as 512m or 8g" >&2; exit 2; }
memory_bytes=${BASH_REMATCH[1]}
case ${BASH_REMATCH[2],,} in k) memory_bytes=$((memory_bytes << 10)) ;; m) memory_bytes=$((memory_bytes << 20)) ;; g) memory_bytes=$((memory_bytes << 30)) ;; esac
[[ $cpus_limit =~ ^[0-9]+(\.[0-9]{1,3})?$ && $cpus_limit != 0 && $cpus_limit != 0.0* ]] || { echo "run-model: --cpus is a positive number of CPUs" >&2; exit 2; }
cpu_period=100000
cpu_quota=$(awk -v c="$cpus_limit" -v p=$cpu_period 'BEGIN { printf "%d", c * p }')

cgroup_dirs=()
newroot=$(mktemp -d /tmp/reviewer-sandbox.XXXXXX)
ready=$(mktemp /tmp/reviewer-sandbox-ready.XXXXXX)
setup_log=$(mktemp /tmp/reviewer-sandbox-log.XXXXXX)
cleanup() {
  # PID 1 dies with SIGKILL from outside its namespace, and takes every process in it along;
  # setpriv's credential change cleared unshare's --kill-child, so kill it directly.
  if [[ -n ${pid1:-} ]]; then kill -KILL "$pid1" 2>/dev/null || true; fi
  if [[ -n ${sandbox_pid:-} ]]; then kill -KILL "$sandbox_pid" 2>/dev/null || true; wait "$sandbox_pid" 2>/dev/null || true; fi
  rmdir "$newroot" 2>/dev/null || true
  rm -f "$ready" "$setup_log" ${sandbox_record:+"$sandbox_record"}
  # Out of the cgroups, then remove them once the killed processes have left them.
  local dir
  for dir in "${cgroup_dirs[@]}"; do
    echo $$ >"$(dirname "$dir")/cgroup.procs" 2>/dev/null || true
    for _ in $(seq 1 50); do rmdir "$dir" 2>/dev/null && break; sleep 0.1; done
  done
}
trap cleanup EXIT
# Who runs this sandbox, for `reviewer gc` (core/host/leftovers.h).
sandbox_record=""
if [[ -n $owner ]]; then
  [[ $owner =~ ^[0-9]+:[0-9]+$ ]] || { echo "run-model: --owner is PID:START" >&2; exit 2; }
  self_stat=$(</proc/$$/stat)
  read -r -a self_fields <<<"${self_stat##*) }"
  mkdir -p /run/reviewer/sandboxes && chmod 0700 /run/reviewer/sandboxes
  sandbox_record=/run/reviewer/sandboxes/$$
  echo "$owner $$:${self_fields[19]}" >"$sandbox_record"
fi
# A host that stops this script with a signal still gets its temporary files and cgroups back.
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# The limits: this script joins a new cgroup per controller, so the sandbox's PID 1 and every
# process entered into it later inherit them. Each limit is applied where the machine allows it.
join_cgroup() {  # join_cgroup DIR FILE=VALUE...
  local dir=$1; shift
  mkdir "$dir" 2>/dev/null || return 1
  cgroup_dirs+=("$dir")
  local kv
  for kv in "$@"; do echo "${kv#*=}" >"$dir/${kv%%=*}" 2>/dev/null || return 1; done
  echo $$ >"$dir/cgroup.procs" 2>/dev/null
}
cgroup_name=reviewer-sandbox-$$
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
  own=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
  join_cgroup "/sys/fs/cgroup${own%/}/$cgroup_name" "pids.max=$pids_limit" "memory.max=$memory_bytes" \
    "memory.swap.max=0" "cpu.max=$cpu_quota $cpu_period" ||
    echo "run-model: no cgroup limits here (cgroup v2 at ${own:-/} takes no child with pids, memory and cpu)" >&2
else
  for controller in pids memory cpu; do
    own=$(awk -F: -v c=$controller '$2 == c { print $3 }' /proc/self/cgroup)
    case $controller in
      pids) settings=("pids.max=$pids_limit") ;;
      memory) settings=("memory.limit_in_bytes=$memory_bytes") ;;
      cpu) settings=("cpu.cfs_period_us=$cpu_period" "cpu.cfs_quota_us=$cpu_quota") ;;
    esac
    [[ -d /sys/fs/cgroup/$controller ]] && join_cgroup "/sys/fs/cgroup/$controller${own%/}/$cgroup_name" "${settings[@]}" ||
      echo "run-model: no $controller limit here (the cgroup v1 $controller hierarchy takes no child)" >&2
  done
fi

# The sandbox's PID 1: set up the mounts inside the new mount namespace, then become
# `sleep infinity` with only the assignment in its environment.
setup=$(cat <<'SETUP'
set -euo pipefail
newroot=$1 workspace=$2 prefix=$3 uid=$4 ready=$5 deps=$6 pristine=$7 net_given=$8
shift 8  # the rest: the assignment's NAME=VALUE entries
mount --make-rprivate /
mount -t tmpfs -o mode=0755,size=16m tmpfs "$newroot"
mkdir -p "$newroot"/{usr,etc,proc,dev,tmp,var/tmp,run,workspace,opt/reviewer}
for d in usr etc; do mount --rbind -o ro "/$d" "$newroot/$d"; mount -o remount,bind,ro "$newroot/$d"; done
# The host's /etc stands in for the image's, whose debian:bookworm-slim base has no
# /etc/gitconfig: a host's (a development machine's credential helper, say) must not pass for
# the image's, neither to the self-check's credential scan nor to git in a step.
if [[ -e /etc/gitconfig ]]; then
  mkdir -p "$newroot/.host-masks" && : >"$newroot/.host-masks/gitconfig"
  mount --bind "$newroot/.host-masks/gitconfig" "$newroot/etc/gitconfig"
  mount -o remount,bind,ro "$newroot/etc/gitconfig"
fi
for l in bin sbin lib lib64 lib32 libx32; do
  [[ -L /$l ]] && ln -s "$(readlink "/$l")" "$newroot/$l"
done
mount -t proc -o nosuid,nodev,noexec proc "$newroot/proc"
mount -t tmpfs -o mode=0755,size=1m,nosuid tmpfs "$newroot/dev"
for n in null zero full random urandom tty; do
  touch "$newroot/dev/$n"; mount --bind "/dev/$n" "$newroot/dev/$n"
done
ln -s /proc/self/fd "$newroot/dev/fd"
for i in 0 1 2; do ln -s "/proc/self/fd/$i" "$newroot/dev/$(sed -n "$((i+1))p" <<<$'stdin\nstdout\nstderr')"; done
mkdir -p "$newroot/dev/shm" && mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$newroot/dev/shm"
# POSIX message queues of the sandbox's own IPC namespace, as podman and docker mount them.
mkdir -p "$newroot/dev/mqueue" && mount -t mqueue -o nosuid,nodev,noexec mqueue "$newroot/dev/mqueue"
for t in tmp var/tmp run; do mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$newroot/$t"; done
mount --bind "$workspace" "$newroot/workspace"
mount --rbind -o ro "$prefix" "$newroot/opt/reviewer"; mount -o remount,bind,ro "$newroot/opt/reviewer"
# The review's dependency view (docs/dependencies.md), read-only as in podman.
if [[ -n $deps ]]; then
  mkdir -p "$newroot/var/cache/reviewer-deps"
  mount --bind "$deps" "$newroot/var/cache/reviewer-deps"
  mount -o remount,bind,ro "$newroot/var/cache/reviewer-deps"
fi
# The review's pristine clone, read-only (core/launch/fresh_worktree.h).
if [[ -n $pristine ]]; then
  mkdir -p "$newroot/var/lib/reviewer-pristine"
  mount --bind "$pristine" "$newroot/var/lib/reviewer-pristine"
  mount -o remount,bind,ro "$newroot/var/lib/reviewer-pristine"
fi
# Read-only for this mount: a user namespace may not remount the tmpfs superblock itself.
mount -o remount,bind,ro "$newroot"
# A network namespace the caller made is not the sandbox's to change.
[[ -n $net_given ]] || ip link set lo up
echo ready > "$ready"
cd "$newroot/workspace"
exec chroot "$newroot" /usr/bin/setpriv --reuid "$uid" --regid "$uid" --clear-groups \
  --inh-caps=-all --bounding-set=-all --no-new-privs -- \
  /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp/review "$@" /bin/sleep infinity
SETUP
)

# The sources the sandbox binds (the clone, the install, the dependency view) may lie below
# directories only the host's root can search (mkdtemp's 0700), where the sandbox's own root, a
# subordinate id, cannot follow. So a private mount namespace of the host's root binds them first
# below a tmpfs that anyone may search (`$newroot/sources`); the sandbox binds them from there.
sources=$(cat <<'SOURCES'
set -euo pipefail
newroot=$1 workspace=$2 prefix=$3 deps=$4 pristine=$5
shift 5
mount --make-rprivate /
mount -t tmpfs -o mode=0755,size=1m tmpfs "$newroot"
mkdir -p "$newroot"/{root,sources/workspace,sources/prefix,sources/deps,sources/pristine}
mount --bind "$workspace" "$newroot/sources/workspace"
mount --rbind "$prefix" "$newroot/sources/prefix"
if [[ -n $deps ]]; then mount --bind "$deps" "$newroot/sources/deps"; fi
if [[ -n $pristine ]]; then mount --bind "$pristine" "$newroot/sources/pristine"; fi
exec "$@"
SOURCES
)
deps_source="" pristine_source=""
[[ -z $deps ]] || deps_source=$newroot/sources/deps
[[ -z $pristine ]] || pristine_source=$newroot/sources/pristine
# The sandbox's root signals readiness through this file.
chown "$id_base:$id_base" "$ready"

# The user namespace comes first, so the others are its own (root in it may mount, chroot and set
# up the loopback there, and nowhere else); unshare becomes its root before the script runs. The
# range lock's descriptor is inherited by PID 1, so the range stays taken while anything of the
# sandbox lives.
net_enter=()
[[ -z $net_path ]] || net_enter=(nsenter "--net=$net_path" --)
"${net_enter[@]}" unshare --mount -- /bin/bash -c "$sources" sources "$newroot" "$workspace" "$prefix" "$deps" "$pristine" \
  unshare --user --map-users="$id_base,0,$range_size" --map-groups="$id_base,0,$range_size" \
  --setuid 0 --setgid 0 --pid --fork --mount $net_namespace --ipc --uts --kill-child -- \
  /bin/bash -c "$setup" setup "$newroot/root" "$newroot/sources/workspace" "$newroot/sources/prefix" \
  "$pid1_uid" "$ready" "$deps_source" "$pristine_source" "$net_path" "${assignment[@]}" </dev/null >/dev/null 2>"$setup_log" &
sandbox_pid=$!

# PID 1 of the sandbox is unshare's child (beside, for a moment, the child that ran newuidmap);
# wait until it has become `sleep`.
pid1=""
for _ in $(seq 1 200); do
  if [[ $(cat /proc/$pid1/comm 2>/dev/null) != sleep ]]; then
    for child in $(cat /proc/$sandbox_pid/task/*/children 2>/dev/null); do
      pid1=$child
      [[ $(cat /proc/$child/comm 2>/dev/null) == sleep ]] && break
    done
  fi
  if [[ -n $pid1 && $(cat /proc/$pid1/comm 2>/dev/null) == sleep && -s $ready ]]; then break; fi
  if ! kill -0 "$sandbox_pid" 2>/dev/null; then echo "run-model: the sandbox failed to start:" >&2; cat "$setup_log" >&2; exit 4; fi
  sleep 0.05
done
[[ $(cat /proc/$pid1/comm 2>/dev/null) == sleep ]] || { echo "run-model: the sandbox did not become ready" >&2; exit 4; }

# docker exec: same namespaces and root, /workspace as working directory, the container's
# configured environment (the assignment) plus what the caller adds.
# in_sandbox UID BOUNDING-SET COMMAND...
in_sandbox() {
  local uid=$1 caps=$2
  shift 2
  "${net_enter[@]}" nsenter --target "$pid1" --user --pid --mount $net_namespace --ipc --uts --root -- \
    /usr/bin/setpriv --reuid "$uid" --regid "$uid" --clear-groups \
    --inh-caps=-all --bounding-set="$caps" --no-new-privs -- \
    /usr/bin/env -i -C /workspace PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp/review \
    "${assignment[@]}" "$@"
}
as_user() { in_sandbox "$sandbox_uid" -all "$@"; }
if [[ -n $before ]]; then as_user /bin/bash -c "$before" || true; fi
status=0
if [[ -n $exec_as_user ]]; then
  as_user "${caller_env[@]}" "$program" "$@" || status=$?
else
  in_sandbox "$launcher_uid" "$launcher_caps" "${caller_env[@]}" "$program" "$@" || status=$?
fi
if [[ -n $after ]]; then as_user /bin/bash -c "$after" || true; fi
# The reports are read as the sandbox user inside the sandbox (a link planted there reaches
# nothing of the host's), bounded in size and time (a FIFO there cannot hold the host).
if [[ -n $reports ]]; then
  mkdir -p "$reports"
  for f in report.json report.xml; do
    if ! as_user /usr/bin/timeout 10 /usr/bin/head -c 67108864 "/tmp/review/$f" >"$reports/$f" 2>/dev/null; then
      rm -f "$reports/$f"
    fi
  done
fi
exit "$status"
