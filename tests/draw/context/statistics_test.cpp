// Pipeline statistics (DrawStats::statistics): input assembly's counts are GL's (restart runs,
// incomplete primitives, adjacency, instances; a polygon is one primitive), the geometry
// shader's are GL's (N invocations per input primitive, primitives of the streams processed
// further), the clipper counts what goes in and comes out; every count but vs_invocations
// is the same at every limit, strategy, middle end and thread count, and vs_invocations at
// every thread count.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/split_cache.hpp"
#include "drawpipe/stream_output.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

constexpr uint32_t kRestart = 0xFFFFFFFFu;

// GL's count of the vertices and primitives of a run of n vertices, written out per type
// (and as llvmpipe counts where GL lets an implementation choose: adjacency vertices counted,
// trailing incomplete vertices not, a quad strip's quads and a polygon as one primitive).
std::pair<uint64_t, uint64_t> reference_run(Prim prim, uint64_t n) {
    auto list = [&](uint64_t k) { return std::pair{n - n % k, n / k}; };
    auto strip = [&](uint64_t first, uint64_t prims) {
        return n < first ? std::pair<uint64_t, uint64_t>{0, 0} : std::pair{n, prims};
    };
    switch (prim) {
    case Prim::points:
        return {n, n};
    case Prim::lines:
        return list(2);
    case Prim::line_loop:
        return strip(2, n);
    case Prim::line_strip:
        return strip(2, n - 1);
    case Prim::triangles:
        return list(3);
    case Prim::triangle_strip:
    case Prim::triangle_fan:
        return strip(3, n - 2);
    case Prim::polygon:
        return strip(3, 1);
    case Prim::quads:
        return list(4);
    case Prim::quad_strip:
        return n < 4 ? std::pair<uint64_t, uint64_t>{0, 0} : std::pair{n - n % 2, (n - 2) / 2};
    case Prim::lines_adjacency:
        return list(4);
    case Prim::line_strip_adjacency:
        return strip(4, n - 3);
    case Prim::triangles_adjacency:
        return list(6);
    case Prim::triangle_strip_adjacency:
        return n < 6 ? std::pair<uint64_t, uint64_t>{0, 0} : std::pair{n - n % 2, (n - 4) / 2};
    case Prim::patches: // not drawn here: patches need the tessellation stages
        break;
    }
    return {0, 0};
}

struct Draw {
    Prim prim = Prim::triangles;
    std::vector<uint32_t> indices; // with kRestart between runs
    uint32_t instances = 1;
    const GeometryShader* gs = nullptr;
};

std::pair<uint64_t, uint64_t> reference(const Draw& d) {
    uint64_t v = 0, p = 0, n = 0;
    for (size_t i = 0; i <= d.indices.size(); ++i) {
        if (i < d.indices.size() && d.indices[i] != kRestart) {
            ++n;
            continue;
        }
        const auto [rv, rp] = reference_run(d.prim, n);
        v += rv, p += rp, n = 0;
    }
    return {v * d.instances, p * d.instances};
}

// What draws it: the middle end, segment limit, strategy and threads.
struct DrawSetup {
    const char* middle = "fetch_shade";
    uint32_t limit = 0;
    Strategy strategy;
    uint32_t threads = 1;
};

// Positions for vertex ids 0-63, a few outside the view (the clipper's).
std::vector<float> positions() {
    std::mt19937 rng(3);
    std::vector<float> p;
    for (uint32_t v = 0; v < 64; ++v)
        p.insert(p.end(), {float(int(rng() % 25) - 12) / 8.0f, float(int(rng() % 25) - 12) / 8.0f,
                           0.0f, 1.0f});
    return p;
}

