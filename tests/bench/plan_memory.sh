#!/usr/bin/env bash
# Issue 37, finding 4: `reviewer plan` stays under 64 MiB peak RSS for every workflow the 256 KiB
# bound admits, on the worst expressions and the worst copies a workflow can make it build. Each
# case is built here, checked to be within the bound, planned under /usr/bin/time -f %M, and must
# end in a plan or refusals (exit 0 or 3) under 64 MiB and 15 seconds. A cap on address space (1
# GiB) makes a regression fail fast instead of taking the machine's memory. Prints one line per
# case: the workflow's size, peak RSS, seconds, exit code, the first rule.
#
# Expressions (core/expr/budget.h): the nested format() bomb at every depth (8 and 16 copies a
# level); one format() with dozens of mebibyte arguments; toJSON() nested 49 deep (each doubles
# the backslashes); join() with a mebibyte separator; fromJSON() of arrays near the item bound,
# six alive at once; a `[*][*]` filter flattening two of them; 700 mebibyte fields; one field
# repeated by 12,000 YAML aliases, and a step by 3,000; a field keeping the event's 90 KB body,
# repeated by 14,000 aliases; contains() and format() on the inputs where a naive search is
# quadratic (seconds each before issue 37).
#
# The planner's own copies (core/yaml alias text, core/plan/matrix.cpp, core/plan/plan_budget.h,
# core/plan/findings.h), each far past 64 MiB before: 9,000 aliases of a 100 KB literal (2.6 GB,
# 17 s: yaml-alias-too-large); a 960 KiB matrix value listed in 256 combinations by
# matrix-combination-required (1 GB, 11 s); the workflow env copied into every needed job, seven
# mebibyte values into 100 jobs (750 MB) and a 100 KB literal into 1,000 (120 MB: plan-too-large);
# 16,600 aliased `run: echo hi` steps, as many as the node bound admits (79 MB); as JSON, a
# 12,000-name env in two jobs (near the largest copy that is planned) and a 24,000-name env in
# three (143 MB); an `include` entry merged into 256 combinations (430 MB, 24 s:
# matrix-too-large); and 14,000 refusals as SARIF (91 MiB: too-many-refusals).
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

# One field, evaluated again wherever an alias repeats it: as often as the 4 MiB of text aliases
# may add allows (at 14,000 the loader refuses it, yaml-alias-too-large).
{
  printf '%s\n    env:\n      V0: &v ${{ %s }}\n' "$head" "$mebibyte"
  for ((i = 1; i < 12000; i++)); do printf '      V%d: *v\n' "$i"; done
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

# The planner's own amplifiers (issue 37): what aliases, the matrix listing, needed jobs and steps
# make of a workflow without building anything in an expression.
# 9,000 aliases of a 100 KB literal: 900 MB of text from 243 KB (yaml-alias-too-large).
{
  printf '%s\n    env:\n      V0: &v %s\n' "$head" "$(repeat 'x' 100000)"
  for ((i = 1; i < 9000; i++)); do printf '      V%d: *v\n' "$i"; done
  printf '    steps:\n      - uses: %s\n' "$checkout"
} >"$work/aliased-literal.yml"
run_case aliased-literal
# A mebibyte matrix value in each of 256 combinations, listed by matrix-combination-required.
{
  printf '%s\n    strategy:\n      matrix:\n        big: ["${{ %s }}"]\n        n: [0' "$head" \
    "$mebibyte"
  for ((i = 1; i < 256; i++)); do printf ', %d' "$i"; done
  printf ']\n    steps:\n      - uses: %s\n' "$checkout"
} >"$work/matrix-listing.yml"
run_case matrix-listing
# The workflow env in each of a chain of needed jobs: seven mebibyte values and 100 jobs, then a
# 100 KB literal and 1,000 jobs.
# needs_chain JOBS: the jobs j1..JOBS-1 and build, each needing the one before.
needs_chain() {
  local i
  printf 'jobs:\n'
  for ((i = 0; i < $1; i++)); do
    if ((i == $1 - 1)); then printf '  build:\n'; else printf '  j%d:\n' "$i"; fi
    ((i == 0)) || printf '    needs: j%d\n' "$((i - 1))"
    printf '    runs-on: ubuntu-latest\n    steps:\n      - uses: %s\n' "$checkout"
  done
}
{
  printf 'on: pull_request\nenv:\n'
  for ((i = 0; i < 7; i++)); do printf '  E%d: ${{ %s }}\n' "$i" "$mebibyte"; done
  needs_chain 100
} >"$work/env-per-job.yml"
run_case env-per-job
{
  printf 'on: pull_request\nenv:\n  E: %s\n' "$(repeat 'x' 100000)"
  needs_chain 1000
} >"$work/env-literal-per-job.yml"
run_case env-literal-per-job
# The planner's cost per step: as many aliased steps as the node bound admits.
{
  printf '%s\n    steps:\n      - uses: %s\n      - &s\n        run: echo hi\n' "$head" "$checkout"
  for ((i = 1; i < 16600; i++)); do printf '      - *s\n'; done
} >"$work/aliased-plain-steps.yml"
run_case aliased-plain-steps
# As JSON (`--format json` builds the whole document before printing it, about 1.4 KB an env
# name): the largest env copy that is planned, and one that is refused.
# names_env N: a workflow env of N three-letter names in one flow mapping (as
# tests/bench/plan_bench.cpp's largest workflow: no name the env policy refuses).
names_env() {
  local first=ABDFGHJKLMNOQRSUVWXYZ rest=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 i
  printf 'on: pull_request\nenv: {'
  for ((i = 0; i < $1; i++)); do
    printf '%s%s%s: v, ' "${first:i/1296:1}" "${rest:i/36%36:1}" "${rest:i%36:1}"
  done
  printf 'END: v}\n'
}
{
  names_env 12000
  needs_chain 2
} >"$work/env-names-json.yml"
run_case env-names-json --format json
{
  names_env 24000
  needs_chain 3
} >"$work/env-names-copied-json.yml"
run_case env-names-copied-json --format json
# An `include` entry of 12,000 keys merged into each of 256 combinations (430 MB, 24 s:
# matrix-too-large).
{
  printf '%s\n    strategy:\n      matrix:\n        n: [0' "$head"
  for ((i = 1; i < 256; i++)); do printf ', %d' "$i"; done
  printf ']\n        include:\n          - {k0: v'
  for ((i = 1; i < 12000; i++)); do printf ', k%d: v' "$i"; done
  printf '}\n    steps:\n      - uses: %s\n' "$checkout"
} >"$work/matrix-include.yml"
run_case matrix-include --matrix n=3
# One refused step repeated by 14,000 aliases, as SARIF (91 MiB: too-many-refusals).
{
  printf '%s\n    steps:\n      - uses: %s\n      - &s\n        uses: %s\n' "$head" "$checkout" \
    "$checkout"
  for ((i = 1; i < 14000; i++)); do printf '      - *s\n'; done
} >"$work/refused-steps-sarif.yml"
run_case refused-steps-sarif --format sarif

exit $failed
