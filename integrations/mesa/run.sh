#!/usr/bin/env bash
# Runs a program on the Mesa built by build.sh, never on the system's:
#   integrations/mesa/run.sh MODE PROGRAM [ARGS...]      MODE: off | front | shade | whole (DRAWPIPE_MESA)
# EGL programs (headless) find the build through glvnd's vendor file, GLX programs through
# __GLX_VENDOR_LIBRARY_NAME; both load its swrast_dri.so. Afterwards it checks, from the
# dynamic loader's own record, that the build's driver was the one loaded, and fails (exit
# 3) if any process of the run loaded the system's instead. GALLIUM_DRIVER defaults to
# llvmpipe; set it to softpipe for softpipe.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${DRAWPIPE_MESA_BUILD:-$ROOT/build/mesa}
BUILD="$OUT/build"
if [ $# -lt 2 ] || ! [[ "$1" =~ ^(off|front|shade|whole)$ ]]; then
    echo "usage: $0 off|front|shade|whole PROGRAM [ARGS...]" >&2
    exit 64
fi
if [ ! -f "$BUILD/src/gallium/targets/dri/swrast_dri.so" ]; then
    echo "run.sh: no Mesa build in $BUILD: run ./quickstart.sh mesa first" >&2
    exit 2
fi
mode=$1
shift
trace=$(mktemp -d)
DRAWPIPE_MESA=$mode \
GALLIUM_DRIVER=${GALLIUM_DRIVER:-llvmpipe} \
__EGL_VENDOR_LIBRARY_FILENAMES="$OUT/50_drawpipe_mesa.json" \
__GLX_VENDOR_LIBRARY_NAME=mesa \
LD_LIBRARY_PATH="$BUILD/src/glx:$BUILD/src/mapi/shared-glapi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
LIBGL_DRIVERS_PATH="$BUILD/src/gallium/targets/dri" \
LD_DEBUG=files LD_DEBUG_OUTPUT="$trace/ld" \
    "$@"
status=$?
# "file=PATH [0];  needed by ..." / "calling init: PATH": every swrast_dri.so opened.
loaded=$(cat "$trace"/ld.* 2>/dev/null | grep -o '[^ =]*swrast_dri\.so' | sort -u)
rm -rf "$trace"
if [ -n "$loaded" ] && echo "$loaded" | grep -qv "^$BUILD/"; then
    echo "run.sh: a process loaded a driver that is not the build's: $(echo $loaded)" >&2
    exit 3
fi
if [ -z "$loaded" ]; then
    echo "run.sh: no process loaded swrast_dri.so (the program made no GL context?)" >&2
fi
exit $status
