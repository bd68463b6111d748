#!/usr/bin/env bash
# The project's real-GL programs (tests/mesa: mesa_trace's traces, transform-feedback bytes and
# statistics, mesa_render's pixels) on the built Mesa, in `off` and in MODE (default front):
#   integrations/mesa/judge-tests-mesa.sh [MODE]
# Each comparison tests/mesa runs in ctest runs here with the same seeds twice, its GL program
# replaced by record_gl.py; every description's Mesa output must be identical in both modes.
# Each run also prints drawpipe against that Mesa, as ctest does against the system's.
# Needs the default build (./quickstart.sh test or cmake --build --preset default).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B=${DRAWPIPE_BUILD:-$ROOT/build/default}
mode=${1:-front}
out=$(mktemp -d)
trace="$ROOT/tests/mesa/compare.py --drawpipe $B/tools/drawpipe --mesa-trace $HERE/record_gl.py"
render="$ROOT/tests/mesa/compare_render.py --drawpipe $B/tools/drawpipe --mesa-render $HERE/record_gl.py"
T=$B/tests/mesa/mesa_trace R=$B/tests/mesa/mesa_render
# The ctest comparisons (tests/mesa/CMakeLists.txt), each with its seed.
runs=(
  "$trace --per-prim 100 --prog $T"
  "$trace --per-prim 30 --gs --prog $T"
  "$trace --per-prim 40 --xfb --seed 4 --prog $T"
  "$trace --per-prim 10 --gs --xfb --seed 5 --prog $T"
  "$trace --per-prim 40 --variants --seed 2 --prog $T"
  "$trace --per-prim 20 --multi --seed 30 --prog $T"
  "$trace --per-prim 25 --statistics --seed 7 --prog $T"
  "$trace --per-prim 8 --statistics --gs --seed 8 --prog $T"
  "$trace --per-prim 8 --tess --seed 11 --prog $T"
  "$trace --per-prim 6 --tess --xfb --seed 12 --prog $T"
  "$render --scenes 280 --prims all --seed 18 --prog $R"
  "$render --scenes 360 --unfilled --seed 11 --prog $R"
  "$render --scenes 100 --conventions --seed 30 --prog $R"
  "$render --scenes 120 --two-side --seed 3 --prog $R"
  "$render --scenes 144 --tess --seed 31 --prog $R"
)
status=0
for m in off "$mode"; do
    for r in "${runs[@]}"; do
        prog=${r##* --prog }
        cmd=${r% --prog *}
        echo "== $m: ${cmd##*/} " >&2
        DRAWPIPE_JUDGE_MODE=$m JUDGE_RECORD="$out/$m" JUDGE_PROGRAM=$prog \
            python3 $cmd --out "$out/mismatches-$m" | tail -2 >&2
    done
done
n=$(ls "$out/off" | wc -l)
if diff -rq "$out/off" "$out/$mode" >"$out/diff"; then
    echo "tests/mesa on the built Mesa: $n outputs (traces, xfb bytes, pixels), $mode identical to off"
else
    echo "tests/mesa on the built Mesa: $(wc -l <"$out/diff") of $n outputs differ between off and $mode:"
    head -20 "$out/diff"
    status=1
fi
echo "(records kept in $out)"
exit $status
