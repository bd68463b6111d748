#!/usr/bin/env bash
# The project's real-GL programs (tests/mesa: mesa_trace's traces, transform-feedback bytes and
# statistics, mesa_render's pixels) on the built Mesa, in `off` and in each MODE (default front):
#   integrations/mesa/judge-tests-mesa.sh [MODE...]
# Each comparison tests/mesa runs in ctest runs here with the same seeds twice, its GL program
# replaced by record_gl.py and drawpipe's side left out (--mesa-only: ctest compares drawpipe
# with the system's Mesa); every description's Mesa output must be identical in both modes.
# Needs the default build (./quickstart.sh test or cmake --build --preset default).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B=${DRAWPIPE_BUILD:-$ROOT/build/default}
modes=("${@:-front}")
out=$(mktemp -d)
trace="$ROOT/tests/mesa/compare.py --mesa-only --drawpipe $B/tools/drawpipe --mesa-trace $HERE/record_gl.py"
render="$ROOT/tests/mesa/compare_render.py --mesa-only --drawpipe $B/tools/drawpipe --mesa-render $HERE/record_gl.py"
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
for m in off "${modes[@]}"; do
    for r in "${runs[@]}"; do
        prog=${r##* --prog }
        cmd=${r% --prog *}
        echo "== $m: ${cmd##*/} " >&2
        DRAWPIPE_JUDGE_MODE=$m JUDGE_RECORD="$out/$m" JUDGE_PROGRAM=$prog \
            python3 $cmd --out "$out/mismatches-$m" | tail -1 >&2
    done
done
# GL leaves the vertex shader's invocation count to the implementation (a vertex may be
# shaded once per segment that uses it): the statistics line's vs_invocations is compared
# apart, everything else byte for byte.
for mode in "${modes[@]}"; do
python3 - "$out/off" "$out/$mode" "$mode" <<'PY' || status=1
import os, re, sys
a, b, mode = sys.argv[1:]
VS = re.compile(rb"vs_invocations (\d+)")
same = vs_only = 0
more = []
differ = []
for name in sorted(os.listdir(a)):
    x = open(os.path.join(a, name), "rb").read()
    y = open(os.path.join(b, name), "rb").read() if os.path.exists(os.path.join(b, name)) else None
    if x == y:
        same += 1
    elif y is not None and VS.sub(b"", x) == VS.sub(b"", y):
        vs_only += 1
        n, m = (sum(int(v) for v in VS.findall(t)) for t in (x, y))
        if m > n:
            more.append((name, n, m))
    else:
        differ.append(name)
total = same + vs_only + len(differ)
print(f"tests/mesa on the built Mesa: {total} outputs (traces, xfb bytes, statistics, pixels): "
      f"{same} identical in off and {mode}, {vs_only} differ only in vs_invocations "
      f"({len(more)} of them with more in {mode}), {len(differ)} differ otherwise")
for name, n, m in more[:10]:
    print(f"  more vertex shader invocations in {mode}: {name}: {n} -> {m}")
for name in differ[:20]:
    print(f"  differs: {a}/{name} {b}/{name}")
sys.exit(1 if differ else 0)
PY
done
echo "(records kept in $out)"
exit $status
