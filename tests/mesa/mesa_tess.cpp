// mesa_tess: what llvmpipe's tessellator makes of a patch's levels, captured with transform
// feedback (a control shader that sets the levels per patch, an evaluation shader that writes
// gl_TessCoord, rasterizer discard).
//
//   mesa_tess record > tests/data/tess_golden.txt   the level grid's digests (tess_grid.hpp)
//   mesa_tess dump MODE SPACING WINDING POINT O0 O1 O2 O3 I0 I1
//                                                   one patch's captured coordinates
//   mesa_tess bench [PATCHES] [ROUNDS]              llvmpipe's time for quads at 64 x 64
//   mesa_tess live [--cases N] [--seed S]           (in the drawpipe build) random level sets
//                                                   against drawpipe::tessellate, every bit
// Exit status 77 when this machine has no usable headless OpenGL.
#include "mesa_common.hpp"
#include "tess_grid.hpp"

#ifdef MESA_TESS_WITH_DRAWPIPE
#include "drawpipe/tessellator.hpp"
#endif

#include <chrono>
#include <cmath>
#include <map>
#include <random>

using namespace mesa_check;
using tess_grid::Combo;
using tess_grid::Levels;

namespace {

// No usable headless OpenGL on this machine: the caller skips (status 77).
struct NoGl {
    std::string what;
};

void start_gl() {
    try {
        init_gl();
    } catch (const Failure& f) {
        throw NoGl{f.what};
    }
    // Surfaceless: draws need a complete framebuffer even with rasterizer discard.
    GLuint fbo = 0, rb = 0;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
}

// Captured per vertex: gl_TessCoord and the patch (gl_PrimitiveID) it came from.
struct Vertex {
    float u, v, w, patch;
};

struct Capture {
    uint32_t vertices_per_prim = 3;
    std::vector<std::vector<Vertex>> per_patch; // each patch's vertices in capture order
};

GLuint link(const Combo& c) {
    const std::string vs = "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n";
    // Levels come from a buffer, 8 floats per patch, bit for bit (NaN and infinities included).
    const std::string tcs = "#version 450\n"
                            "layout(vertices = 1) out;\n"
                            "layout(std430, binding = 0) readonly buffer Levels { float lv[]; };\n"
                            "void main() {\n"
                            "  int b = gl_PrimitiveID * 8;\n"
                            "  for (int i = 0; i < 4; ++i) gl_TessLevelOuter[i] = lv[b + i];\n"
                            "  gl_TessLevelInner[0] = lv[b + 4];\n"
                            "  gl_TessLevelInner[1] = lv[b + 5];\n"
                            "  gl_out[gl_InvocationID].gl_Position = vec4(0.0);\n"
                            "}\n";
    const std::string tes = std::string("#version 450\nlayout(") + tess_grid::kModes[c.mode] +
                            ", " + tess_grid::kSpacings[c.spacing] + ", " +
                            tess_grid::kWindings[c.winding] + (c.point_mode ? ", point_mode" : "") +
                            ") in;\n"
                            "out vec4 cap;\n"
                            "void main() {\n"
                            "  cap = vec4(gl_TessCoord, float(gl_PrimitiveID));\n"
                            "  gl_Position = vec4(0.0);\n"
                            "}\n";
    const GLuint p = glCreateProgram();
    glAttachShader(p, compile(GL_VERTEX_SHADER, vs));
    glAttachShader(p, compile(GL_TESS_CONTROL_SHADER, tcs));
    glAttachShader(p, compile(GL_TESS_EVALUATION_SHADER, tes));
    const char* varyings[] = {"cap"};
    glTransformFeedbackVaryings(p, 1, varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        fail(2, std::string("link failed: ") + log);
    }
    return p;
}

// The most vertices one patch can capture: a quad at level 64 (8192 triangles).
constexpr size_t kMaxVerticesPerPatch = 64 * 64 * 2 * 3;
// llvmpipe's draw module keeps a draw's tessellated vertex indices in 16 bits
// (draw_tess.c), so past 65536 domain points in one draw they wrap and the capture is wrong.
// A quad at level 64 has 65 * 65 = 4225 points: 15 patches a draw stay below that.
constexpr size_t kPatchesPerDraw = 15;

// Draws the patches (one per level set) in batches and splits the capture by patch.
Capture capture(const Combo& c, const std::vector<Levels>& levels) {
    Capture cap;
    cap.vertices_per_prim = c.point_mode ? 1 : c.mode == 2 ? 2 : 3;
    const GLenum xfb_mode = c.point_mode ? GL_POINTS : c.mode == 2 ? GL_LINES : GL_TRIANGLES;
    cap.per_patch.resize(levels.size());
    const GLuint prog = link(c);
    glUseProgram(prog);
    glPatchParameteri(GL_PATCH_VERTICES, 1);
    GLuint vao = 0, bufs[2] = {};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, bufs);
    const size_t xfb_bytes = kPatchesPerDraw * kMaxVerticesPerPatch * sizeof(Vertex);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, bufs[1]);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(xfb_bytes), nullptr, GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bufs[1]);
    glEnable(GL_RASTERIZER_DISCARD);
    GLuint query = 0;
    glGenQueries(1, &query);
    std::vector<Vertex> got;
    for (size_t first = 0; first < levels.size(); first += kPatchesPerDraw) {
        const size_t n = std::min(kPatchesPerDraw, levels.size() - first);
        std::vector<float> lv(n * 8, 0.0f);
        for (size_t i = 0; i < n; ++i) {
            for (int k = 0; k < 4; ++k) lv[i * 8 + size_t(k)] = levels[first + i].outer[size_t(k)];
            lv[i * 8 + 4] = levels[first + i].inner[0];
            lv[i * 8 + 5] = levels[first + i].inner[1];
        }
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[0]);
        glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(lv.size() * 4), lv.data(),
                     GL_STREAM_DRAW);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bufs[0]);
        glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
        glBeginTransformFeedback(xfb_mode);
        glDrawArrays(GL_PATCHES, 0, GLsizei(n));
        glEndTransformFeedback();
        glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        GLuint prims = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &prims);
        got.resize(size_t(prims) * cap.vertices_per_prim);
        if (!got.empty())
            glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0,
                               GLsizeiptr(got.size() * sizeof(Vertex)), got.data());
        if (const GLenum err = glGetError(); err != GL_NO_ERROR)
            fail(1, "GL error " + std::to_string(err) + " drawing " + tess_grid::combo_name(c));
        // Each primitive's vertices come from one patch, patches in draw order.
        for (size_t k = 0; k < got.size(); ++k) {
            const size_t patch = size_t(got[k].patch);
            if (patch >= n || got[k].patch != float(patch))
                fail(1, "captured vertex with patch id " + std::to_string(got[k].patch));
            cap.per_patch[first + patch].push_back(got[k]);
        }
    }
    glDisable(GL_RASTERIZER_DISCARD);
    glDeleteQueries(1, &query);
    glDeleteBuffers(2, bufs);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    return cap;
}

