// mesa_draw_bench: the whole draw through Mesa's llvmpipe and through drawpipe, interleaved
// round by round in one process (issue 14, item 5).
//
//   mesa_draw_bench [--rounds N] [--middle-end NAME|all|A,B] [--mesh FILE|none] [--json FILE]
//                   [--split-cache] [--smoke]
//
// Both sides transform the same float4 positions by the same 4x4 matrix
// (gl_Position = M * pos) for the same indices:
//   Mesa      headless EGL (EGL_MESA_platform_surfaceless, else a software EGL device),
//             OpenGL 4.5+ core on llvmpipe, GL_RASTERIZER_DISCARD, static buffers; each timed
//             draw is glDrawElements + glFinish. GL_VERTEX_SHADER_INVOCATIONS
//             (ARB_pipeline_statistics_query) counts the vertices it shaded.
//   drawpipe  Context (1 thread, and 2 threads) + the middle end(s) named + the counting
//             backend; each timed draw is draw() + flush(). DrawStats gives the fetched
//             (= shaded) vertex count.
//   limit     the physical-limit loop (bench/mesa_draw_limit.hpp): every index read, its
//             position gathered and transformed, nothing else.
//   limit2    the same loop on 2 threads, each half the indices (a 2-thread task arena, as
//             drawpipe's). Work that divides perfectly: its speed-up in a round is what the
//             machine gave 2 threads then, the yardstick for drawpipe's dp1/dp2 (on a shared
//             virtual machine it ranges from 1x to 2x run to run).
// Workloads: W1, W3, W7 (docs/workloads.md) over a 1024 x 1024 grid, and a real mesh
// (glmark2-data's bunny.obj by default; skipped when missing).
//
// Every round runs each configuration once, in a rotating order; ratios are medians of the
// rounds' own ratios (a round's runs are adjacent in time, so they share the machine's mood),
// times are best (and median) ms. Exit status 77 when there is no usable headless OpenGL.
#define GL_GLEXT_PROTOTYPES 1

#include "bench/gl_matrix_scene.hpp"
#include "bench/mesa_draw_limit.hpp"
#include "bench/rounds.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "workloads/headless_gl.hpp"
#include "workloads/mesh.hpp"
#include "workloads/workloads.hpp"

#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/task_arena.h>

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kGrid = kGridSide;
constexpr const char* kDefaultMesh = "/usr/share/glmark2/models/bunny.obj";
constexpr int kNoGl = 77;

// The matrix (row-major: out[r] = sum_c M[4r + c] * pos[c]), pipeline_bench's. It is read at
// run time on every side (a GL uniform, a variable for drawpipe and the limit loop), so no
// compiler can fold its zeros away where llvmpipe cannot.
// Maps the workloads' [0, 1]^2 grid (z 0.5, w 1) inside the view volume, so that with
// --raster no vertex is clipped: x in [-0.55, 0.65], y in [-0.65, 0.85], z -0.7, w 0.9.
float g_matrix[16] = {1.2f, 0.0f, 0.1f,  -0.6f, 0.0f, 1.5f, 0.2f,  -0.75f,
                      0.0f, 0.0f, -1.0f, -0.2f, 0.0f, 0.0f, -0.2f, 1.0f};

// ---------------------------------------------------------------------------------------
// Options.

struct Options {
    int rounds = 30;
    bool smoke = false;
    bool split_cache = false;
    std::string middle_end = "fetch_shade_simd";
    std::string mesh = kDefaultMesh;
    std::string json;
    std::string workloads = "W1,W3,W7";
    bool raster = false; // drawpipe clips and maps to a 1024 x 1024 viewport
};

// "a,b,c" as its items.
std::vector<std::string> split_list(const std::string& arg) {
    std::vector<std::string> items;
    for (size_t pos = 0; pos <= arg.size();) {
        const size_t comma = std::min(arg.find(',', pos), arg.size());
        items.push_back(arg.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return items;
}

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "mesa_draw_bench: %s\nusage: mesa_draw_bench [--rounds N] [--middle-end "
                 "NAME|all|A,B] [--workloads W1,W3,W7] [--mesh FILE|none] [--json FILE] "
                 "[--split-cache] [--raster] [--smoke]\n",
                 why);
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage("missing value");
            return argv[++i];
        };
        if (a == "--smoke") {
            o.smoke = true;
        } else if (a == "--raster") {
            o.raster = true;
        } else if (a == "--split-cache") {
            o.split_cache = true;
        } else if (a == "--rounds") {
            o.rounds = std::atoi(value());
            if (o.rounds < 1) usage("--rounds must be at least 1");
        } else if (a == "--middle-end") {
            o.middle_end = value();
        } else if (a == "--workloads") {
            o.workloads = value();
            for (const std::string& id : split_list(o.workloads))
                if (id != "W1" && id != "W3" && id != "W7")
                    usage(("unknown workload " + id + " (W1, W3, W7)").c_str());
        } else if (a == "--mesh") {
            o.mesh = value();
        } else if (a == "--json") {
            o.json = value();
        } else {
            usage(("unknown argument " + std::string(a)).c_str());
        }
    }
    if (o.smoke) o.rounds = 1;
    return o;
}

