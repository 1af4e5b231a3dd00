#!/usr/bin/env bash
# Benchmark of the launcher's fixed cost: a job of one `run: "true"` step through
# reviewer-launch, against /bin/true, in the same run-model sandbox and the same run.
#
# Two figures. Whole: hyperfine runs run-model.sh itself, a fresh sandbox each time, with the
# launcher and with `--exec /bin/true`; the sandbox's own set-up (hundreds of milliseconds,
# with a spread larger than the launcher) is in both. Inside: one sandbox runs hyperfine, which
# runs the launcher and /bin/true in it alternately; that is the launcher's own cost, and the
# figure issue 15's target (<= 10 ms) is about. First step: in the same sandbox, how long after
# bash starts the launcher its first `run:` step is running (the step prints bash's
# $EPOCHREALTIME), against bash starting a bash that prints it; that is what the launcher does
# before its first step, the step's own bash start-up taken out. With BEFORE, the inside figures
# of that staged install are taken in its own sandbox, rounds alternating with this build's.
# Floor, in the same run: what "the launcher adds" before its first step cannot go below. The
# launcher's own start (`reviewer-launch --floor`, refused at its arguments so it exits at once,
# over /bin/true) and then the image's `node --version`, whose answer it must have before any
# step (docs/refusals.md, runtime-version).
#
# Usage: tests/bench/launcher_start.sh BUILD_DIR   (run as root; needs hyperfine)
#   BEFORE=STAGE_DIR  another staged install (docker/run-model/stage-image.sh), e.g. of the
#                     commit before a change
#   RUNS (default 20, whole), INSIDE_RUNS (default 40), ROUNDS (default 3)
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
printf 'name: bench\non: pull_request\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n      - run: echo \"first-step $EPOCHREALTIME\"\n' \
  >"$src/.github/workflows/bench.yml"
"$here/docker/run-model/make-clone.sh" "$src" "$work/clone"

# The job's assignment, as the host's encoder writes it (`reviewer assignment`), as --assign words.
mapfile -d '' -t entries < <("$build/bin/reviewer" assignment --workflow .github/workflows/bench.yml \
  --base main --job one)
assign=()
for entry in "${entries[@]}"; do assign+=(--assign "$entry"); done
model() {  # model PREFIX ARGS...: run-model.sh on the bench's clone and job
  local prefix=$1
  shift
  "$here/docker/run-model/run-model.sh" --workspace "$work/clone" --prefix "$prefix" \
    "${assign[@]}" "$@"
}
run="$here/docker/run-model/run-model.sh --workspace $work/clone --prefix $stage$(printf ' %q' "${assign[@]}")"
hyperfine --warmup 2 --runs "${RUNS:-20}" --export-json "$work/start.json" \
  -n launcher "$run >/dev/null" \
  -n sandbox-only "$run --exec /bin/true >/dev/null" >/dev/null

