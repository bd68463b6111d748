// gl_draw_bench: the draw module's time on whatever OpenGL the process gets (the system's
// llvmpipe, or the Mesa of integrations/mesa in one DRAWPIPE_MESA mode), rasterizer discard
// on, so the time is fetch, vertex shading and the draw module's splitting, not pixels.
//
//   gl_draw_bench [--workloads W1,...,W7,MESH.obj,...] [--small N] [--ms T] [--render]
//                 [--polygon-mode line|point] [--size WxH [--png DIR]] [--xfb] [--smoke]
//
// --render turns rasterizer discard off (the target stays one pixel): the time then also has
// the pipeline stages (clipping), the hand-off to the rasterizer and llvmpipe's triangle setup,
// with next to no pixels. --polygon-mode line or point (implies --render) draws the triangles'
// edges or vertices (glPolygonMode): the draw module's unfilled stage runs on every triangle.
// --size WxH (implies --render) makes each repetition a small window's frame: a W x H colour
// and depth target cleared, the draw depth-tested into it, glFinish. Before timing, one frame's
// pixels are checked in: `# NAME frame WxH covered P, fnv H` (pixels drawn, a hash of them),
// which bench-modes.py requires to be the same in every mode; --png DIR writes it as
// DIR/NAME.png, to look at.
// --xfb captures gl_Position by transform feedback (a vec4 per vertex of every point, line or
// triangle, into a buffer with room for all), each repetition from the buffer's start: the
// draw module's stream output is timed too. Before timing, one draw's capture is checked in:
// `# NAME captured P primitives, fnv H` (the primitives written and a hash of their bytes),
// which bench-modes.py requires to be the same in every mode.
//
// Every workload is a static buffer drawn with glDrawElements (or glDrawArrays) and
// glFinish, repeated for about T ms (default 300); `small` is N draws (default 8192) of one
// 12-index triangle list each, at different offsets of one buffer, then one glFinish. It
// prints one line per workload: `NAME best_ms median_ms shaded` (shaded: the vertex shader's
// runs in one draw, GL_VERTEX_SHADER_INVOCATIONS). integrations/mesa/bench-modes.py runs
// it round by round in each mode and takes medians of the per-round ratios.
#define GL_GLEXT_PROTOTYPES 1

#include "backends/png.hpp"
#include "bench/gl_matrix_scene.hpp"
#include "workloads/headless_gl.hpp"
#include "workloads/mesh.hpp"
#include "workloads/workloads.hpp"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

struct Options {
    std::vector<std::string> workloads{"W1",
                                       "W2",
                                       "W3",
                                       "W4",
                                       "W5",
                                       "W6",
                                       "W7",
                                       "/usr/share/glmark2/models/bunny.obj",
                                       "/usr/share/glmark2/models/horse.3ds",
                                       "/usr/share/glmark2/models/cat.3ds"};
    uint32_t small = 8192;
    double ms = 300;
    bool render = false;
    GLenum polygon_mode = GL_FILL;
    int width = 0, height = 0; // --size: a frame of this size; 0: the one-pixel target
    std::string png_dir;       // --png: where the checked frames go
    bool xfb = false;
};

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "gl_draw_bench: %s\nusage: gl_draw_bench [--workloads A,B,...] [--small N] "
                 "[--ms T] [--render] [--polygon-mode line|point] [--size WxH [--png DIR]] [--xfb] "
                 "[--smoke]\n",
                 why.c_str());
    std::exit(2);
}