// ---------------------------------------------------------------------------------------
// Headless OpenGL (workloads/headless_gl.hpp), a core context.

struct GlInfo {
    std::string platform, renderer, version;
    bool statistics = false; // ARB_pipeline_statistics_query (or GL 4.6)
};

GlInfo init_gl() {
    const HeadlessGl made = open_headless_gl(GlProfile::core, 4, 5);
    GlInfo gl;
    gl.platform = made.platform;
    gl.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    gl.version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    gl.statistics =
        made.major * 10 + made.minor >= 46 || has_gl_extension("GL_ARB_pipeline_statistics_query");
    return gl;
}

void check_gl(const char* where) {
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
        char msg[128];
        std::snprintf(msg, sizeof msg, "GL error 0x%x at %s", e, where);
        throw std::runtime_error(msg);
    }
}

// One workload's draw on the Mesa side: its VAO holds the position buffer and index buffer.
struct GlDraw {
    GLuint vao = 0, buffers[2] = {};
    GLenum mode = GL_TRIANGLES, type = GL_UNSIGNED_INT;
    GLsizei count = 0;
    bool restart = false;
    GLuint restart_index = 0;

    GlDraw(const Workload& w, const std::vector<float>& positions) {
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
        glGenBuffers(2, buffers);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(positions.size() * sizeof(float)),
                     positions.data(), GL_STATIC_DRAW);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
        glEnableVertexAttribArray(0);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
        if (w.index_type == IndexType::u16) {
            type = GL_UNSIGNED_SHORT;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(w.count * 2), w.indices16.data(),
                         GL_STATIC_DRAW);
        } else {
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(w.count * 4), w.indices32.data(),
                         GL_STATIC_DRAW);
        }
        mode = w.prim == Prim::triangle_strip ? GL_TRIANGLE_STRIP : GL_TRIANGLES;
        count = GLsizei(w.count);
        restart = w.primitive_restart;
        restart_index = w.restart_index;
        glBindVertexArray(0);
        check_gl("upload");
    }
    ~GlDraw() {
        glDeleteBuffers(2, buffers);
        glDeleteVertexArrays(1, &vao);
    }
    GlDraw(const GlDraw&) = delete;
    GlDraw& operator=(const GlDraw&) = delete;

    void bind() const {
        glBindVertexArray(vao);
        if (restart) {
            glEnable(GL_PRIMITIVE_RESTART);
            glPrimitiveRestartIndex(restart_index);
        } else {
            glDisable(GL_PRIMITIVE_RESTART);
        }
    }
    void draw() const {
        glDrawElements(mode, count, type, nullptr);
        glFinish();
    }
    // Vertices shaded (GL_VERTEX_SHADER_INVOCATIONS, 0 without the extension) and primitives
    // generated by one draw.
    std::pair<uint64_t, uint64_t> count_draw(bool statistics) const {
        GLuint q[2] = {};
        glGenQueries(2, q);
        bind();
        if (statistics) glBeginQuery(GL_VERTEX_SHADER_INVOCATIONS_ARB, q[0]);
        glBeginQuery(GL_PRIMITIVES_GENERATED, q[1]);
        draw();
        glEndQuery(GL_PRIMITIVES_GENERATED);
        if (statistics) glEndQuery(GL_VERTEX_SHADER_INVOCATIONS_ARB);
        GLuint64 shaded = 0, prims = 0;
        if (statistics) glGetQueryObjectui64v(q[0], GL_QUERY_RESULT, &shaded);
        glGetQueryObjectui64v(q[1], GL_QUERY_RESULT, &prims);
        glDeleteQueries(2, q);
        check_gl("query");
        return {shaded, prims};
    }
};