// The draws through one context (one flush), with a raster state unless `raster` is false.
DrawStats draw(const std::vector<Draw>& draws, const DrawSetup& setup, bool raster = true,
               const StreamOutputState* so = nullptr) {
    static const std::vector<float> pos = positions();
    const VertexBuffer buffer{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    ContextOptions o;
    o.threads = setup.threads;
    o.inline_below = 0; // the pipeline even for small draws
    o.draw = {setup.strategy, setup.limit};
    Context ctx(o);
    TraceBackend trace;
    ctx.bind_middle_end(setup.middle);
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    if (raster) {
        RasterState r;
        r.viewport = {0, 0, 64, 64, 0, 1};
        ctx.set_raster_state(r);
    }
    std::vector<uint32_t> xfb(1 << 16);
    if (so) {
        StreamOutputState s = *so;
        s.buffers[0] = {xfb.data(), 0, xfb.size() * 4, 4};
        ctx.set_stream_output(s);
        ctx.begin_stream_output();
    }
    DrawStats total;
    for (const Draw& d : draws) {
        ctx.bind_geometry_shader(d.gs);
        DrawInfo info;
        info.prim = d.prim;
        info.index_type = IndexType::u32;
        info.indices = d.indices.data();
        info.index_buffer_count = info.count = uint32_t(d.indices.size());
        info.primitive_restart = true;
        info.restart_index = kRestart;
        info.instance_count = d.instances;
        ctx.draw(info);
    }
    total += ctx.flush();
    if (so) ctx.end_stream_output();
    return total;
}

Draw random_draw(std::mt19937& rng, Prim prim, const GeometryShader* gs = nullptr) {
    Draw d;
    d.prim = prim;
    d.gs = gs;
    d.instances = 1 + rng() % 3;
    const uint32_t n = rng() % 60;
    for (uint32_t i = 0; i < n; ++i) d.indices.push_back(rng() % 8 == 0 ? kRestart : rng() % 64);
    return d;
}

TEST(Statistics, InputAssemblyCountsGLsVerticesAndPrimitives) {
    std::mt19937 rng(11);
    for (uint32_t p = 0; p <= uint32_t(Prim::triangle_strip_adjacency); ++p)
        for (int k = 0; k < 20; ++k) {
            const Draw d = random_draw(rng, Prim(p));
            const PipelineStatistics s = draw({d}, {}).statistics;
            const auto [v, prims] = reference(d);
            EXPECT_EQ(s.ia_vertices, v) << prim_name(d.prim);
            EXPECT_EQ(s.ia_primitives, prims) << prim_name(d.prim);
            EXPECT_EQ(s.gs_invocations, 0u);
            EXPECT_EQ(s.gs_primitives, 0u);
        }
}

TEST(Statistics, AQuadAndAPolygonAreOnePrimitiveAndTrailingVerticesDoNotCount) {
    EXPECT_EQ(draw({{Prim::polygon, {0, 1, 2, 3, 4, 5}, 2}}, {}).statistics.ia_primitives, 2u);
    const PipelineStatistics q = draw({{Prim::quads, {0, 1, 2, 3, 4, 5, 6}, 1}}, {}).statistics;
    EXPECT_EQ(q.ia_primitives, 1u);
    EXPECT_EQ(q.ia_vertices, 4u); // the three of the incomplete quad are not counted
    // A restart index is no vertex; a run too short for a primitive counts nothing.
    const PipelineStatistics r =
        draw({{Prim::triangle_strip, {0, 1, 2, 3, kRestart, 4, 5, kRestart, 6, 7, 8}, 1}}, {})
            .statistics;
    EXPECT_EQ(r.ia_vertices, 7u);
    EXPECT_EQ(r.ia_primitives, 3u);
    // Adjacency vertices count.
    EXPECT_EQ(
        draw({{Prim::triangles_adjacency, {0, 1, 2, 3, 4, 5, 6, 7}, 3}}, {}).statistics.ia_vertices,
        18u);
}

// GL (and llvmpipe: count / vertices_per_patch) counts a patch as one primitive submitted,
// not its control points; a trailing incomplete patch is not one.
TEST(Statistics, APatchIsOnePrimitiveSubmitted) {
    static const std::vector<float> pos = positions();
    const VertexBuffer buffer{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    for (uint32_t limit : {0u, 8u}) {
        ContextOptions o;
        o.draw.max_vertices = limit; // 8: two 4-vertex patches per segment
        Context ctx(o);
        TraceBackend trace;
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers({&buffer, 1});
        ctx.set_vertex_attribs({&attrib, 1});
        ctx.bind_tess_eval(test::patch_ids_tes(4));
        DrawInfo d;
        d.prim = Prim::patches;
        d.patch_vertices = 4;
        d.count = 8; // two patches
        ctx.draw(d);
        EXPECT_EQ(ctx.flush().statistics.ia_primitives, 2u) << limit;
        d.count = 19; // four patches and three vertices no patch uses, two instances
        d.instance_count = 2;
        ctx.draw(d);
        const PipelineStatistics s = ctx.flush().statistics;
        EXPECT_EQ(s.ia_primitives, 8u) << limit;
        EXPECT_EQ(s.ia_vertices, 32u) << limit;
    }
}

TEST(Statistics, AGeometryShaderRunsInvocationsTimesPerInputPrimitive) {
    const GeometryShader& inv4 = find_gs("invocations4");
    const Draw d{Prim::triangle_strip, {0, 1, 2, 3, 4, kRestart, 5, 6, 7}, 2, &inv4};
    const DrawStats s = draw({d}, {});
    EXPECT_EQ(s.statistics.ia_primitives, 8u);
    EXPECT_EQ(s.statistics.gs_invocations, 32u); // GL: 4 per primitive (llvmpipe counts 8)
    // Each invocation emits one triangle.
    EXPECT_EQ(s.statistics.gs_primitives, 32u);
    EXPECT_EQ(s.statistics.gs_primitives, s.primitives.generated[0]);
}

TEST(Statistics, GeometryShaderPrimitivesCountTheStreamsProcessedFurther) {
    const GeometryShader& s2 = find_gs("streams2");
    const Draw d{Prim::points, {0, 1, 2, 3, 4}, 1, &s2};
    const DrawStats plain = draw({d}, {});
    EXPECT_EQ(plain.primitives.generated[1], 5u);
    EXPECT_EQ(plain.statistics.gs_primitives, 5u); // stream 1 goes nowhere: not counted
    // Captured, stream 1 is processed further and counts.
    StreamOutputState so;
    so.outputs.push_back({CaptureSource::gs_id, 0, 0, 1, 0, 0, 1});
    const DrawStats captured = draw({d}, {"fetch_shade", 0, {}, 1}, false, &so);
    EXPECT_EQ(captured.statistics.gs_primitives, 10u);
    EXPECT_EQ(captured.statistics.gs_invocations, 5u);
}

TEST(Statistics, TheClipperCountsWhatGoesInAndWhatComesOut) {
    // A triangle inside, one wholly right of the view, one with a corner right of it (a quad
    // after clipping: two triangles), then lines and points: inside, outside, crossing.
    const std::vector<float> pos = {-0.5f, -0.5f, 0, 1, 0, -0.5f, 0, 1, -0.5f, 0.5f, 0, 1,
                                    2,     0,     0, 1, 3, 0,     0, 1, 2,     1,    0, 1,
                                    0,     -0.5f, 0, 1, 2, 0,     0, 1, 0,     0.5f, 0, 1};
    const VertexBuffer buffer{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    for (const uint32_t threads : {1u, 2u}) {
        ContextOptions o;
        o.threads = threads;
        o.inline_below = 0;
        Context ctx(o);
        TraceBackend trace;
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers({&buffer, 1});
        ctx.set_vertex_attribs({&attrib, 1});
        RasterState r;
        r.viewport = {0, 0, 64, 64, 0, 1};
        ctx.set_raster_state(r);
        DrawInfo tris;
        tris.prim = Prim::triangles;
        tris.count = 9;
        ctx.draw(tris);
        PipelineStatistics s = ctx.flush().statistics;
        EXPECT_EQ(s.clip_invocations, 3u);
        EXPECT_EQ(s.clip_primitives, 3u); // 1 + 0 + 2
        DrawInfo lines;
        lines.prim = Prim::lines;
        lines.count = 6; // inside, crossing, outside
        ctx.draw(lines);
        DrawInfo points;
        points.prim = Prim::points;
        points.count = 9; // 5 inside, 4 outside
        ctx.draw(points);
        s = ctx.flush().statistics;
        EXPECT_EQ(s.clip_invocations, 3u + 9u);
        EXPECT_EQ(s.clip_primitives, 2u + 5u);
        // Rasterizer discard, or no raster state: no clipper runs.
        ctx.set_rasterizer_discard(true);
        ctx.draw(tris);
        s = ctx.flush().statistics;
        EXPECT_EQ(s.clip_invocations, 0u);
        EXPECT_EQ(s.ia_primitives, 3u);
        ctx.set_rasterizer_discard(false);
        ctx.clear_raster_state();
        ctx.draw(tris);
        EXPECT_EQ(ctx.flush().statistics.clip_primitives, 0u);
    }
}

TEST(Statistics, TheSameAtEveryLimitStrategyMiddleEndAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(5);
    const GeometryShader* gs_for[] = {&find_gs("invocations4"), &find_gs("streams4"),
                                      &find_gs("tris_adj_in"), &find_gs("lines_adj_in")};
    std::vector<Draw> draws;
    for (uint32_t p = 0; p <= uint32_t(Prim::triangle_strip_adjacency); ++p)
        draws.push_back(random_draw(rng, Prim(p)));
    for (const Prim p : {Prim::triangles, Prim::triangle_strip})
        for (const GeometryShader* gs : {gs_for[0], gs_for[1]})
            draws.push_back(random_draw(rng, p, gs));
    draws.push_back(random_draw(rng, Prim::triangle_strip_adjacency, gs_for[2]));
    draws.push_back(random_draw(rng, Prim::line_strip_adjacency, gs_for[3]));
    for (const Draw& d : draws) {
        const DrawStats want = draw({d}, {});
        const auto [v, p] = reference(d);
        ASSERT_EQ(want.statistics.ia_vertices, v);
        ASSERT_EQ(want.statistics.ia_primitives, p);
        if (d.gs) {
            ASSERT_EQ(want.statistics.gs_invocations, p * d.gs->invocations);
            ASSERT_EQ(want.statistics.gs_primitives, want.primitives.generated[0]);
        }
        for (const char* middle : {"fetch_shade", "fetch_shade_simd", "gen7", "a4xx"})
            for (const uint32_t limit : {0u, 8u, 13u, 30u})
                for (const Strategy::Kind kind :
                     {Strategy::Kind::distinct, Strategy::Kind::vsplit, Strategy::Kind::none}) {
                    const DrawSetup one{middle, limit, Strategy{kind, 0}, 1};
                    const DrawStats a = draw({d}, one);
                    PipelineStatistics sa = a.statistics, sw = want.statistics;
                    sa.vs_invocations = sw.vs_invocations = 0; // the split's: may differ
                    ASSERT_EQ(sa, sw) << prim_name(d.prim) << " " << middle << " " << limit;
                    for (const uint32_t threads : {2u, 4u}) {
                        DrawSetup many = one;
                        many.threads = threads;
                        ASSERT_EQ(draw({d}, many).statistics, a.statistics)
                            << prim_name(d.prim) << " " << middle << " " << limit << " " << threads;
                    }
                }
    }
}

TEST(Statistics, ChunksAndCachedSplitsCountEachRunOnce) {
    // A draw cut into many chunks (runs crossing the cuts), split on 1 and 3 threads, then
    // drawn again from its registered index buffer: the cache replays the split.
    std::mt19937 rng(13);
    for (const Prim prim : {Prim::triangle_strip, Prim::line_loop, Prim::polygon, Prim::quads}) {
        Draw d;
        d.prim = prim;
        d.instances = 3;
        for (uint32_t i = 0; i < 5000; ++i)
            d.indices.push_back(rng() % 97 == 0 ? kRestart : rng() % 64);
        const auto [v, p] = reference(d);
        static const std::vector<float> pos = positions();
        const VertexBuffer buffer{pos.data(), pos.size() * 4, 16, 0};
        const VertexAttrib attrib{0, 0, Format::float32x4, 0};
        for (const uint32_t threads : {1u, 3u}) {
            ContextOptions o;
            o.threads = threads;
            o.inline_below = 0;
            o.draw.chunk_positions = 256;
            o.draw.max_vertices = 40;
            Context ctx(o);
            TraceBackend trace;
            ctx.bind_middle_end("fetch_shade");
            ctx.bind_backend(trace);
            ctx.set_vertex_buffers({&buffer, 1});
            ctx.set_vertex_attribs({&attrib, 1});
            DrawInfo info;
            info.prim = prim;
            info.index_type = IndexType::u32;
            info.indices = d.indices.data();
            info.index_buffer_count = info.count = uint32_t(d.indices.size());
            info.primitive_restart = true;
            info.restart_index = kRestart;
            info.instance_count = d.instances;
            const PipelineStatistics once = [&] {
                ctx.draw(info);
                return ctx.flush().statistics;
            }();
            EXPECT_EQ(once.ia_vertices, v) << prim_name(prim) << " " << threads;
            EXPECT_EQ(once.ia_primitives, p) << prim_name(prim) << " " << threads;
            info.index_buffer_id = ctx.register_index_buffer();
            for (int k = 0; k < 3; ++k) { // recorded, then replayed twice
                ctx.draw(info);
                const DrawStats s = ctx.flush();
                EXPECT_EQ(s.statistics, once) << prim_name(prim) << " " << threads << " " << k;
            }
            EXPECT_GE(ctx.split_cache().stats().hits, 2u);
        }
    }
}

TEST(Statistics, AFlushSumsItsDraws) {
    std::mt19937 rng(9);
    std::vector<Draw> draws;
    for (int i = 0; i < 12; ++i)
        draws.push_back(random_draw(rng, rng() % 2 ? Prim::triangle_fan : Prim::quads));
    PipelineStatistics sum;
    for (const Draw& d : draws) sum += draw({d}, {}).statistics;
    EXPECT_EQ(draw(draws, {"fetch_shade", 9, {}, 3}).statistics.ia_vertices, sum.ia_vertices);
    EXPECT_EQ(draw(draws, {"fetch_shade", 9, {}, 3}).statistics.clip_primitives,
              sum.clip_primitives);
    EXPECT_EQ(draw(draws, {}).statistics, sum);
}

} // namespace