# hyperfine inside the sandbox writes its JSON to its standard output, a file it may reopen.
inside() {  # inside NAME PREFIX: appends one round's JSON line to $work/inside.jsonl
  local out="$work/inside.json"
  : >"$out"
  chmod 666 "$out"
  model "$2" --exec /usr/bin/hyperfine -- -N --style none --warmup 3 --runs "${INSIDE_RUNS:-40}" \
    --export-json /dev/stdout -n launcher /opt/reviewer/bin/reviewer-launch -n true /bin/true \
    >"$out" 2>/dev/null
  printf '{"name":"%s","run":%s}\n' "$1" "$(tr -d '\n' <"$out")" >>"$work/inside.jsonl"
  # The floor's parts, in a sandbox of their own (-i: `--floor` is refused, exit 3).
  : >"$out"
  model "$2" --exec /usr/bin/hyperfine -- -N -i --style none --warmup 3 --runs "${INSIDE_RUNS:-40}" \
    --export-json /dev/stdout -n loading "/opt/reviewer/bin/reviewer-launch --floor" \
    -n node "/opt/reviewer/runtimes/node/bin/node --version" -n true /bin/true >"$out" 2>/dev/null
  printf '{"name":"%s","run":%s}\n' "$1" "$(tr -d '\n' <"$out")" >>"$work/floor.jsonl"
  # The first step's start, as milliseconds after bash began the launcher, or began a bash that
  # only prints the time: one line per run, "launcher MS" or "bash MS".
  model "$2" --exec /bin/bash -- -c '
    ms() { echo "$1 $2" | awk "{printf \"%.3f\", (\$2 - \$1) * 1000}"; }
    for ((i = 0; i < ${0}; i++)); do
      s=$EPOCHREALTIME
      t=$(/bin/bash -c "echo first-step \$EPOCHREALTIME")
      echo "bash $(ms "$s" "${t#first-step }")"
      s=$EPOCHREALTIME
      t=$(/opt/reviewer/bin/reviewer-launch | sed -n "s/.*] first-step //p")
      echo "launcher $(ms "$s" "$t")"
    done' "${INSIDE_RUNS:-40}" 2>/dev/null | sed "s/^/$1 /" >>"$work/first.txt"
}
for _ in $(seq "${ROUNDS:-3}"); do
  inside after "$stage"
  if [[ -n ${BEFORE:-} ]]; then
    inside before "$(realpath "$BEFORE")"
  fi
done

/usr/bin/node -e '
  const fs = require("fs");
  const ms = (s) => (s * 1000).toFixed(1);
  const med = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
  const r = require(process.argv[1]).results;
  const m = Object.fromEntries(r.map(x => [x.command, x.median]));
  console.log(`whole: launcher ${ms(m.launcher)} ms, the same sandbox running /bin/true ${ms(m["sandbox-only"])} ms: the launcher adds ${ms(m.launcher - m["sandbox-only"])} ms (medians)`);
  const rounds = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map(JSON.parse);
  for (const name of ["before", "after"]) {
    const mine = rounds.filter(x => x.name === name);
    if (!mine.length) continue;
    const adds = mine.map(x => {
      const c = Object.fromEntries(x.run.results.map(y => [y.command, y]));
      return { d: c.launcher.median - c.true.median, l: c.launcher, t: c.true };
    });
    const d = med(adds.map(a => a.d));
    const best = Math.min(...adds.map(a => a.l.min - a.t.min));
    const cpu = med(adds.map(a => a.l.user + a.l.system));
    console.log(`inside (${name}): the launcher adds ${ms(d)} ms over /bin/true (median of ${mine.length} rounds of medians; fastest run ${ms(best)} ms; launcher CPU ${ms(cpu)} ms user+sys, children included)`);
    const floors = fs.readFileSync(process.argv[4], "utf8").trim().split("\n").map(JSON.parse)
      .filter(x => x.name === name)
      .map(x => Object.fromEntries(x.run.results.map(y => [y.command, y.median])));
    const load = med(floors.map(f => f.loading - f.true));
    const node = med(floors.map(f => f.node));
    console.log(`floor (${name}): the launcher refused at its arguments (its start and exit) ${ms(load)} ms over /bin/true + node --version of the image ${ms(node)} ms = ${ms(load + node)} ms`);
  }
  const first = fs.readFileSync(process.argv[3], "utf8").trim().split("\n").map(l => l.split(" "));
  for (const name of ["before", "after"]) {
    const of = (what) => first.filter(f => f[0] === name && f[1] === what).map(f => Number(f[2]));
    const l = of("launcher"), b = of("bash");
    if (!l.length) continue;
    console.log(`first step (${name}): the first run step starts ${ms(med(l) / 1000)} ms after the launcher does, a bash started directly ${ms(med(b) / 1000)} ms: the launcher adds ${ms((med(l) - med(b)) / 1000)} ms before its first step (medians of ${l.length} runs)`);
  }
' "$work/start.json" "$work/inside.jsonl" "$work/first.txt" "$work/floor.jsonl"
