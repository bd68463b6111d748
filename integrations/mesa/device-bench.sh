#!/usr/bin/env bash
# The draw module's time, `off` against `whole`, on a machine reached only with a bundle
# (pack-device.sh): the tables docs/mesa.md quotes for the 16-core machine. From the
# repository root there, with the bundle in build/bundle:
#   integrations/mesa/device-bench.sh OUT_DIR [ROUNDS]
# (DEVICE_BENCH_MODES=off,whole,... replaces the first table's modes; DEVICE_BENCH_TABLES="modes
# xfb" runs only those tables.)
# Writes one Markdown table per question into OUT_DIR (rasterizer discard unless named):
#   modes.md    off, whole on every core, on one thread, and with the split on the draw's
#               thread (DRAWPIPE_MESA_CHUNKS=0) (W1, W3, W7, meshes, small draws)
#   threads.md  whole on 2, 4 and 8 threads (LP_NUM_THREADS), the scaling curve
#   xfb.md      the same with transform feedback capturing gl_Position
#   render.md   rendering on (one-pixel target): stages, hand-off and setup too, both pools busy
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
out=${1:?usage: device-bench.sh OUT_DIR [ROUNDS]}
rounds=${2:-5}
B=$ROOT/build/bundle
mkdir -p "$out"
"$B/unpack" || exit 2
export PYTHONUNBUFFERED=1
{
    echo "commit $(cat "$B/commit"), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    date -u
} | tee "$out/machine.txt"
meshes=$B/models/bunny.obj,$B/models/horse.3ds,$B/models/cat.3ds
bench() { # NAME MODES ROUNDS [gl_draw_bench args]
    local name=$1 modes=$2 r=$3
    shift 3
    case " ${DEVICE_BENCH_TABLES:-modes threads xfb render} " in *" $name "*) ;; *) return ;; esac
    echo "== $name: $modes, $r rounds, $*"
    python3 "$HERE/bench-modes.py" --runner "$B/mesa-run" --bench "$B/gl_draw_bench" \
        --rounds "$r" --modes "$modes" -- "$@" | tee "$out/$name.md"
}
bench modes "${DEVICE_BENCH_MODES:-off,whole,whole:LP_NUM_THREADS=1,whole:DRAWPIPE_MESA_CHUNKS=0}" "$rounds" \
    --workloads W1,W3,W7,$meshes --small 8192 --ms 300
bench threads off,whole:LP_NUM_THREADS=2,whole:LP_NUM_THREADS=4,whole:LP_NUM_THREADS=8 \
    $(((rounds + 1) / 2)) --workloads W1,W3,W7,$meshes --small 0 --ms 300
bench xfb off,whole "$(((rounds + 1) / 2))" --workloads W1,W3,W7,$meshes --small 8192 --ms 300 --xfb
bench render off,whole "$(((rounds + 1) / 2))" --workloads W1,W3,W7,$meshes --small 8192 --ms 300 \
    --render
DRAWPIPE_MESA_STATS=1 "$B/mesa-run" whole "$B/gl_draw_bench" --workloads W1,W3,$meshes \
    --small 64 --ms 50 2>&1 | tee "$out/stats.txt"
