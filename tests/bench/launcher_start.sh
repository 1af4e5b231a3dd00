#!/usr/bin/env bash
# Whole-process benchmark of the launcher's fixed cost: a job of one `run: "true"` step through
# reviewer-launch, against `true` exec'd in the same run-model sandbox (the baseline), measured
# in the same run; the difference is what the launcher does before and after its one step.
#
# Usage: tests/bench/launcher_start.sh BUILD_DIR   (run as root; needs hyperfine)
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/reviewer-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
stage="$work/stage"
"$here/docker/run-model/stage-image.sh" "$build" "$stage" >/dev/null

src="$work/src"
mkdir -p "$src/.github/workflows"
cp "$here/examples/node-app/package.json" "$here/examples/node-app/.nvmrc" "$src/"
printf 'name: bench\non: pull_request\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n      - run: "true"\n' \
  >"$src/.github/workflows/bench.yml"
"$here/docker/run-model/make-clone.sh" "$src" "$work/clone"

run="$here/docker/run-model/run-model.sh --workspace $work/clone --prefix $stage --workflow .github/workflows/bench.yml --base main --job one"
hyperfine --warmup 2 --runs "${RUNS:-20}" --export-json "$work/start.json" \
  -n launcher "$run >/dev/null" \
  -n sandbox-only "$run --exec /bin/true >/dev/null"
/usr/bin/node -e '
  const r = require(process.argv[1]).results;
  const m = Object.fromEntries(r.map(x => [x.command, x.median]));
  const d = (m.launcher - m["sandbox-only"]) * 1000;
  console.log(`one step: launcher ${(m.launcher*1000).toFixed(1)} ms, the same sandbox running /bin/true ${(m["sandbox-only"]*1000).toFixed(1)} ms: the launcher adds ${d.toFixed(1)} ms (medians)`);
' "$work/start.json"