// ---------------------------------------------------------------------------------------
// drawpipe.

// The same shader over SoA blocks, as a driver's SIMD shader would be written: plain loops
// over the lanes, rows as non-aliasing pointers, lanes in chunks of 8 (GCC's -O2 cost model
// vectorises only a loop whose trip count it knows), then one lane at a time.
template <uint32_t kChunk>
inline void matrix_row(const float* __restrict x, const float* __restrict y,
                       const float* __restrict z, const float* __restrict w, float* __restrict out,
                       float m0, float m1, float m2, float m3) {
    for (uint32_t l = 0; l < kChunk; ++l) out[l] = m0 * x[l] + m1 * y[l] + m2 * z[l] + m3 * w[l];
}

// Compiled for the CPU it runs on, as llvmpipe JIT-compiles its shader for the host (8 wide
// with AVX2): a clone per instruction set, chosen when the program loads.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void matrix_block(const ShaderBlock& b, const float* m) {
    const float *x = b.in[0], *y = b.in[1], *z = b.in[2], *w = b.in[3];
    for (int r = 0; r < 4; ++r) {
        const float m0 = m[4 * r], m1 = m[4 * r + 1], m2 = m[4 * r + 2], m3 = m[4 * r + 3];
        uint32_t l = 0;
        for (; l + 8 <= b.count; l += 8)
            matrix_row<8>(x + l, y + l, z + l, w + l, b.out[r] + l, m0, m1, m2, m3);
        for (; l < b.count; ++l)
            matrix_row<1>(x + l, y + l, z + l, w + l, b.out[r] + l, m0, m1, m2, m3);
    }
}

VertexShader matrix_shader() {
    return {{}, [m = static_cast<const float*>(g_matrix)](const ShaderBlock& b) {
                matrix_block(b, m);
            }};
}

// A workload with its float4 positions.
struct Input {
    Workload w;
    const std::vector<float>* positions = nullptr; // 4 floats per vertex
    uint32_t vertex_count = 0;
    VertexBuffer buffer;
    VertexAttrib attrib{0, 0, Format::float32x4, 0};
};

struct DrawpipeSide {
    CountingBackend backend;
    std::unique_ptr<Context> ctx;
    DrawInfo info;

    DrawpipeSide(const Input& in, const std::string& middle, uint32_t threads, bool split_cache,
                 bool raster) {
        ContextOptions o;
        o.threads = threads;
        ctx = std::make_unique<Context>(o);
        ctx->bind_middle_end(middle);
        ctx->bind_backend(backend);
        ctx->set_vertex_buffers({&in.buffer, 1});
        ctx->set_vertex_attribs({&in.attrib, 1});
        ctx->bind_vertex_shader(matrix_shader());
        if (raster) {
            RasterState r;
            r.viewport = {0, 0, 1024, 1024, 0, 1};
            ctx->set_raster_state(r); // the clip test and viewport transform, every vertex
        }
        info = in.w.draw();
        if (split_cache) info.index_buffer_id = ctx->register_index_buffer();
    }
    DrawStats draw() {
        ctx->draw(info);
        return ctx->flush();
    }
};

// ---------------------------------------------------------------------------------------
// Rounds.

struct Config {
    std::function<void()> run;
    std::vector<double> seconds;
};

// Median over rounds of num's time / den's time.
double median_ratio(const Config& num, const Config& den) {
    return bench::median_ratio(num.seconds, den.seconds);
}

void measure(std::vector<Config*>& configs, int rounds) {
    for (Config* c : configs) c->run(); // warm-up
    for (int r = 0; r < rounds; ++r)
        for (size_t k = 0; k < configs.size(); ++k) {
            Config& c = *configs[(k + size_t(r)) % configs.size()];
            const auto t0 = Clock::now();
            c.run();
            c.seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        }
}

struct MiddleResult {
    std::string name;
    std::string skipped; // why, when the middle end could not draw this workload
    Config one, two;
    double fetched_per_index = 0;
    uint64_t triangles = 0;
};

struct Result {
    std::string label;
    uint32_t count = 0, vertex_count = 0;
    Config mesa, limit, limit2;
    double mesa_shaded_per_index = -1; // -1: no statistics query
    uint64_t mesa_prims = 0;
    std::vector<MiddleResult> middles;
};

