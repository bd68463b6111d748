// The tessellation stages around the tessellator: GL's errors, whole patches per segment,
// GL's order (instance-major, patch by patch, each patch's primitives as the tessellator
// orders them), the control stage's levels, the domain cache, a geometry shader and stream
// output after the evaluation stage, and the same output on every middle end that runs it
// and every thread count.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/extend/tess_stages.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "support/expect_error.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/common/tess_library.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

using namespace drawpipe;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A draw bound with its tessellation, traced on one thread through `middle`.
std::string trace_serial(const DrawDesc& d, const MiddleEnd& middle, uint32_t limit = 0,
                         const GeometryShader* gs = nullptr) {
    const auto bound = bind_draw(d);
    DrawState state{bound->info, bound->input(), nullptr, gs};
    DescTess tess;
    tess.bind(d, state);
    TraceBackend trace;
    draw_serial(state, middle, trace, {{}, limit});
    return trace.take();
}

std::string coord(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(x));
    return buf;
}

// What the stages must make, written from GL's rules over the tessellator alone: per
// instance, per whole patch, the patch's primitives over its domain points, each vertex
// `p<patch>/<instance>(u,v,w)` and the interpolated (here: control point 0's integer)
// attributes.
std::string expected_trace(const DrawDesc& d, bool levels_by_patch) {
    std::string out;
    const uint32_t pv = d.patch_vertices;
    TessDomain domain;
    for (uint32_t inst = 0; inst < d.instances; ++inst)
        for (uint32_t p = 0; p < d.count / pv; ++p) {
            TessLevels l = d.tess_levels;
            if (levels_by_patch) {
                for (float& x : l.outer) x += float(p % 3);
                for (float& x : l.inner) x += float(p % 3);
            }
            if (!tessellate(*d.tess, l, domain)) continue;
            const uint32_t first =
                d.index_type == IndexType::none
                    ? d.start + p * pv
                    : uint32_t(int64_t(d.indices[d.start + p * pv]) + d.base_vertex);
            auto vertex = [&](uint32_t e) {
                const auto& c = domain.coords[e];
                std::string s = "p" + std::to_string(p) + "/" + std::to_string(inst) + "(" +
                                coord(c[0]) + "," + coord(c[1]) + "," + coord(c[2]) + ")";
                if (!d.attrib_divisors.empty()) {
                    s += "[";
                    for (size_t a = 0; a < d.attrib_divisors.size(); ++a) {
                        const uint32_t div = d.attrib_divisors[a];
                        s += (a ? "," : "") +
                             std::to_string(div == 0 ? first : d.base_instance + inst / div);
                    }
                    s += "]";
                }
                return s;
            };
            const uint32_t n = domain.prim == Prim::points ? 1 : domain.prim == Prim::lines ? 2 : 3;
            static constexpr const char* kNames[4] = {"", "point", "line", "tri"};
            for (size_t k = 0; k + n <= domain.elements.size(); k += n) {
                out += kNames[n];
                for (uint32_t i = 0; i < n; ++i) out += " " + vertex(domain.elements[k + i]);
                out += "\n";
            }
        }
    return out;
}

DrawDesc patch_draw(std::mt19937& rng) {
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    test::RandomDrawOptions o;
    o.max_count = 60;
    o.allow_restart = false;
    DrawDesc d = test::random_draw(rng, Prim::patches, o);
    d.patch_vertices = uni(1, 5);
    TessState t;
    t.mode = TessMode(uni(0, 2));
    t.spacing = TessSpacing(uni(0, 2));
    t.winding = TessWinding(uni(0, 1));
    t.point_mode = uni(0, 3) == 0;
    d.tess = t;
    const float levels[] = {0.5f, 1, 1.5f, 2, 3, 4.25f, 7, -1, 0, 70, kNaN};
    for (float& x : d.tess_levels.outer) x = levels[uni(0, 6) == 0 ? uni(0, 10) : uni(1, 6)];
    for (float& x : d.tess_levels.inner) x = levels[uni(0, 10)];
    return d;
}

