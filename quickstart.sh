#!/usr/bin/env bash
# drawpipe set-up: `./quickstart.sh demo` builds and runs the demo; `./quickstart.sh test`
# builds and runs the test suite, then again under ASan+UBSan, the threaded tests under
# ThreadSanitizer, and a short run of each libFuzzer target (fuzz/README.md).
# Missing Debian packages are installed when run as root; otherwise the exact
# apt-get line is printed and the script stops.
set -euo pipefail
cd "$(dirname "$0")"

# The GL packages are for tests/mesa (real OpenGL: Mesa's llvmpipe, headless EGL); clang
# and its runtime build the libFuzzer targets of fuzz/; meson builds the C example against
# the installed package through pkg-config (tests/install).
PACKAGES=(cmake ninja-build g++ pkg-config libboost-dev libtbb-dev libgtest-dev libgmock-dev
          libbenchmark-dev libcli11-dev libmeshoptimizer-dev libhwy-dev libassimp-dev libfmt-dev
          nlohmann-json3-dev libstb-dev glmark2-data
          python3 libegl-dev libgl-dev libopengl-dev libegl-mesa0 libgl1-mesa-dri
          clang libclang-rt-14-dev librsvg2-bin meson)

# `./quickstart.sh mesa` (docs/mesa.md): Mesa's llvmpipe built from Debian's source with drawpipe
# inside its draw module, and the judges that run on it (piglit and glmark2 under Xvfb).
MESA_PACKAGES=(dpkg-dev python3-mako bison flex llvm-15-dev libdrm-dev libelf-dev libexpat1-dev
               zlib1g-dev libzstd-dev libglvnd-dev libx11-dev libxext-dev libxfixes-dev
               libxdamage-dev libx11-xcb-dev libxcb-glx0-dev libxcb-shm0-dev libxcb-randr0-dev
               libxcb-xfixes0-dev libxcb-dri2-0-dev libxcb-dri3-dev libxcb-present-dev
               libxcb-sync-dev libxshmfence-dev libxxf86vm-dev libxrandr-dev
               xvfb xauth piglit glmark2-x11)

ensure_packages() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "drawpipe needs these Debian packages; run as root:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
        exit 2
    fi
    echo "Installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() { # build PRESET [-DVAR=VALUE...] [TARGETS...]
    local preset=$1 defines=() targets=()
    shift
    for a in "$@"; do
        case "$a" in -D*) defines+=("$a") ;; *) targets+=("$a") ;; esac
    done
    cmake --preset "$preset" ${defines[@]+"${defines[@]}"} >/dev/null
    cmake --build --preset "$preset" ${targets[@]+--target "${targets[@]}"}
}

case "${1:-}" in
demo)
    ensure_packages
    build default drawpipe
    ./build/default/tools/drawpipe demo "${@:2}"
    ;;
mesa)
    PACKAGES+=("${MESA_PACKAGES[@]}")
    ensure_packages
    integrations/mesa/build.sh
    build default -DDRAWPIPE_BUILD_BENCH=ON drawpipe mesa_trace mesa_render gl_draw_bench
    integrations/mesa/smoke.sh
    ;;
test)
    ensure_packages
    # The benchmarks are built only when asked; CI asks, so each one's --smoke run is a test.
    build default -DDRAWPIPE_BUILD_BENCH=ON
    ctest --preset default -j 2
    # The parallel pipeline must be clean under ThreadSanitizer (tests/CMakeLists.txt
    # builds only the threaded tests in this preset).
    build tsan
    ctest --preset tsan -j 2
    # The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (a Debug build at -O1,
    # so the debug-only index-range check runs too).
    build asan -DDRAWPIPE_BUILD_BENCH=ON
    ctest --preset asan -j 2
    # Each libFuzzer target for DRAWPIPE_FUZZ_SECONDS (a minute) and its saved regressions,
    # under ASan + UBSan with debug checks off (fuzz/README.md runs them for hours).
    build fuzz
    ctest --preset fuzz -j 2
    ;;
*)
    echo "usage: $0 demo|test|mesa" >&2
    exit 64
    ;;
esac