std::vector<std::string> split_list(std::string_view s) {
    std::vector<std::string> out;
    for (size_t pos = 0; pos <= s.size();) {
        const size_t comma = std::min(s.find(',', pos), s.size());
        if (comma > pos) out.emplace_back(s.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

GLenum gl_prim(Prim p) {
    switch (p) {
    case Prim::triangles:
        return GL_TRIANGLES;
    case Prim::triangle_strip:
        return GL_TRIANGLE_STRIP;
    case Prim::triangle_fan:
        return GL_TRIANGLE_FAN;
    case Prim::lines:
        return GL_LINES;
    case Prim::line_strip:
        return GL_LINE_STRIP;
    case Prim::points:
        return GL_POINTS;
    default:
        throw std::runtime_error("gl_draw_bench: a workload of an unexpected primitive");
    }
}

// Binds the workload's positions (float4) and indices; returns the draw as one call.
std::function<void()> bind(const Workload& w) {
    std::vector<float> pos;
    if (w.positions.empty()) {
        pos = grid_positions(1.0f / kGridSide);
    } else {
        pos.reserve(w.positions.size() / 3 * 4);
        for (size_t i = 0; i + 2 < w.positions.size(); i += 3)
            pos.insert(pos.end(), {w.positions[i], w.positions[i + 1], w.positions[i + 2], 1});
    }
    GLuint vao = 0, vbo = 0, ebo = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pos.size() * sizeof(float)), pos.data(),
                 GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    const GLenum mode = gl_prim(w.prim);
    const GLsizei count = GLsizei(w.count);
    if (w.index_type == IndexType::none) return [=] { glDrawArrays(mode, 0, count); };
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    const bool u16 = w.index_type == IndexType::u16;
    glBufferData(
        GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(u16 ? w.indices16.size() * 2 : w.indices32.size() * 4),
        u16 ? static_cast<const void*>(w.indices16.data()) : w.indices32.data(), GL_STATIC_DRAW);
    const bool restart = w.primitive_restart;
    const GLuint restart_index = w.restart_index;
    const GLenum type = u16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    return [=] {
        glBindVertexArray(vao);
        if (restart) {
            glEnable(GL_PRIMITIVE_RESTART);
            glPrimitiveRestartIndex(restart_index);
        } else {
            glDisable(GL_PRIMITIVE_RESTART);
        }
        glDrawElements(mode, count, type, nullptr);
    };
}

// Runs `draw` once inside a query of `target`; returns the query's result.
uint64_t query_around(GLenum target, const std::function<void()>& draw) {
    GLuint query = 0;
    glGenQueries(1, &query);
    glBeginQuery(target, query);
    draw();
    glEndQuery(target);
    GLuint64 result = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &result);
    glDeleteQueries(1, &query);
    return result;
}

// `draw` inside glBeginTransformFeedback / glEndTransformFeedback, capturing into a buffer of
// room for `count` elements of `prim` decomposed (strips and fans: three vertices a triangle).
// Prints what one draw captured (see the top).
std::function<void()> with_capture(const std::string& name, std::function<void()> draw, Prim prim,
                                   uint64_t count) {
    GLenum mode = GL_TRIANGLES;
    uint64_t vertices = count;
    switch (prim) {
    case Prim::points:
        mode = GL_POINTS;
        break;
    case Prim::lines:
        mode = GL_LINES;
        break;
    case Prim::line_strip:
        mode = GL_LINES, vertices = 2 * count;
        break;
    case Prim::triangle_strip:
    case Prim::triangle_fan:
        vertices = 3 * count;
        break;
    default:
        break;
    }
    GLuint buf = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(vertices * 16), nullptr, GL_STREAM_COPY);
    auto captured = [=] {
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
        glBeginTransformFeedback(mode);
        draw();
        glEndTransformFeedback();
    };
    const uint64_t written = query_around(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, captured);
    const uint64_t per_prim = mode == GL_POINTS ? 1 : mode == GL_LINES ? 2 : 3;
    std::vector<unsigned char> bytes(size_t(written * per_prim * 16));
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, GLsizeiptr(bytes.size()), bytes.data());
    uint64_t fnv = 0xcbf29ce484222325ull; // FNV-1a
    for (unsigned char b : bytes) fnv = (fnv ^ b) * 0x100000001b3ull;
    std::printf("# %s captured %llu primitives, fnv %016llx\n", name.c_str(),
                static_cast<unsigned long long>(written), static_cast<unsigned long long>(fnv));
    return captured;
}