Result run_workload(const Input& in, const std::vector<std::string>& middles, const GlInfo& gl,
                    const Options& opt) {
    Result res;
    res.label = in.w.label();
    res.count = in.w.count;
    res.vertex_count = in.vertex_count;

    const GlDraw gl_draw(in.w, *in.positions);
    const auto [shaded, prims] = gl_draw.count_draw(gl.statistics);
    if (gl.statistics) res.mesa_shaded_per_index = double(shaded) / in.w.count;
    res.mesa_prims = prims;
    res.mesa.run = [&gl_draw] {
        gl_draw.bind();
        gl_draw.draw();
    };

    // Indices [first, first + count) through the limit loop into `out`.
    auto limit_part = [&](uint32_t first, uint32_t count, float* out) {
        return in.w.index_type == IndexType::u16
                   ? limit_transform(in.w.indices16.data() + first, count, in.positions->data(),
                                     in.vertex_count, g_matrix, out)
                   : limit_transform(in.w.indices32.data() + first, count, in.positions->data(),
                                     in.vertex_count, g_matrix, out);
    };
    std::vector<float> out(4 * kLimitBlock), out2(4 * kLimitBlock);
    float sink = 0, sink2 = 0;
    res.limit.run = [&] { sink += limit_part(0, in.w.count, out.data()); };
    tbb::task_arena arena2(2);
    const uint32_t half = in.w.count / 2;
    res.limit2.run = [&] {
        arena2.execute([&] {
            tbb::parallel_invoke(
                [&] { sink += limit_part(0, half, out.data()); },
                [&] { sink2 += limit_part(half, in.w.count - half, out2.data()); });
        });
    };

    std::vector<std::unique_ptr<DrawpipeSide>> sides;
    std::vector<Config*> configs = {&res.mesa, &res.limit, &res.limit2};
    res.middles.reserve(middles.size());
    for (const std::string& name : middles) {
        MiddleResult& m = res.middles.emplace_back();
        m.name = name;
        try {
            auto one = std::make_unique<DrawpipeSide>(in, name, 1, opt.split_cache, opt.raster);
            auto two = std::make_unique<DrawpipeSide>(in, name, 2, opt.split_cache, opt.raster);
            const DrawStats stats = one->draw();
            m.fetched_per_index = double(stats.front.fetched) / in.w.count;
            m.triangles = one->backend.totals().triangles;
            two->draw();
            if (two->backend.totals().checksum != one->backend.totals().checksum)
                throw std::runtime_error("1-thread and 2-thread checksums differ");
            m.one.run = [s = one.get()] { s->draw(); };
            m.two.run = [s = two.get()] { s->draw(); };
            sides.push_back(std::move(one));
            sides.push_back(std::move(two));
        } catch (const std::exception& e) {
            m.skipped = e.what();
        }
    }
    for (MiddleResult& m : res.middles)
        if (m.skipped.empty()) {
            configs.push_back(&m.one);
            configs.push_back(&m.two);
        }
    measure(configs, opt.rounds);
    if (sink + sink2 == 12345.678f) std::printf(" "); // keeps the limit loop's output alive
    return res;
}

// ---------------------------------------------------------------------------------------
// Output.

// drawpipe's 2-thread speed-up over the limit loop's, round by round (bench/rounds.hpp).
double two_thread_share(const MiddleResult& m, const Result& r) {
    return median_relative_speedup(m.one.seconds, m.two.seconds, r.limit.seconds, r.limit2.seconds);
}

void print_table(const std::vector<Result>& results) {
    std::printf("\n%-24s %-11s %8s %8s %8s %9s %7s %8s %8s %8s %8s %17s\n", "workload",
                "middle end", "Mesa ms", "dp1 ms", "dp2 ms", "Mesa/dp1", "dp1/dp2", "limit ms",
                "dp1/lim", "lim/lim2", "2T share", "shaded/idx M / dp");
    for (const Result& r : results)
        for (const MiddleResult& m : r.middles) {
            if (!m.skipped.empty()) {
                std::printf("%-24s %-11s skipped: %s\n", r.label.c_str(), m.name.c_str(),
                            m.skipped.c_str());
                continue;
            }
            char mesa_shaded[16] = "n/a";
            if (r.mesa_shaded_per_index >= 0)
                std::snprintf(mesa_shaded, sizeof mesa_shaded, "%.4f", r.mesa_shaded_per_index);
            std::printf(
                "%-24s %-11s %8.2f %8.2f %8.2f %8.3fx %6.2fx %8.2f %7.2fx %7.2fx %8.2f %8s / "
                "%.4f\n",
                r.label.c_str(), m.name.c_str(), best_of(r.mesa.seconds) * 1e3,
                best_of(m.one.seconds) * 1e3, best_of(m.two.seconds) * 1e3,
                median_ratio(r.mesa, m.one), median_ratio(m.one, m.two),
                best_of(r.limit.seconds) * 1e3, median_ratio(m.one, r.limit),
                median_ratio(r.limit, r.limit2), two_thread_share(m, r), mesa_shaded,
                m.fetched_per_index);
            if (m.triangles != r.mesa_prims)
                std::printf("  WORK MISMATCH: Mesa generated %llu primitives, drawpipe %llu\n",
                            (unsigned long long)r.mesa_prims, (unsigned long long)m.triangles);
        }
    std::printf("\nms: best of the rounds; ratios: median of the rounds' own ratios (Mesa/dp1 > 1: "
                "drawpipe faster; dp1/dp2: 2-thread speed-up; dp1/lim: drawpipe over the "
                "limit loop; lim/lim2: the limit loop's 2-thread speed-up, what the machine "
                "gave 2 threads in the same rounds; 2T share: median per round of "
                "(dp1/dp2) / (lim/lim2))\n");
}

