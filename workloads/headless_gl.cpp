#include "workloads/headless_gl.hpp"

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace drawpipe::workloads {

namespace {

template <class F> F egl_proc(const char* name) {
    return reinterpret_cast<F>(eglGetProcAddress(name));
}

// EGL's surfaceless platform, else the first EGL device that is Mesa's software device; `how`
// names which.
EGLDisplay open_display(std::string& how) {
    const auto get_platform_display =
        egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    const auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    const auto query_device_string =
        egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    if (!get_platform_display) throw NoHeadlessGl("no eglGetPlatformDisplayEXT");
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay dpy =
            get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, nullptr, nullptr)) {
            how = "EGL_MESA_platform_surfaceless";
            return dpy;
        }
    }
    if (has_extension(client, "EGL_EXT_platform_device") && query_devices && query_device_string) {
        EGLDeviceEXT devices[16];
        EGLint n = 0;
        if (query_devices(16, devices, &n))
            for (EGLint i = 0; i < n; ++i) {
                if (!has_extension(query_device_string(devices[i], EGL_EXTENSIONS),
                                   "EGL_MESA_device_software"))
                    continue;
                EGLDisplay dpy = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, nullptr, nullptr)) {
                    how = "EGL_EXT_platform_device (software device)";
                    return dpy;
                }
            }
    }
    throw NoHeadlessGl("no headless EGL display (need EGL_MESA_platform_surfaceless or "
                       "EGL_EXT_platform_device with a software device)");
}

} // namespace

bool has_extension(const char* list, const char* ext) {
    if (!list) return false;
    const std::string_view l(list), e(ext);
    for (size_t pos = 0; (pos = l.find(e, pos)) != std::string_view::npos; pos += e.size()) {
        const bool starts = pos == 0 || l[pos - 1] == ' ';
        const bool ends = pos + e.size() == l.size() || l[pos + e.size()] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

bool has_gl_extension(const char* name) {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
        if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))),
                        name) == 0)
            return true;
    return false;
}

HeadlessGl open_headless_gl(GlProfile profile, int min_major, int min_minor) {
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0);
    setenv("EGL_PLATFORM", "surfaceless", 0);
    setenv("GALLIUM_DRIVER", "llvmpipe", 0);
    HeadlessGl gl;
    EGLDisplay dpy = open_display(gl.platform);
    const char* dpy_ext = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!has_extension(dpy_ext, "EGL_KHR_no_config_context") ||
        !has_extension(dpy_ext, "EGL_KHR_surfaceless_context"))
        throw NoHeadlessGl(
            "EGL_KHR_no_config_context and EGL_KHR_surfaceless_context are required");
    if (!eglBindAPI(EGL_OPENGL_API)) throw NoHeadlessGl("eglBindAPI(EGL_OPENGL_API) failed");
    const bool core = profile == GlProfile::core;
    const std::string wanted = "OpenGL " + std::to_string(min_major) + "." +
                               std::to_string(min_minor) + "+ " +
                               (core ? "core" : "compatibility") + "-profile context";
    const int least = min_major * 10 + min_minor;
    // The desktop GL versions with core and compatibility profiles, newest first: EGL gives
    // no lower version than asked for, it fails instead.
    static constexpr int kVersions[][2] = {{4, 6}, {4, 5}, {4, 4}, {4, 3}, {4, 2},
                                           {4, 1}, {4, 0}, {3, 3}, {3, 2}};
    EGLContext ctx = EGL_NO_CONTEXT;
    for (const auto& v : kVersions) {
        if (v[0] * 10 + v[1] < least || ctx != EGL_NO_CONTEXT) break;
        const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                  v[0],
                                  EGL_CONTEXT_MINOR_VERSION,
                                  v[1],
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                       : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                                  EGL_NONE};
        ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    }
    if (ctx == EGL_NO_CONTEXT) throw NoHeadlessGl("no " + wanted);
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
        throw NoHeadlessGl("eglMakeCurrent failed");
    glGetIntegerv(GL_MAJOR_VERSION, &gl.major);
    glGetIntegerv(GL_MINOR_VERSION, &gl.minor);
    if (gl.major * 10 + gl.minor < least)
        throw NoHeadlessGl(wanted + " was asked for, version " + std::to_string(gl.major) + "." +
                           std::to_string(gl.minor) + " was made");
    return gl;
}

} // namespace drawpipe::workloads