int record() {
    start_gl();
    std::printf("# llvmpipe's tessellation of the level grid in tests/mesa/tess_grid.hpp: per\n"
                "# combination its case count, then per case the captured primitive count and\n"
                "# the 64-bit FNV-1a of the captured gl_TessCoord floats in capture order.\n"
                "# Regenerate: build/default/tests/mesa/mesa_tess record > "
                "tests/data/tess_golden.txt\n");
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    std::printf("# %s, %s\n", renderer ? renderer : "?", version ? version : "?");
    for (const Combo& c : tess_grid::combos()) {
        const std::vector<Levels> levels = tess_grid::cases(c);
        const Capture cap = capture(c, levels);
        std::printf("combo %s: %zu\n", tess_grid::combo_name(c).c_str(), levels.size());
        for (const auto& patch : cap.per_patch) {
            tess_grid::Digest d;
            for (const Vertex& v : patch) {
                d.add(v.u);
                d.add(v.v);
                d.add(v.w);
            }
            std::printf("%zu %016llx\n", patch.size() / cap.vertices_per_prim,
                        static_cast<unsigned long long>(d.h));
        }
        std::fflush(stdout);
    }
    return 0;
}

int index_of(const char* const* names, int n, const std::string& s) {
    for (int i = 0; i < n; ++i)
        if (s == names[i] || s + "_spacing" == names[i]) return i;
    fail(1, "unknown name '" + s + "'");
}

