#!/usr/bin/env bash
# Whole-process benchmark of `reviewer semver` against npm's own semver command line, measured
# in the same run: wall time (hyperfine, median of each) and peak RSS (/usr/bin/time, median of
# each), printed as ratios. Issue 15's targets: >= 20x faster than npm's CLI for a range query;
# `reviewer semver 1.0.0` <= 3 ms and <= 8 MiB.
#
# Usage: tests/bench/semver_cli.sh BUILD_DIR [NPM_SEMVER_DIR]
#   BEFORE=REVIEWER_BINARY  also times another build's `reviewer semver 1.0.0` in the same run.
#   /bin/true is timed in the same run too: the floor of any process start on this machine.
#   NPM_SEMVER_DIR holds node_modules/semver (default: installed from tests/semver/oracle, pinned).
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
reviewer="$build/bin/reviewer"
work=$(mktemp -d /tmp/reviewer-semver-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
oracle=${2:-}
if [ -z "$oracle" ]; then
  oracle="$work/oracle"
  mkdir -p "$oracle"
  cp "$here/tests/semver/oracle/package.json" "$here/tests/semver/oracle/package-lock.json" "$oracle/"
  (cd "$oracle" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
npm_cli="node $oracle/node_modules/semver/bin/semver.js"
range_args="-r ^20.1 20.0.0 20.1.5 20.19.2 21.0.0 22.1.0-rc.1 v20.3.0 garbage"

hyperfine -N --warmup 10 --runs "${RUNS:-100}" --export-json "$work/t.json" \
  -n reviewer-range "$reviewer semver $range_args" \
  -n npm-range "$npm_cli $range_args" \
  -n reviewer-version "$reviewer semver 1.0.0" \
  -n npm-version "$npm_cli 1.0.0" \
  -n true /bin/true ${BEFORE:+-n reviewer-version-before "$BEFORE semver 1.0.0"} >/dev/null

rss() {  # median peak RSS in KiB over 21 runs
  for _ in $(seq 1 21); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 11p
}
rss_rr=$(rss $reviewer semver $range_args)
rss_nr=$(rss $npm_cli $range_args)
rss_rv=$(rss $reviewer semver 1.0.0)
rss_nv=$(rss $npm_cli 1.0.0)
node -e '
  const r = require(process.argv[1]).results;
  const m = Object.fromEntries(r.map(x => [x.command, x.median * 1000]));
  const [rr, nr, rv, nv] = process.argv.slice(2).map(Number);
  const f = (ms) => ms.toFixed(1) + " ms";
  const k = (kib) => (kib / 1024).toFixed(1) + " MiB";
  console.log(`semver -r RANGE V...: reviewer ${f(m["reviewer-range"])} ${k(rr)}, npm ${f(m["npm-range"])} ${k(nr)}, ${(m["npm-range"] / m["reviewer-range"]).toFixed(1)}x faster, ${(nr / rr).toFixed(1)}x less memory`);
  console.log(`semver 1.0.0:         reviewer ${f(m["reviewer-version"])} ${k(rv)}, npm ${f(m["npm-version"])} ${k(nv)}, ${(m["npm-version"] / m["reviewer-version"]).toFixed(1)}x faster`);
  console.log(`/bin/true:            ${f(m["true"])} (the floor for starting any process, same run)`);
  if (m["reviewer-version-before"] !== undefined) {
    console.log(`semver 1.0.0 before:  ${f(m["reviewer-version-before"])} (same run)`);
  }
' "$work/t.json" "$rss_rr" "$rss_nr" "$rss_rv" "$rss_nv"
