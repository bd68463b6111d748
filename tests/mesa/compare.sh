#!/bin/sh
# Builds mesa_trace into build/mesa and compares drawpipe with real Mesa on random draws.
#   tests/mesa/compare.sh [compare.py options]      e.g. --per-prim 1000, --gs, --variants
# drawpipe itself comes from $DRAWPIPE (default build/default/tools/drawpipe).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake -S "$root/tests/mesa" -B "$root/build/mesa" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build/mesa" >/dev/null
exec python3 "$root/tests/mesa/compare.py" \
    --drawpipe "${DRAWPIPE:-$root/build/default/tools/drawpipe}" \
    --mesa-trace "$root/build/mesa/mesa_trace" --out "$root/build/mesa/mismatches" "$@"