// llvmpipe's draw of `patches` quad patches at 64 x 64 (8192 triangles each) through a
// trivial evaluation shader, rasterizer discard, no capture: the best of `rounds` draws, in
// milliseconds, for the tessellator's share of the speed goal (bench/README.md).
int bench(int patches, int rounds) {
    start_gl();
    const Combo c{1, 0, 0, false};
    const GLuint prog = link(c);
    glUseProgram(prog);
    glPatchParameteri(GL_PATCH_VERTICES, 1);
    GLuint vao = 0, buf = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buf);
    std::vector<float> lv(size_t(patches) * 8, 64.0f);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(lv.size() * 4), lv.data(), GL_STATIC_DRAW);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
    glEnable(GL_RASTERIZER_DISCARD);
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        glFinish();
        const auto t0 = std::chrono::steady_clock::now();
        glDrawArrays(GL_PATCHES, 0, patches);
        glFinish();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("llvmpipe: %d quad patches at 64 x 64 (%d triangles): best of %d draws %.3f ms\n",
                patches, patches * 8192, rounds, best * 1e3);
    return 0;
}

int dump(int argc, char** argv) {
    if (argc != 12) {
        std::fprintf(stderr, "usage: mesa_tess dump MODE SPACING WINDING POINT(0|1) O0 O1 O2 O3 "
                             "I0 I1\n");
        return 1;
    }
    Combo c;
    c.mode = index_of(tess_grid::kModes, 3, argv[2]);
    c.spacing = index_of(tess_grid::kSpacings, 3, argv[3]);
    c.winding = index_of(tess_grid::kWindings, 2, argv[4]);
    c.point_mode = std::string(argv[5]) == "1";
    Levels l;
    for (int k = 0; k < 4; ++k) l.outer[size_t(k)] = std::strtof(argv[6 + k], nullptr);
    for (int k = 0; k < 2; ++k) l.inner[size_t(k)] = std::strtof(argv[10 + k], nullptr);
    start_gl();
    const Capture cap = capture(c, {l});
    const auto& vs = cap.per_patch[0];
    std::printf("%s %s: %zu primitives\n", tess_grid::combo_name(c).c_str(),
                tess_grid::levels_text(l).c_str(), vs.size() / cap.vertices_per_prim);
    for (size_t k = 0; k < vs.size(); ++k)
        std::printf("%s(%.9g,%.9g,%.9g)%s", k % cap.vertices_per_prim ? " " : "", double(vs[k].u),
                    double(vs[k].v), double(vs[k].w), (k + 1) % cap.vertices_per_prim ? "" : "\n");
    return 0;
}

#ifdef MESA_TESS_WITH_DRAWPIPE
float random_level(std::mt19937& rng) {
    std::uniform_int_distribution<int> kind(0, 19);
    switch (kind(rng)) {
    case 0:
        return tess_grid::kNaN;
    case 1:
        return -1.0f;
    case 2:
        return 0.0f;
    case 3:
        return tess_grid::kInf;
    case 4:
        return float(std::uniform_int_distribution<int>(1, 70)(rng));
    default:
        break;
    }
    return std::uniform_real_distribution<float>(0.0f, 70.0f)(rng);
}

