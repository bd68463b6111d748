// A headless OpenGL context on Mesa's llvmpipe: no display, no window, no surface. The one
// set-up of the programs that draw with real OpenGL (tests/mesa, bench/mesa_draw_bench). It
// uses nothing of drawpipe, so tests/mesa also builds alone against it.
#pragma once

#include <stdexcept>
#include <string>

namespace drawpipe::workloads {

// This machine has no usable headless OpenGL; the GL-side programs exit 77 ("skipped") on it.
struct NoHeadlessGl : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class GlProfile { core, compatibility };

struct HeadlessGl {
    std::string platform;     // how the display was opened: "EGL_MESA_platform_surfaceless", ...
    int major = 0, minor = 0; // the context's version
};

// Opens a surfaceless OpenGL context of `profile` at the newest version from 4.6 down to
// min_major.min_minor and makes it current on this thread. Software rendering on llvmpipe,
// unless the environment already chose otherwise (LIBGL_ALWAYS_SOFTWARE, EGL_PLATFORM and
// GALLIUM_DRIVER are set only where unset). The display is EGL's surfaceless platform, else
// an EGL software device. Throws NoHeadlessGl naming what is missing.
HeadlessGl open_headless_gl(GlProfile profile, int min_major, int min_minor);

// Whether the space-separated extension list `list` (null: none) names `ext` exactly.
bool has_extension(const char* list, const char* ext);

// Whether the current context offers the GL extension `name`.
bool has_gl_extension(const char* name);

} // namespace drawpipe::workloads
