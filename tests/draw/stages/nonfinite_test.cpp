// A primitive with a NaN or infinite clip-space position never reaches the backend: the clip
// stage drops it before clipping, on the scalar and SIMD shading paths, with the stages in
// draw order or on the shading threads, after tessellation and after a geometry shader. The
// finite primitives of the same draw arrive as they would alone.
#include "drawpipe/context.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/raster_state.hpp"
#include "drawpipe/shader.hpp"
#include "drawpipe/stream_output.hpp"
#include "drawpipe/tess.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

using namespace drawpipe;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
using Pos = std::array<float, 4>;

// Writes each primitive's window positions; any non-finite one fails the test.
class WindowBackend final : public Backend {
  public:
    std::string text;
    uint32_t prims = 0;
    void begin_draw(const DrawInfo&, const VertexLayout&) override {}
    void draw_elements(Prim prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        const size_t n = prim == Prim::points ? 1 : prim == Prim::lines ? 2 : 3;
        for (size_t k = 0; k + n <= elts.size(); k += n) {
            ++prims;
            for (size_t i = 0; i < n; ++i) {
                float p[4];
                std::memcpy(p, v.data + size_t(elts[k + i]) * v.stride + SLOT_POSITION, 16);
                for (float c : p) EXPECT_TRUE(std::isfinite(c)) << "a non-finite coordinate";
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.6g %.6g %.6g %.6g%c", double(p[0]), double(p[1]),
                              double(p[2]), double(p[3]), i + 1 == n ? '\n' : ' ');
                text += buf;
            }
        }
    }
};

// A vertex shader whose position is `table[gl_VertexID]`.
VertexShader table_vs(const std::vector<Pos>& table) {
    VertexShader vs;
    vs.run = [&table](const ShaderBlock& b) {
        for (uint32_t l = 0; l < b.count; ++l)
            for (uint32_t c = 0; c < 4; ++c) b.out[c][l] = table[b.vertex_id[l]][c];
    };
    return vs;
}

struct Path {
    const char* middle;
    uint32_t threads;
    bool ordered; // stream output bound: the stages run in draw order, not on shading threads
};
constexpr Path kPaths[] = {{"fetch_shade", 1, false},      {"fetch_shade", 2, false},
                           {"fetch_shade_simd", 1, false}, {"fetch_shade_simd", 2, false},
                           {"fetch_shade", 2, true},       {"fetch_shade_simd", 2, true}};

// What reached the backend.
struct Drawn {
    std::string text;
    uint32_t prims = 0;
};

// Draws `indices` of `prim` through `path` with a raster state; `bind` binds the shaders.
template <class Bind>
Drawn draw(const Path& path, Prim prim, const std::vector<uint32_t>& indices,
           const RasterState& raster, Bind&& bind) {
    ContextOptions o;
    o.threads = path.threads;
    o.inline_below = 0;
    Context ctx(o);
    WindowBackend backend;
    ctx.bind_middle_end(path.middle);
    ctx.bind_backend(backend);
    ctx.set_raster_state(raster);
    std::vector<uint32_t> captured(4096);
    if (path.ordered) {
        StreamOutputState so;
        so.outputs = {{CaptureSource::position, 0, 0, 4, 0, 0}};
        so.buffers[0] = {captured.data(), 0, captured.size() * 4, 16};
        ctx.set_stream_output(so);
    }
    bind(ctx);
    DrawInfo d;
    d.prim = prim;
    d.index_type = IndexType::u32;
    d.indices = indices.data();
    d.index_buffer_count = uint32_t(indices.size());
    d.count = uint32_t(indices.size());
    ctx.draw(d);
    ctx.flush();
    return {backend.text, backend.prims};
}

RasterState raster(bool depth_clamp = false) {
    RasterState r;
    r.viewport = {0, 0, 64, 64, 0, 1};
    r.depth_clamp = depth_clamp;
    return r;
}

// Vertices 0-2 finite inside, 3-5 finite and crossing the right plane (clipped); the rest
// each make one vertex of a triangle non-finite in another way.
const std::vector<Pos> kTable = {
    {-0.5f, -0.5f, 0, 1}, {0.5f, -0.5f, 0, 1}, {0, 0.5f, 0, 1},    // 0-2
    {0.5f, 0, 0, 1},      {1.5f, 0.2f, 0, 1},  {0.5f, 0.5f, 0, 1}, // 3-5 clipped
    {kNaN, 0, 0, 1},                                               // 6: x NaN
    {kInf, 0, 0, 1},                                               // 7: x +inf, outside
    {kInf, 0, 0, kInf},                                            // 8: inside the planes
    {0, 0, 0, kNaN},                                               // 9: w NaN
    {0, 0, kNaN, 1},                                               // 10: z NaN
    {0, -kInf, 0, kInf},                                           // 11: y -inf, w inf
    {0.1f, 0.1f, 0, 1},   {0.2f, 0.1f, 0, 1},                      // 12-13 finite
};

