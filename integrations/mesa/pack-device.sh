#!/usr/bin/env bash
# Packs the built Mesa and gl_draw_bench so that bench-modes.py runs them on a machine with no
# Mesa, no -dev packages and no display (the 16-core machine behind the device tool):
#   integrations/mesa/pack-device.sh [OUT_DIR]          # default build/bundle
# then, there, from the repository root:
#   build/bundle/unpack && integrations/mesa/bench-modes.py --runner build/bundle/mesa-run \
#       --bench build/bundle/gl_draw_bench -- --workloads W1,build/bundle/models/bunny.obj
# The bundle holds gl_draw_bench, the build's swrast_dri.so, libEGL_mesa and libglapi, every
# library they load (libtbbmalloc too: libtbb opens it itself) and this machine's dynamic
# loader, glmark2's three meshes, and `mesa-run MODE PROGRAM [ARGS]`, run.sh's equivalent:
# glvnd finds the bundle's EGL vendor, the loader looks in the bundle's lib/ only.
# The libraries travel as one xz archive (LLVM alone is 117 MB), unpacked there by `unpack`.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${1:-$ROOT/build/bundle}
MESA=$ROOT/build/mesa/build
BENCH=$ROOT/build/default/bench/gl_draw_bench
for f in "$MESA/src/gallium/targets/dri/swrast_dri.so" "$BENCH"; do
    [ -f "$f" ] || { echo "pack-device: missing $f (run ./quickstart.sh mesa)" >&2; exit 2; }
done
rm -rf "$OUT"
mkdir -p "$OUT/lib"
cp "$BENCH" "$OUT/"
strip --strip-debug "$OUT/gl_draw_bench"
tbbmalloc=$(ldconfig -p | awk '/libtbbmalloc\.so\.2 .*x86-64/ {print $NF; exit}')
for so in "$BENCH" "$MESA/src/gallium/targets/dri/swrast_dri.so" "$MESA/src/egl/libEGL_mesa.so.0" \
    "$MESA/src/mapi/shared-glapi/libglapi.so.0" $tbbmalloc; do
    [ "$so" = "$BENCH" ] || { cp -L "$so" "$OUT/lib/$(basename "$so")"; strip --strip-debug "$OUT/lib/$(basename "$so")"; }
    ldd "$so" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r dep; do
        [ -f "$OUT/lib/$(basename "$dep")" ] || cp -L "$dep" "$OUT/lib/"
    done
done
loader=$(ldd "$BENCH" | awk '$1 ~ /ld-linux/ {print $1}')
cp -L "$loader" "$OUT/ld-linux-x86-64.so.2"
git -C "$ROOT" rev-parse --short HEAD >"$OUT/commit"
mkdir -p "$OUT/models"
cp /usr/share/glmark2/models/{bunny.obj,horse.3ds,cat.3ds} "$OUT/models/"
(cd "$OUT" && tar cf - lib | xz -T0 -6 >lib.tar.xz && rm -rf lib)
cat >"$OUT/unpack" <<'UNPACK'
#!/bin/sh
# unpack: the libraries out of their archive, and the EGL vendor file naming this folder.
dir="$(cd "$(dirname "$0")" && pwd)"
[ -d "$dir/lib" ] || xz -dc "$dir/lib.tar.xz" | tar xf - -C "$dir"
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s/lib/libEGL_mesa.so.0"}}\n' \
    "$dir" >"$dir/egl_vendor.json"
UNPACK
cat >"$OUT/mesa-run" <<'RUN'
#!/bin/sh
# mesa-run MODE PROGRAM [ARGS...]: run.sh's equivalent on the bundle (DRAWPIPE_MESA=MODE).
dir="$(cd "$(dirname "$0")" && pwd)"
mode=$1; prog=$2; shift 2
DRAWPIPE_MESA=$mode GALLIUM_DRIVER=${GALLIUM_DRIVER:-llvmpipe} \
__EGL_VENDOR_LIBRARY_FILENAMES="$dir/egl_vendor.json" LIBGL_DRIVERS_PATH="$dir/lib" \
    exec "$dir/ld-linux-x86-64.so.2" --library-path "$dir/lib" "$prog" "$@"
RUN
chmod +x "$OUT/unpack" "$OUT/mesa-run"
echo "pack-device: $OUT ($(du -sh "$OUT" | cut -f1))"
