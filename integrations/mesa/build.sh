#!/usr/bin/env bash
# Builds the Mesa this machine runs (Debian's source of the installed libgl1-mesa-dri) with
# drawpipe inside its draw module: a minimal llvmpipe + softpipe build (GLX through DRI, EGL
# with the X11 and surfaceless platforms, LLVM 15) in build/mesa/. Reuses whatever is already
# built. Never touches the system's apt configuration or its Mesa: run programs on the build
# with integrations/mesa/run.sh. docs/mesa.md says what each piece does.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${DRAWPIPE_MESA_BUILD:-$ROOT/build/mesa}
mkdir -p "$OUT"
log() { echo "mesa: $*" >&2; }

# 1. drawpipe, installed into a prefix of its own; Mesa links it through drawpipe.pc.
#    Position-independent: it ends up inside swrast_dri.so and libEGL_mesa.so.
log "drawpipe library -> $OUT/prefix"
cmake --preset lib -B "$OUT/drawpipe" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_INSTALL_PREFIX="$OUT/prefix" >/dev/null
cmake --build "$OUT/drawpipe"
cmake --install "$OUT/drawpipe" >/dev/null

# 2. Mesa's source, as Debian ships it, through a private apt list (the machine's own lists
#    carry no deb-src entries): the archive and suites its sources name.
VERSION=$(dpkg-query -W -f='${Version}' libgl1-mesa-dri)
UPSTREAM=${VERSION%%-*}
SRC="$OUT/mesa-$UPSTREAM"
if [ ! -f "$SRC/meson.build" ]; then
    APT="$OUT/apt"
    mkdir -p "$APT/lists/partial" "$OUT/download"
    uris=$(awk '/^URIs:/{print $2}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    : >"$APT/src.list"
    for u in ${uris:-http://deb.debian.org/debian}; do
        case "$u" in
        *security*) echo "deb-src $u bookworm-security main" >>"$APT/src.list" ;;
        *) echo "deb-src $u bookworm main" >>"$APT/src.list"
           echo "deb-src $u bookworm-updates main" >>"$APT/src.list" ;;
        esac
    done
    A=(-o Dir::Etc::sourcelist="$APT/src.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$APT/lists")
    apt-get "${A[@]}" update -qq
    # The installed version when the archive still has it, else the newest of the same
    # upstream release (a Debian security revision differs in a few patches, none in draw/).
    (cd "$OUT/download" && { apt-get "${A[@]}" source --download-only -qq "mesa=$VERSION" 2>/dev/null ||
        apt-get "${A[@]}" source --download-only -qq mesa; })
    dsc=$(ls "$OUT/download"/mesa_"$UPSTREAM"-*.dsc | tail -1)
    log "source: $(basename "$dsc") (installed: $VERSION)"
    rm -rf "$SRC.tmp"
    dpkg-source --no-check -x "$dsc" "$SRC.tmp" >/dev/null
    patch -d "$SRC.tmp" -p1 --forward <"$HERE/mesa-22.3.patch" >/dev/null
    cp "$HERE/mesa-22.3.patch" "$SRC.tmp/.drawpipe.patch"
    mv "$SRC.tmp" "$SRC"
fi
# A changed patch is swapped in place (the old one reversed, the new one applied), so ninja
# rebuilds only the files it touches.
if ! cmp -s "$SRC/.drawpipe.patch" "$HERE/mesa-22.3.patch"; then
    if [ ! -f "$SRC/.drawpipe.patch" ] ||
        ! patch -d "$SRC" -p1 -R --dry-run <"$SRC/.drawpipe.patch" >/dev/null ||
        ! patch -d "$SRC" -p1 -R <"$SRC/.drawpipe.patch" >/dev/null ||
        ! patch -d "$SRC" -p1 --forward <"$HERE/mesa-22.3.patch" >/dev/null; then
        echo "mesa: mesa-22.3.patch changed and $SRC could not be moved to it: remove $SRC" \
            "and run again" >&2
        exit 1
    fi
    cp "$HERE/mesa-22.3.patch" "$SRC/.drawpipe.patch"
    log "mesa-22.3.patch changed: applied anew"
fi
# The adapter's own files: copied every time (ninja rebuilds what changed).
for f in "$HERE"/src/*; do
    cmp -s "$f" "$SRC/src/gallium/auxiliary/draw/$(basename "$f")" ||
        cp "$f" "$SRC/src/gallium/auxiliary/draw/"
done

# 3. Configure once (meson needs Debian's python3 with mako; libEGL's
#    DRI3 helper needs -lxcb-randr at the final link), then build.
BUILD="$OUT/build"
if [ ! -f "$BUILD/build.ninja" ]; then
    PATH=/usr/bin:$PATH PKG_CONFIG_PATH="$OUT/prefix/lib/pkgconfig:$OUT/prefix/share/pkgconfig" \
    meson setup "$BUILD" "$SRC" -Dgallium-drivers=swrast -Dvulkan-drivers= \
        -Dplatforms=x11 -Dglx=dri -Degl=enabled -Dglvnd=true -Dgbm=disabled -Dgles1=disabled \
        -Dgles2=enabled -Dllvm=enabled -Dshared-llvm=enabled -Dbuildtype=release \
        -Dvalgrind=disabled -Dlibunwind=disabled -Dlmsensors=disabled -Dosmesa=false \
        -Dgallium-vdpau=disabled -Dgallium-va=disabled -Dgallium-xa=disabled \
        -Dgallium-nine=false -Dgallium-opencl=disabled -Dgallium-omx=disabled \
        -Dxlib-lease=disabled -Db_asneeded=false -Dcpp_link_args=-lxcb-randr >"$OUT/meson-setup.log"
fi
start=$(date +%s)
PATH=/usr/bin:$PATH ninja -C "$BUILD"
log "built in $(( $(date +%s) - start )) s: $BUILD"

# glvnd finds EGL vendors through JSON files naming the library by full path.
sed "s#\"library_path\" *: *\"[^\"]*\"#\"library_path\" : \"$BUILD/src/egl/libEGL_mesa.so.0\"#" \
    "$BUILD/src/egl/50_mesa.json" >"$OUT/50_drawpipe_mesa.json"
