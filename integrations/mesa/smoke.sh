#!/usr/bin/env bash
# A minute's check of the built Mesa in every mode (./quickstart.sh mesa runs it): the draw
# benchmark's smoke run and a few piglit tests of what the front end does, each through
# run.sh (so the build's driver is checked to be the one loaded), piglit results equal in
# every mode. The whole judges are judge-piglit.sh, judge-tests-mesa.sh, judge-glmark2.sh and
# bench-modes.py (docs/mesa.md).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
bench=${DRAWPIPE_BUILD:-$ROOT/build/default}/bench/gl_draw_bench
list=$(mktemp)
trap 'rm -f "$list" "$list".*' EXIT
grep -E 'primitive-restart|base_vertex|provoking|draw_instanced' "$HERE/piglit-tests.txt" |
    head -24 >"$list"
for mode in off front shade whole; do
    "$HERE/run.sh" "$mode" "$bench" --smoke | sed "s/^/$mode: /"
    "$HERE/judge-piglit.sh" "$mode" "$list" >"$list.$mode"
    echo "$mode: piglit $(cut -f2 "$list.$mode" | sort | uniq -c | tr -s ' \n' ' ')"
done
for mode in front shade whole; do
    if ! diff "$list.off" "$list.$mode"; then
        echo "smoke: piglit results differ between off and $mode" >&2
        exit 1
    fi
done
echo "smoke: the built Mesa runs in every mode, the same piglit results ($(wc -l <"$list") tests)"