TEST(TessStages, GlErrors) {
    DrawDesc d;
    d.prim = Prim::patches;
    d.count = 6;
    FetchShade fs;
    // Patches without an evaluation shader, tessellation with another primitive.
    test::expect_error([&] { trace_serial(d, fs); }, ErrorCode::invalid_operation, "patches");
    d.tess = TessState{};
    d.prim = Prim::triangles;
    test::expect_error([&] { trace_serial(d, fs); }, ErrorCode::invalid_operation,
                       "must be of patches");
    d.prim = Prim::patches;
    d.patch_vertices = 0;
    test::expect_error([&] { trace_serial(d, fs); }, ErrorCode::invalid_value, "patch_vertices");
    d.patch_vertices = 33;
    test::expect_error([&] { trace_serial(d, fs); }, ErrorCode::invalid_value, "patch_vertices");
    // A patch is never cut: a limit below its size is too small.
    d.patch_vertices = 5;
    test::expect_error([&] { trace_serial(d, fs, 4); }, ErrorCode::limit_too_small, "5 vertices");
    EXPECT_NO_THROW(trace_serial(d, fs, 5));
    // A geometry shader must take what the tessellator makes.
    test::expect_error([&] { trace_serial(d, fs, 0, &find_gs("lines_in")); },
                       ErrorCode::invalid_operation, "tessellation makes triangles");
    d.tess->mode = TessMode::isolines;
    EXPECT_NO_THROW(trace_serial(d, fs, 0, &find_gs("lines_in")));
    // A control shader without an evaluation shader.
    d.tess.reset();
    d.tcs = "levels_by_patch";
    test::expect_error([&] { trace_serial(d, fs); }, ErrorCode::invalid_operation, "tcs");
}

TEST(TessStages, HardwareModelsRefuse) {
    register_builtin_middle_ends();
    DrawDesc d;
    d.prim = Prim::patches;
    d.count = 6;
    d.tess = TessState{};
    for (const char* name : {"mali", "a4xx", "gen7"})
        test::expect_error([&] { trace_serial(d, *MiddleEndRegistry::global().find(name)); },
                           ErrorCode::unsupported, name);
}

// GL's order, levels, culling and leftover control points, on one thread and at small limits.
TEST(TessStages, TraceIsTheTessellatorsInGlOrder) {
    std::mt19937 rng(31);
    FetchShade fs;
    for (int iter = 0; iter < 120; ++iter) {
        const DrawDesc d = patch_draw(rng);
        const std::string want = expected_trace(d, false);
        ASSERT_EQ(trace_serial(d, fs), want) << format_draw_text(d);
        ASSERT_EQ(trace_serial(d, fs, d.patch_vertices * (1 + iter % 3)), want)
            << format_draw_text(d);
        DrawDesc c = d;
        c.tcs = "levels_by_patch";
        ASSERT_EQ(trace_serial(c, fs, d.patch_vertices), expected_trace(c, true))
            << format_draw_text(c);
    }
}

// GL treats restart as disabled for patches: the restart index is an ordinary index.
TEST(TessStages, RestartIsOffForPatches) {
    DrawDesc d;
    d.prim = Prim::patches;
    d.patch_vertices = 3;
    d.index_type = IndexType::u16;
    d.indices = {0, 1, 2, 0xFFFF, 3, 4, 5, 6, 7};
    d.count = 9;
    d.attrib_divisors = {0};
    d.tess = TessState{TessMode::triangles, TessSpacing::equal, TessWinding::ccw, true};
    FetchShade fs;
    DrawDesc r = d;
    r.restart = true;
    r.restart_index = 0xFFFF;
    const std::string plain = trace_serial(d, fs);
    EXPECT_EQ(trace_serial(r, fs), plain);
    EXPECT_NE(plain.find("p1/0(0,1,0)[65535]"), std::string::npos) << plain;
    EXPECT_NE(plain.find("p2/0"), std::string::npos) << plain;
}