// `draw` as a frame of `target`: cleared (opaque black, depth 1), then drawn. Prints what one frame
// drew (see the top).
std::function<void()> as_frame(const std::string& name, std::function<void()> draw,
                               const FrameTarget& target, const std::string& png_dir) {
    auto frame = [draw = std::move(draw)] {
        glClearColor(0, 0, 0, 1);
        glClearDepth(1);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        draw();
    };
    frame();
    std::vector<uint32_t> pixels(size_t(target.width()) * size_t(target.height()));
    glReadPixels(0, 0, target.width(), target.height(), GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    uint64_t covered = 0, fnv = 0xcbf29ce484222325ull; // FNV-1a over the RGBA bytes
    for (uint32_t p : pixels) {
        covered += p != 0xff000000u; // not the clear colour (R, G, B, A bytes: A on top)
        for (int b = 0; b < 4; ++b) fnv = (fnv ^ ((p >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    }
    std::printf("# %s frame %dx%d covered %llu, fnv %016llx\n", name.c_str(), target.width(),
                target.height(), static_cast<unsigned long long>(covered),
                static_cast<unsigned long long>(fnv));
    if (!png_dir.empty()) { // GL's rows run bottom up, a PNG's top down
        for (int y = 0; y < target.height() / 2; ++y)
            std::swap_ranges(pixels.begin() + ptrdiff_t(y) * target.width(),
                             pixels.begin() + ptrdiff_t(y + 1) * target.width(),
                             pixels.end() - ptrdiff_t(y + 1) * target.width());
        write_rgba_png(png_dir + "/" + name + ".png", uint32_t(target.width()),
                       uint32_t(target.height()), pixels);
    }
    return frame;
}

// N draws of 12 u16 indices each (4 triangles over 6 vertices), each at its own offset.
std::function<void()> bind_small(uint32_t n) {
    std::vector<float> pos;
    std::vector<uint16_t> idx;
    for (uint32_t i = 0; i < 6 * 64; ++i)
        pos.insert(pos.end(), {float(i % 7) * 0.1f, float(i % 5) * 0.1f, 0.5f, 1});
    for (uint32_t d = 0; d < 64; ++d)
        for (uint16_t k : {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5}) idx.push_back(uint16_t(6 * d + k));
    GLuint vao = 0, vbo = 0, ebo = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pos.size() * 4), pos.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(idx.size() * 2), idx.data(), GL_STATIC_DRAW);
    return [=] {
        glBindVertexArray(vao);
        glDisable(GL_PRIMITIVE_RESTART);
        for (uint32_t i = 0; i < n; ++i)
            glDrawElements(GL_TRIANGLES, 12, GL_UNSIGNED_SHORT,
                           reinterpret_cast<const void*>(uintptr_t(24 * (i % 64))));
    };
}

void time_it(const std::string& name, const std::function<void()>& draw, double budget_ms) {
    // Warm (shader variants compiled, buffers resident), counting the vertex shader's runs.
    const uint64_t shaded = query_around(GL_VERTEX_SHADER_INVOCATIONS_ARB, draw);
    if (const GLenum err = glGetError(); err != GL_NO_ERROR)
        throw std::runtime_error(name + ": the draw failed with GL error " + std::to_string(err));
    std::vector<double> ms;
    const auto start = Clock::now();
    do {
        const auto t0 = Clock::now();
        draw();
        glFinish();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    } while (ms.size() < 3 ||
             std::chrono::duration<double, std::milli>(Clock::now() - start).count() < budget_ms);
    std::sort(ms.begin(), ms.end());
    std::printf("%s %.4f %.4f %llu\n", name.c_str(), ms.front(), ms[ms.size() / 2],
                static_cast<unsigned long long>(shaded));
    std::fflush(stdout);
}

int run(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage("missing value after " + std::string(a));
            return argv[++i];
        };
        if (a == "--workloads")
            o.workloads = split_list(value());
        else if (a == "--small")
            o.small = uint32_t(std::strtoul(value(), nullptr, 10));
        else if (a == "--ms")
            o.ms = std::atof(value());
        else if (a == "--render")
            o.render = true;
        else if (a == "--polygon-mode") {
            const std::string_view m = value();
            if (m != "line" && m != "point") usage("--polygon-mode takes line or point");
            o.polygon_mode = m == "line" ? GL_LINE : GL_POINT;
            o.render = true;
        } else if (a == "--size") {
            const char* v = value();
            char* end = nullptr;
            o.width = int(std::strtol(v, &end, 10));
            o.height = *end == 'x' ? int(std::strtol(end + 1, &end, 10)) : 0;
            if (*end != 0 || o.width < 1 || o.height < 1 || o.width > 4096 || o.height > 4096)
                usage("--size takes WxH, each from 1 to 4096");
            o.render = true;
        } else if (a == "--png") {
            o.png_dir = value();
        } else if (a == "--xfb") {
            o.xfb = true;
        } else if (a == "--smoke") {
            o.workloads = {"W1"};
            o.small = 64;
            o.ms = 1;
        } else
            usage("unknown argument " + std::string(a));
    }
    if (!o.png_dir.empty() && !o.width) usage("--png needs --size");
    try {
        const HeadlessGl gl = open_headless_gl(GlProfile::core, 4, 5);
        std::printf("# %s, %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                    gl.platform.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gl_draw_bench: no usable OpenGL: %s\n", e.what());
        return 77;
    }
    // The matrix mesa_draw_bench draws with; the draws' time, not their pixels, matters.
    const float m[16] = {1.2f, 0, 0.1f, -0.6f, 0, 1.5f, 0.2f,  -0.75f,
                         0,    0, -1,   -0.2f, 0, 0,    -0.2f, 1};
    use_matrix_program(m, o.xfb);
    const DiscardTarget target;
    std::unique_ptr<FrameTarget> frame;
    if (o.width) frame = std::make_unique<FrameTarget>(o.width, o.height);
    if (o.render) glDisable(GL_RASTERIZER_DISCARD);
    glPolygonMode(GL_FRONT_AND_BACK, o.polygon_mode);
    for (const std::string& id : o.workloads) {
        const Workload w = load_input(id);
        const std::string name = w.positions.empty() ? w.id : id.substr(id.rfind('/') + 1);
        auto draw = bind(w);
        if (o.xfb) draw = with_capture(name, draw, w.prim, w.count);
        if (frame) draw = as_frame(name, draw, *frame, o.png_dir);
        time_it(name, draw, o.ms);
    }
    if (o.small) {
        auto draw = bind_small(o.small);
        const std::string name = "small" + std::to_string(o.small);
        if (o.xfb) draw = with_capture(name, draw, Prim::triangles, 12 * uint64_t(o.small));
        if (frame) draw = as_frame(name, draw, *frame, o.png_dir);
        time_it(name, draw, o.ms);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gl_draw_bench: %s\n", e.what());
        return 1;
    }
}