void json_times(std::FILE* f, const char* name, const Config& c) {
    std::fprintf(f, "\"%s\": {\"best_ms\": %.4f, \"median_ms\": %.4f, \"ms\": [", name,
                 best_of(c.seconds) * 1e3, median_of(c.seconds) * 1e3);
    for (size_t i = 0; i < c.seconds.size(); ++i)
        std::fprintf(f, "%s%.4f", i ? ", " : "", c.seconds[i] * 1e3);
    std::fprintf(f, "]}");
}

bool write_json(const std::string& path, const std::vector<Result>& results, const GlInfo& gl,
                const Options& opt) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    std::fprintf(f, "{\"renderer\": \"%s\", \"gl_version\": \"%s\", \"rounds\": %d, ",
                 gl.renderer.c_str(), gl.version.c_str(), opt.rounds);
    std::fprintf(f, "\"split_cache\": %s, \"workloads\": [\n", opt.split_cache ? "true" : "false");
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        std::fprintf(f, "  {\"workload\": \"%s\", \"indices\": %u, \"vertices\": %u, ",
                     r.label.c_str(), r.count, r.vertex_count);
        json_times(f, "mesa", r.mesa);
        std::fprintf(f, ", \"mesa_shaded_per_index\": %.6f, \"mesa_primitives\": %llu, ",
                     r.mesa_shaded_per_index, (unsigned long long)r.mesa_prims);
        json_times(f, "limit", r.limit);
        std::fprintf(f, ", ");
        json_times(f, "limit_threads2", r.limit2);
        std::fprintf(f, ", \"limit_threads2_speedup\": %.4f, \"middle_ends\": [",
                     median_ratio(r.limit, r.limit2));
        bool first = true;
        for (const MiddleResult& m : r.middles) {
            if (!m.skipped.empty()) continue;
            std::fprintf(f, "%s\n    {\"name\": \"%s\", ", first ? "" : ",", m.name.c_str());
            first = false;
            json_times(f, "threads1", m.one);
            std::fprintf(f, ", ");
            json_times(f, "threads2", m.two);
            std::fprintf(f,
                         ", \"mesa_over_drawpipe\": %.4f, \"threads2_speedup\": %.4f, "
                         "\"threads2_share_of_limit\": %.4f, "
                         "\"drawpipe_over_limit\": %.4f, \"fetched_per_index\": %.6f, "
                         "\"triangles\": %llu}",
                         median_ratio(r.mesa, m.one), median_ratio(m.one, m.two),
                         two_thread_share(m, r), median_ratio(m.one, r.limit), m.fetched_per_index,
                         (unsigned long long)m.triangles);
        }
        std::fprintf(f, "]}%s\n", i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    return std::fclose(f) == 0;
}

// ---------------------------------------------------------------------------------------
// Inputs.

// Smoke mode keeps the first `n` indices (W7's rows end in restarts, so any cut is legal).
void shorten(Workload& w, uint32_t n) {
    n = std::min(n, w.count);
    if (!w.primitive_restart) n -= n % 3;
    if (w.index_type == IndexType::u16)
        w.indices16.resize(n);
    else
        w.indices32.resize(n);
    w.count = n;
}