// Every thread count and both middle ends that tessellate draw the one-thread reference.
TEST(TessStages, SameOnEveryThreadCountAndMiddleEnd) {
    std::mt19937 rng(47);
    FetchShade reference;
    TraceBackend trace;
    for (uint32_t threads : {1u, 2u, 4u}) {
        ContextOptions co;
        co.threads = threads;
        co.inline_below = 0;
        Context ctx(co);
        for (int iter = 0; iter < 30; ++iter) {
            DrawDesc d = patch_draw(rng);
            d.index_type = IndexType::none, d.indices.clear();
            d.count *= 4;
            for (float& x : d.tess_levels.outer) x = std::min(x, 6.0f); // keep the trace short
            for (float& x : d.tess_levels.inner) x = std::min(x, 6.0f);
            if (iter % 2) d.tcs = "levels_by_patch";
            const uint32_t limit = d.patch_vertices * (1 + iter % 4);
            const std::string want = trace_serial(d, reference, limit);
            const auto bound = bind_draw(d);
            DrawState state{bound->info, bound->input(), nullptr, nullptr};
            DescTess tess;
            tess.bind(d, state);
            ctx.bind_middle_end(iter % 3 ? "fetch_shade" : "fetch_shade_simd");
            ctx.bind_backend(trace);
            ctx.set_vertex_buffers(bound->buffers);
            ctx.set_vertex_attribs(bound->attribs);
            ctx.bind_tess_control(state.tcs ? *state.tcs : TessControlShader{});
            ctx.bind_tess_eval(state.tes ? *state.tes : TessEvalShader{});
            ctx.set_patch_default_levels(d.tess_levels);
            ctx.bind_geometry_shader(nullptr);
            trace.clear();
            ctx.draw(bound->info);
            ctx.flush();
            ASSERT_EQ(trace.text(), want) << threads << " threads\n" << format_draw_text(d);
        }
    }
}

// Most patches share their levels: a draw tessellates each distinct level set once per thread.
TEST(TessStages, DomainsAreCachedPerLevelSet) {
    DrawDesc d;
    d.prim = Prim::patches;
    d.patch_vertices = 4;
    d.count = 4 * 90;
    d.tess = TessState{TessMode::quads, TessSpacing::fractional_even, TessWinding::ccw, false};
    d.tess_levels = {{5, 6, 7, 8}, {3, 4}};
    const auto bound = bind_draw(d);
    for (bool tcs : {false, true}) {
        d.tcs = tcs ? "levels_by_patch" : "";
        DrawState state{bound->info, bound->input(), nullptr, nullptr};
        DescTess tess;
        tess.bind(d, state);
        const TessStages stages(state);
        TessScratch scratch;
        Segment seg;
        seg.prim = Prim::patches;
        seg.fetch_count = d.count;
        seg.draw_count = d.count;
        ShadedBatch out;
        stages.shade(state, seg, scratch, out);
        EXPECT_EQ(scratch.domain_lookups, 90u);
        EXPECT_EQ(scratch.domain_misses, tcs ? 3u : 1u); // levels_by_patch: 3 level sets
        ASSERT_EQ(out.prims.size(), 1u);
        EXPECT_EQ(out.prims[0].prim, Prim::triangles);
    }
}

