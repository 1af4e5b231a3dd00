#!/usr/bin/env bash
# Whole-process benchmark of the launcher's per-step cost, against a baseline measured in the
# same run: a job of 200 `run: true` steps through reviewer-launch, and a bash loop running 200
# script files with the same flags (`bash -e FILE`), both inside the same run-model sandbox.
# Then the launcher's peak RSS while a step prints 1 GiB.
#
# Usage: tests/bench/launcher_steps.sh BUILD_DIR   (run as root; needs hyperfine)
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/reviewer-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
stage="$work/stage"
"$here/docker/run-model/stage-image.sh" "$build" "$stage" >/dev/null

src="$work/src"
mkdir -p "$src/.github/workflows" "$src/bench"
cp "$here/examples/node-app/package.json" "$src/"
{
  printf 'name: bench\non: pull_request\njobs:\n  steps:\n    runs-on: ubuntu-latest\n    steps:\n'
  printf '      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n'
  for i in $(seq 1 200); do printf '      - run: "true"\n'; done
  printf '  flood:\n    runs-on: ubuntu-latest\n    steps:\n'
  printf '      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n'
  printf '      - run: head -c 1073741824 /dev/zero | tr "\\\\0" "a" | fold -w 100\n'
} >"$src/.github/workflows/bench.yml"
for i in $(seq 1 200); do echo true >"$src/bench/step-$i.sh"; done
# The baseline gives bash the locale a step gets (LANG=C.UTF-8, as on the runner), so that what
# is compared is the launcher's work, not locale loading at bash's start.
printf '#!/bin/bash\nexport LANG=C.UTF-8\nfor i in $(seq 1 200); do /bin/bash -e /workspace/bench/step-$i.sh </dev/null; done\n' >"$src/bench/bare.sh"
chmod +x "$src/bench/bare.sh"
"$here/docker/run-model/make-clone.sh" "$src" "$work/clone"

# The job's assignment, as the host's encoder writes it (`reviewer assignment`), as --assign words.
run_job() {  # run_job JOB: the run-model command line of JOB's sandbox
  local entries
  mapfile -d '' -t entries < <("$build/bin/reviewer" assignment \
    --workflow .github/workflows/bench.yml --base main --job "$1")
  echo "$here/docker/run-model/run-model.sh --workspace $work/clone --prefix $stage$(printf ' --assign %q' "${entries[@]}")"
}
run=$(run_job steps)
hyperfine --warmup 2 --runs 10 --export-json "$work/steps.json" \
  -n launcher "$run >/dev/null" \
  -n bare-bash-loop "$run --exec /workspace/bench/bare.sh >/dev/null"
/usr/bin/node -e '
  const r = require(process.argv[1]).results;
  const m = Object.fromEntries(r.map(x => [x.command, x.mean]));
  console.log(`200 steps: launcher ${(m.launcher*1000).toFixed(0)} ms, bare bash loop ${(m["bare-bash-loop"]*1000).toFixed(0)} ms, ratio ${(m.launcher/m["bare-bash-loop"]).toFixed(3)}`);
' "$work/steps.json"

echo "1 GiB flood:"
$(run_job flood) | grep -E "peak RSS|^review-build"