std::vector<std::string> middle_end_names(const std::string& arg) {
    std::vector<std::string> names;
    if (arg == "all") {
        for (const MiddleEndRegistry::Entry& e : MiddleEndRegistry::global().entries())
            names.push_back(e.name);
        return names;
    }
    for (std::string& name : split_list(arg)) {
        MiddleEndRegistry::global().find(name); // throws for an unknown name
        names.push_back(std::move(name));
    }
    return names;
}

} // namespace

int main(int argc, char** argv) {
    const Options opt = parse_options(argc, argv);
    register_builtin_middle_ends();
    std::vector<std::string> middles;
    try {
        middles = middle_end_names(opt.middle_end);
    } catch (const Error& e) {
        usage(e.what());
    }

    GlInfo gl;
    try {
        gl = init_gl();
    } catch (const NoHeadlessGl& e) {
        std::printf("mesa_draw_bench: skipped, no usable headless OpenGL: %s\n", e.what());
        return kNoGl;
    }

    try {
        const GLuint prog = use_matrix_program(g_matrix);
        const DiscardTarget target; // nothing is rasterized
        check_gl("setup");
        const char* lp_threads = std::getenv("LP_NUM_THREADS");
        std::printf("Mesa: %s, %s, %s; LP_NUM_THREADS=%s; pipeline statistics query: %s\n",
                    gl.renderer.c_str(), gl.version.c_str(), gl.platform.c_str(),
                    lp_threads ? lp_threads : "(unset)", gl.statistics ? "yes" : "no");
        std::printf("drawpipe: Context 1 and 2 threads, counting backend, middle end(s):");
        for (const std::string& m : middles) std::printf(" %s", m.c_str());
        std::printf("%s; %d round(s)\n", opt.split_cache ? ", split cache on" : "", opt.rounds);

        const std::vector<float> grid = grid_positions(1.0f / (kGrid - 1));

        std::vector<Input> inputs;
        inputs.reserve(4);
        for (const std::string& id : split_list(opt.workloads)) {
            Input& in = inputs.emplace_back();
            in.w = make_workload(id);
            in.positions = &grid;
            in.vertex_count = kGrid * kGrid;
        }
        std::vector<float> mesh_positions;
        if (opt.mesh != "none") {
            try {
                Workload w = load_mesh(opt.mesh);
                // Into the grid's [0, 1]^2 (aspect kept) and z in [0.4, 0.6], where the matrix
                // keeps every vertex inside the view volume, as for the grid workloads.
                float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
                for (size_t v = 0; v < w.vertex_count; ++v)
                    for (int c = 0; c < 3; ++c) {
                        lo[c] = std::min(lo[c], w.positions[3 * v + c]);
                        hi[c] = std::max(hi[c], w.positions[3 * v + c]);
                    }
                const float s =
                    1.0f / std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30f});
                mesh_positions.reserve(size_t(w.vertex_count) * 4);
                for (size_t v = 0; v < w.vertex_count; ++v)
                    mesh_positions.insert(
                        mesh_positions.end(),
                        {(w.positions[3 * v] - lo[0]) * s, (w.positions[3 * v + 1] - lo[1]) * s,
                         0.4f + 0.2f * (w.positions[3 * v + 2] - lo[2]) * s, 1.0f});
                Input& in = inputs.emplace_back();
                in.vertex_count = w.vertex_count;
                in.w = std::move(w);
                in.positions = &mesh_positions;
            } catch (const Error& e) {
                std::printf("mesh skipped: %s\n", e.what());
            }
        }
        for (Input& in : inputs) {
            if (opt.smoke) shorten(in.w, 60000);
            in.buffer = {in.positions->data(), in.positions->size() * sizeof(float), 16, 0};
        }

        std::vector<Result> results;
        for (const Input& in : inputs) {
            std::printf("  %s: %u indices, %u vertices ...\n", in.w.label().c_str(), in.w.count,
                        in.vertex_count);
            std::fflush(stdout);
            results.push_back(run_workload(in, middles, gl, opt));
        }
        print_table(results);
        if (!opt.json.empty() && !write_json(opt.json, results, gl, opt)) {
            std::fprintf(stderr, "mesa_draw_bench: cannot write %s\n", opt.json.c_str());
            return 1;
        }
        glDeleteProgram(prog);
        bool mismatch = false;
        for (const Result& r : results)
            for (const MiddleResult& m : r.middles)
                mismatch |= m.skipped.empty() && m.triangles != r.mesa_prims;
        return mismatch ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mesa_draw_bench: %s\n", e.what());
        return 1;
    }
}