// A geometry shader after the evaluation stage sees each tessellated primitive, its
// gl_PrimitiveIDIn the patch's; stream output captures the evaluation stage's vertices.
TEST(TessStages, GeometryShaderAndStreamOutputAfterEvaluation) {
    DrawDesc d;
    d.prim = Prim::patches;
    d.patch_vertices = 3;
    d.count = 9;
    d.instances = 2;
    d.tess = TessState{TessMode::triangles, TessSpacing::equal, TessWinding::cw, false};
    d.tess_levels = {{2, 3, 1, 1}, {2, 1}};
    FetchShade fs;
    const std::string plain = trace_serial(d, fs);
    const std::string with_gs = trace_serial(d, fs, 0, &find_gs("passthrough_tri"));
    // passthrough_tri: id = 1000000 instance + 1000 gl_PrimitiveIDIn + the input's vertex id
    // (for a tessellated vertex its patch); gl_PrimitiveIDIn counts the instance's
    // tessellated primitives across patches, as GL (and llvmpipe) count them.
    TessDomain domain;
    ASSERT_TRUE(tessellate(*d.tess, d.tess_levels, domain));
    const size_t tris = domain.elements.size() / 3;
    size_t lines = 0;
    for (size_t at = 0; (at = plain.find('\n', at)) != std::string::npos; ++at) ++lines;
    EXPECT_EQ(lines, 2 * 3 * tris);
    std::string want;
    for (uint32_t inst = 0; inst < 2; ++inst)
        for (uint32_t p = 0; p < 3; ++p)
            for (size_t t = 0; t < tris; ++t) {
                const std::string id = std::to_string(1000000 * inst + 1000 * (p * tris + t) + p);
                want += "tri " + id + " " + id + " " + id + "\n";
            }
    EXPECT_EQ(with_gs, want);
    // With a control shader the primitives per patch differ: the ids still count them.
    DrawDesc c = d;
    c.tcs = "levels_by_patch";
    const std::string tcs_gs = trace_serial(c, fs, 3, &find_gs("passthrough_tri"));
    uint32_t base = 0;
    for (uint32_t p = 0; p < 3; ++p) {
        TessLevels l = d.tess_levels;
        for (float& x : l.outer) x += float(p);
        for (float& x : l.inner) x += float(p);
        ASSERT_TRUE(tessellate(*d.tess, l, domain));
        const std::string first = std::to_string(1000 * base + p);
        EXPECT_NE(tcs_gs.find("tri " + first + " " + first + " " + first + "\n"), std::string::npos)
            << p;
        base += uint32_t(domain.elements.size() / 3);
    }

    // Stream output: patch, instance, u, v of every vertex of every triangle, in order.
    const auto bound = bind_draw(d);
    DrawState state{bound->info, bound->input(), nullptr, nullptr};
    DescTess tess;
    tess.bind(d, state);
    std::vector<uint32_t> buf(4 * 3 * lines + 4, 0xEEEEEEEEu);
    StreamOutputState so;
    so.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0},
                  {CaptureSource::instance_id, 0, 0, 1, 0, 1},
                  {CaptureSource::tess_coord, 0, 0, 2, 0, 2}};
    so.buffers[0] = {buf.data(), 0, buf.size() * 4, 16};
    Context ctx;
    TraceBackend trace;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound->buffers);
    ctx.set_vertex_attribs(bound->attribs);
    ctx.bind_tess_eval(*state.tes);
    ctx.set_patch_default_levels(d.tess_levels);
    ctx.set_stream_output(so);
    ctx.begin_stream_output();
    ctx.draw(bound->info);
    const StreamOutputCounts n = ctx.end_stream_output();
    EXPECT_EQ(n.written[0], lines);
    EXPECT_EQ(trace.text(), plain);
    // The first vertex of the first triangle of patch 2, instance 1.
    ASSERT_TRUE(tessellate(*d.tess, d.tess_levels, domain));
    const size_t at = 4 * 3 * (tris * (3 + 2));
    EXPECT_EQ(buf[at], 2u);
    EXPECT_EQ(buf[at + 1], 1u);
    float u, v;
    std::memcpy(&u, &buf[at + 2], 4);
    std::memcpy(&v, &buf[at + 3], 4);
    EXPECT_EQ(u, domain.coords[domain.elements[0]][0]);
    EXPECT_EQ(v, domain.coords[domain.elements[0]][1]);
    EXPECT_EQ(buf[4 * 3 * lines], 0xEEEEEEEEu); // nothing past the last triangle
    // A vertex stage has no tessellation coordinate to capture.
    DrawDesc flat;
    flat.prim = Prim::triangles;
    flat.count = 3;
    const auto fb = bind_draw(flat);
    Context plain_ctx;
    plain_ctx.bind_middle_end("fetch_shade");
    plain_ctx.bind_backend(trace);
    plain_ctx.set_vertex_buffers(fb->buffers);
    plain_ctx.set_vertex_attribs(fb->attribs);
    plain_ctx.set_stream_output(so);
    plain_ctx.begin_stream_output();
    test::expect_error([&] { plain_ctx.draw(fb->info); }, ErrorCode::invalid_value, "tess_coord");
}

} // namespace
