#!/usr/bin/env bash
# Issue 37, finding 4: expressions keep `reviewer plan` under 64 MiB peak RSS, on the worst
# expressions a workflow within the 256 KiB bound can hold. Each case is built here, checked to
# be within the bound, planned under /usr/bin/time -f %M, and must end in a plan or refusals
# (exit 0 or 3) under 64 MiB and 15 seconds. A cap on address space (1 GiB) makes a regression
# fail fast instead of taking the machine's memory. Prints one line per case: the workflow's
# size, peak RSS, seconds, exit code.
#
# Cases: the nested format() bomb at every depth (8 and 16 copies a level); one format() with
# dozens of mebibyte arguments; toJSON() nested 49 deep (each doubles the backslashes); join()
# with a mebibyte separator; fromJSON() of arrays near the item bound, six alive at once; a
# `[*][*]` filter flattening two of them; 700 mebibyte fields; one field repeated by 14,000 YAML
# aliases, and a step by 3,000; a field keeping the event's 90 KB body, repeated by 14,000
# aliases; contains() and format() on the inputs where a naive search is quadratic (seconds each
# before issue 37).
#
# What this does not cover, because it is the planner's own memory, not what expressions build
# (reported with issue 37): its footprint per step (15,000 aliased `run: echo hi` steps take 55
# MiB, no expression in them, hence 3,000 here); its copy of the workflow `env` into each job
# (seven mebibyte values, all one plan may build, and 100 needed jobs: 750 MB; 100 KB of literal
# text and 1,000 jobs: 120 MB); and matrix-combination-required, which lists every combination
# with its values (one value of 960 KiB and 256 combinations: 1 GB, 11 s).
#
# Usage: tests/bench/plan_memory.sh BUILD_DIR
# shellcheck disable=SC2016  # the ${{ }} written into workflows are GitHub's, not the shell's
set -euo pipefail
reviewer="$(realpath "$1")/bin/reviewer"
limit_kib=$((64 * 1024))
limit_seconds=15
work=$(mktemp -d /tmp/reviewer-plan-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=0

checkout="actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683"
head="on: pull_request
jobs:
  build:
    runs-on: ubuntu-latest"

# repeat TEXT N: TEXT N times.
repeat() {
  local out="" i
  for ((i = 0; i < $2; i++)); do out+=$1; done
  printf '%s' "$out"
}

# bomb DEPTH WIDTH [SEED]: SEED (default 'x') inside DEPTH format()s of WIDTH '{0}' each.
bomb() {
  local e=${3:-"'x'"} placeholders i
  placeholders=$(repeat '{0}' "$2")
  for ((i = 0; i < $1; i++)); do e="format('$placeholders', $e)"; done
  printf '%s' "$e"
}

mebibyte=$(bomb 5 16)  # 16^5 characters

# run_case NAME [ARG...]: plans $work/NAME.yml (with ARGs) and checks its size, exit code, peak
# RSS and time.
run_case() {
  local wf="$work/$1.yml" size kib secs code
  size=$(stat -c %s "$wf")
  if ((size > 256 * 1024)); then
    echo "$1: the workflow is $size bytes, over the 256 KiB bound" >&2
    failed=1
    return
  fi
  (ulimit -v $((1024 * 1024)) && /usr/bin/time -f '%M %e %x' -o "$work/time" \
    "$reviewer" plan --workflow "$wf" --job build --base main "${@:2}" >"$work/out" 2>&1) || true
  read -r kib secs code < <(tail -1 "$work/time")
  printf '%-22s %6s bytes %6s MiB %5s s  exit %s %s\n' "$1" "$size" \
    "$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')" "$secs" "$code" \
    "$(grep -o -m1 ' [a-z]*-[a-z-]*: [^:]*' "$work/out" | head -c 60)"
  if [[ $code != 0 && $code != 3 ]] || ((kib > limit_kib)) ||
    awk -v s="$secs" -v l="$limit_seconds" 'BEGIN { exit !(s > l) }'; then
    echo "$1: exit $code, peak $kib KiB in $secs s (limits $limit_kib KiB, $limit_seconds s):" \
      "$(head -c 400 "$work/out")" >&2
    failed=1
  fi
}

# One `run:` holding `${{ EXPR }}`.
one_field() {
  printf '%s\n    steps:\n      - uses: %s\n      - run: echo ${{ %s }}\n' "$head" "$checkout" "$2" \
    >"$work/$1.yml"
  run_case "$1"
}

for depth in 1 2 3 4 5 6 7 8 9 10 11 12; do
  one_field "format-8-wide-$depth" "$(bomb "$depth" 8)"
done
for depth in 4 5 6 7 8; do
  one_field "format-16-wide-$depth" "$(bomb "$depth" 16)"
done
# Every argument is built before format() runs: 60 mebibytes, as the bound of one evaluation
# allows 30.
one_field "format-many-arguments" "format('$(repeat '{0}' 800)'$(repeat ", $mebibyte" 60))"
one_field "tojson-49-deep" "$(repeat 'toJSON(' 49)'\\'$(repeat ')' 49)"
one_field "join-separator" "join(fromJSON('[$(repeat '0,' 5000)0]'), $mebibyte)"
items=$(bomb 4 10 "'0,0,0,0,0,0,0,0,0,'")  # 90,000 zeros and commas
array="fromJSON(format('[{0}0]', $items))"
one_field "fromjson-arrays" "format('{0}{1}{2}{3}{4}{5}', $array, $array, $array, $array, $array, $array)"
one_field "filter-flatten" "toJSON(fromJSON(format('[[{0}0],[{0}0]]', $items))[*][*])"
# A mebibyte of 'a' searched for half a mebibyte of 'a' and a 'b' (std::string::find: 5 s each).
needle="format('{0}b', $(bomb 4 16 "'aaaaaaaa'"))"
one_field "contains-worst" "contains($(bomb 5 16 "'a'"), $needle) || contains($(bomb 5 16 "'a'"), $needle)"
# A format string of a mebibyte of '}}' (a search for '{' from every pair: 2 s each).
one_field "format-braces" "format($(bomb 4 16 "'}}}}}}}}}}}}}}}}'"))"

# As many mebibyte fields as the file holds, each its own expression.
{
  printf '%s\n    steps:\n      - uses: %s\n' "$head" "$checkout"
  for ((i = 0; i < 700; i++)); do printf '      - run: echo ${{ %s }}\n' "$mebibyte"; done
} >"$work/many-fields.yml"
run_case many-fields

# One field, evaluated again wherever an alias repeats it (the plan's 50,000-node bound).
{
  printf '%s\n    env:\n      V0: &v ${{ %s }}\n' "$head" "$mebibyte"
  for ((i = 1; i < 14000; i++)); do printf '      V%d: *v\n' "$i"; done
  printf '    steps:\n      - uses: %s\n' "$checkout"
} >"$work/aliased-env.yml"
run_case aliased-env
# A field that builds nothing but keeps a string of the host's event description (90 KB, the
# pull request's body), repeated by aliases.
printf '{"event": {"pull_request": {"base": {"ref": "main"}, "body": "%s"}}}' \
  "$(repeat 'b' 90000)" >"$work/event.json"
{
  printf '%s\n    env:\n      V0: &v ${{ github.event.pull_request.body }}\n' "$head"
  for ((i = 1; i < 14000; i++)); do printf '      V%d: *v\n' "$i"; done
  printf '    steps:\n      - uses: %s\n' "$checkout"
} >"$work/aliased-event.yml"
run_case aliased-event --event "$work/event.json"
{
  printf '%s\n    steps:\n      - uses: %s\n      - &s\n        run: echo ${{ %s }}\n' "$head" \
    "$checkout" "$mebibyte"
  for ((i = 1; i < 3000; i++)); do printf '      - *s\n'; done
} >"$work/aliased-steps.yml"
run_case aliased-steps

exit $failed