// Random level sets (a sixth of them with every level small, where the rings are few and
// the special cases many) through llvmpipe and drawpipe::tessellate: every captured float
// must agree, bit for bit, in order.
int live(int cases, uint32_t seed) {
    start_gl();
    std::mt19937 rng(seed);
    int mismatches = 0;
    size_t compared = 0;
    for (const Combo& c : tess_grid::combos()) {
        std::vector<Levels> levels(static_cast<size_t>(cases));
        for (size_t i = 0; i < levels.size(); ++i) {
            for (float& v : levels[i].outer) v = random_level(rng);
            for (float& v : levels[i].inner) v = random_level(rng);
            if (i % 6 == 0) {
                for (float& v : levels[i].outer) v = std::fmod(std::fabs(v), 4.0f) + 0.5f;
                for (float& v : levels[i].inner) v = std::fmod(std::fabs(v), 4.0f);
            }
        }
        const Capture cap = capture(c, levels);
        drawpipe::TessDomain dom;
        const drawpipe::TessState st{drawpipe::TessMode(c.mode), drawpipe::TessSpacing(c.spacing),
                                     drawpipe::TessWinding(c.winding), c.point_mode};
        for (size_t i = 0; i < levels.size(); ++i) {
            drawpipe::TessLevels tl;
            tl.outer = levels[i].outer;
            tl.inner = levels[i].inner;
            drawpipe::tessellate(st, tl, dom);
            const auto& gl = cap.per_patch[i];
            bool same = gl.size() == dom.elements.size();
            for (size_t k = 0; same && k < gl.size(); ++k) {
                const auto& p = dom.coords[dom.elements[k]];
                same = std::memcmp(&gl[k], p.data(), 12) == 0;
            }
            ++compared;
            if (!same && mismatches++ < 5) {
                std::printf("MISMATCH %s %s: llvmpipe %zu vertices, drawpipe %zu\n",
                            tess_grid::combo_name(c).c_str(),
                            tess_grid::levels_text(levels[i]).c_str(), gl.size(),
                            dom.elements.size());
                for (size_t k = 0; k < std::max(gl.size(), dom.elements.size()); ++k) {
                    std::printf("  %4zu", k);
                    if (k < gl.size())
                        std::printf(" gl (%.9g,%.9g,%.9g)", double(gl[k].u), double(gl[k].v),
                                    double(gl[k].w));
                    if (k < dom.elements.size()) {
                        const auto& p = dom.coords[dom.elements[k]];
                        std::printf(" dp (%.9g,%.9g,%.9g)", double(p[0]), double(p[1]),
                                    double(p[2]));
                    }
                    std::printf("\n");
                }
            }
        }
    }
    std::printf("%zu patches compared, %d differ\n", compared, mismatches);
    return mismatches == 0 ? 0 : 1;
}
#endif

} // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    try {
        if (cmd == "record") return record();
        if (cmd == "dump") return dump(argc, argv);
        if (cmd == "bench")
            return bench(argc > 2 ? std::atoi(argv[2]) : 128, argc > 3 ? std::atoi(argv[3]) : 5);
#ifdef MESA_TESS_WITH_DRAWPIPE
        if (cmd == "live") {
            int cases = 40;
            uint32_t seed = 1;
            for (int i = 2; i + 1 < argc; i += 2) {
                if (std::string(argv[i]) == "--cases") cases = std::atoi(argv[i + 1]);
                if (std::string(argv[i]) == "--seed") seed = uint32_t(std::atoll(argv[i + 1]));
            }
            return live(cases, seed);
        }
#endif
        std::fprintf(stderr, "usage: mesa_tess record | dump ... | live [--cases N] [--seed S]\n");
        return 1;
    } catch (const NoGl& e) {
        std::fprintf(stderr, "mesa_tess: skipped, no OpenGL: %s\n", e.what.c_str());
        return 77;
    } catch (const Failure& f) {
        std::fprintf(stderr, "mesa_tess: %s\n", f.what.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mesa_tess: %s\n", e.what());
        return 1;
    }
}