TEST(NonFinite, TrianglesLinesAndPointsOnEveryPath) {
    const std::vector<uint32_t> good_tris = {0, 1, 2, 3, 4, 5};
    std::vector<uint32_t> tris = good_tris;
    for (uint32_t bad = 6; bad <= 11; ++bad) tris.insert(tris.end(), {12, bad, 13});
    tris.insert(tris.end(), {8, 8, 8}); // every vertex inside the planes, none finite
    const std::vector<uint32_t> good_lines = {0, 1, 3, 4};
    std::vector<uint32_t> lines = good_lines;
    for (uint32_t bad = 6; bad <= 11; ++bad) lines.insert(lines.end(), {12, bad});
    const std::vector<uint32_t> good_points = {0, 12, 13};
    std::vector<uint32_t> points = good_points;
    for (uint32_t bad = 6; bad <= 11; ++bad) points.push_back(bad);
    for (const Path& path : kPaths)
        for (bool clamp : {false, true}) {
            auto vs = [&](Context& ctx) { ctx.bind_vertex_shader(table_vs(kTable)); };
            const std::string where =
                std::string(path.middle) + " " + std::to_string(path.threads) +
                (path.ordered ? " ordered" : "") + (clamp ? " depth clamp" : "");
            for (const auto& [prim, all, good] :
                 {std::tuple{Prim::triangles, &tris, &good_tris},
                  std::tuple{Prim::lines, &lines, &good_lines},
                  std::tuple{Prim::points, &points, &good_points}}) {
                const Drawn want = draw(path, prim, *good, raster(clamp), vs);
                const Drawn got = draw(path, prim, *all, raster(clamp), vs);
                ASSERT_GT(want.prims, 0u) << where;
                EXPECT_EQ(got.text, want.text) << where << " prim " << int(prim);
            }
        }
}

// The evaluation stage writes (inf, 0, 0, inf), inside every plane, for every vertex of the
// odd patches: only the even patches' triangles arrive.
TEST(NonFinite, AfterTessellation) {
    TessEvalShader tes;
    tes.state = {TessMode::triangles, TessSpacing::equal, TessWinding::ccw, false};
    tes.run = [](const TessEvalBlock& b) {
        for (uint32_t l = 0; l < b.count; ++l) {
            const bool bad = b.primitive_id & 1;
            const Pos p = bad ? Pos{kInf, 0, 0, kInf}
                              : Pos{b.u[l] - 0.5f, b.v[l] - 0.5f, 0.25f * float(b.primitive_id), 1};
            for (uint32_t c = 0; c < 4; ++c) b.out[c][l] = p[c];
        }
    };
    const std::vector<uint32_t> one = {0, 1, 2}, four = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    for (const Path& path : kPaths) {
        auto bind = [&](Context& ctx) {
            ctx.bind_vertex_shader(table_vs(kTable));
            ctx.bind_tess_eval(tes);
            ctx.set_patch_default_levels({{3, 3, 3, 3}, {3, 3}});
        };
        // Patches 0 and 2 alone, as the draw of four draws them.
        const uint32_t per_patch = draw(path, Prim::patches, one, raster(), bind).prims;
        const Drawn got = draw(path, Prim::patches, four, raster(), bind);
        ASSERT_GT(per_patch, 0u);
        EXPECT_EQ(got.prims, 2 * per_patch) << path.middle << " " << path.threads;
    }
}

// A geometry shader emits each input triangle, its odd primitives at (inf, 0, 0, inf).
TEST(NonFinite, AfterAGeometryShader) {
    GeometryShader gs;
    gs.name = "odd_infinite";
    gs.input = Prim::triangles;
    gs.output = Prim::triangle_strip;
    gs.max_vertices = 3;
    gs.independent_vertices = true;
    gs.main = [](GsContext& g) {
        for (uint32_t i = 0; i < 3; ++i) {
            GsOutput o;
            if (g.primitive_id_in() & 1)
                o.position = {kInf, 0, 0, kInf};
            else
                for (uint32_t c = 0; c < 4; ++c) {
                    const uint32_t bits = g.load(i, SLOT_POSITION + c);
                    std::memcpy(&o.position[c], &bits, 4);
                }
            g.emit_vertex(o);
        }
        g.end_primitive();
    };
    const std::vector<uint32_t> tris = {0, 1, 2, 0, 1, 2, 12, 13, 2, 12, 13, 2};
    for (const Path& path : kPaths) {
        auto bind = [&](Context& ctx) {
            ctx.bind_vertex_shader(table_vs(kTable));
            ctx.bind_geometry_shader(&gs);
        };
        const Drawn got = draw(path, Prim::triangles, tris, raster(), bind);
        EXPECT_EQ(got.prims, 2u) << path.middle << " " << path.threads;
    }
}

} // namespace
