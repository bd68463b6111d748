// The GS programming model and the GL reference executor inside fetch_shade, against the
// independent GS oracle (tests/support/gs_oracle.hpp) and hand-written GL results.
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/gs_executor.hpp"
#include "drawpipe/extend/shading.hpp"
#include "support/gs_oracle.hpp"
#include "support/gs_trace_util.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <random>

namespace drawpipe {
namespace {

using test::gs_trace_with;
using test::oracle_gs_trace;

std::string gs_trace(const std::string& text, uint32_t max_vertices = 0) {
    FetchShade middle(65536);
    return gs_trace_with(parse_draw_text(text), middle, max_vertices);
}

std::vector<Prim> feeding_prims(Prim gs_input) {
    std::vector<Prim> out;
    for (int p = 0; p < test::kPrimsWithoutTess; ++p)
        if (gs_input_compatible(Prim(p), gs_input)) out.push_back(Prim(p));
    return out;
}

TEST(GsLibrary, LookupAndDeclarations) {
    EXPECT_EQ(gs_library().size(), 19u);
    for (const GeometryShader& gs : gs_library()) {
        EXPECT_EQ(&find_gs(gs.name), &gs);
        EXPECT_NO_THROW(validate_gs(gs)) << gs.name;
    }
    try {
        find_gs("no_such_shader");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::not_found);
        EXPECT_NE(std::string(e.what()).find("passthrough_tri"), std::string::npos);
    }
}

TEST(GsLibrary, ValidateRejectsBadDeclarations) {
    GeometryShader gs = find_gs("passthrough_tri");
    gs.input = Prim::quads;
    EXPECT_THROW(validate_gs(gs), Error);
    gs = find_gs("passthrough_tri");
    gs.output = Prim::triangles;
    EXPECT_THROW(validate_gs(gs), Error);
    gs.output = Prim::triangle_strip;
    gs.max_vertices = 0;
    EXPECT_THROW(validate_gs(gs), Error);
    gs.max_vertices = 3;
    gs.invocations = 33;
    EXPECT_THROW(validate_gs(gs), Error);
}

TEST(GsReference, HandWrittenResults) {
    // A fan under the first-vertex convention reaches the GS as v1 v2 v0 (docs/gl-order.md).
    EXPECT_EQ(gs_trace("prim triangle_fan\ncount 4\nprovoking first\ngs passthrough_tri\n"),
              "tri 1 2 0\n"
              "tri 1002 1003 1000\n");
    // The 2-vertex strip vanishes; odd strip triangles follow the draw's convention.
    EXPECT_EQ(gs_trace("prim triangles\nstart 7\ncount 3\ngs strip_cut_middle\n"),
              "tri 0 1 2\ntri 2 1 3\ntri 6 7 8\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 3\nprovoking first\ngs strip_cut_middle\n"),
              "tri 0 1 2\ntri 1 3 2\ntri 6 7 8\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 3\ninstances 2\ngs amplify3_layer\n"),
              "tri 0@0 1@0 2@0\ntri 0@1 1@1 2@1\ntri 0@2 1@2 2@2\n"
              "tri 1000000@0 1000001@0 1000002@0\ntri 1000000@1 1000001@1 1000002@1\n"
              "tri 1000000@2 1000001@2 1000002@2\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 3\ngs endprim_before_emit\n"),
              "tri 0 1 2\ntri 2 1 3\ntri 2 3 4\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 9\ngs cull_odd\n"),
              "tri 0 1 2\ntri 2006 2007 2008\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 3\ngs points_out\n"), "point 2\npoint 1\npoint 0\n");
    EXPECT_EQ(gs_trace("prim line_loop\ncount 3\ngs lines_in\n"),
              "line 0 1\nline 1001 1002\nline 2002 2000\n");
    EXPECT_EQ(gs_trace("prim points\nstart 5\ncount 1\ngs points_in_quad\n"),
              "tri 50 51 52\ntri 52 51 53\n");
    EXPECT_EQ(
        gs_trace("prim triangles\ncount 3\ngs invocations4\n"),
        "tri 0@0 1@0 2@0\ntri 100@1 101@1 102@1\ntri 200@2 201@2 202@2\ntri 300@3 301@3 302@3\n");
    EXPECT_EQ(gs_trace("prim points\ncount 2\ngs streams2\n"), "point 0\npoint 1001\n");
    EXPECT_EQ(gs_trace("prim triangles\ncount 3\ngs streams4\n"), "point 0\npoint 1\npoint 2\n");
    // Second primitive of a 10-vertex triangle strip with adjacency: 4 0 2 5 6 8 (last).
    const std::string adj = gs_trace("prim triangle_strip_adjacency\ncount 10\ngs tris_adj_in\n");
    EXPECT_NE(adj.find("tri 1004 1002 1006\ntri 1000 1005 1008\n"), std::string::npos) << adj;
}

TEST(GsReference, MismatchedPrimIsAnError) {
    const char* bad[] = {"prim quads\ncount 4\ngs passthrough_tri\n",
                         "prim quad_strip\ncount 4\ngs passthrough_tri\n",
                         "prim polygon\ncount 4\ngs passthrough_tri\n",
                         "prim triangles_adjacency\ncount 6\ngs passthrough_tri\n",
                         "prim triangles\ncount 6\ngs tris_adj_in\n",
                         "prim lines\ncount 2\ngs streams2\n"};
    for (const char* text : bad) {
        try {
            gs_trace(text);
            ADD_FAILURE() << text;
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::invalid_value) << text;
            const std::string msg = e.what();
            EXPECT_EQ(msg.rfind("prim", 0), 0u) << msg;
            EXPECT_NE(msg.find("gs"), std::string::npos) << msg;
        }
    }
}

// A shader that breaks the rules the library keeps: too many emits, a second stream's
// strips, cuts on other streams.
TEST(GsReference, MaxVerticesAndStreams) {
    GeometryShader gs;
    gs.name = "overflow";
    gs.input = Prim::points;
    gs.output = Prim::line_strip;
    gs.max_vertices = 5;
    gs.streams = 2;
    gs.main = [](GsContext& ctx) {
        ctx.emit_vertex({.id = 1});
        ctx.emit_stream_vertex(1, {.id = 90});
        ctx.end_stream_primitive(1); // does not close stream 0's strip
        ctx.emit_vertex({.id = 2});
        ctx.emit_vertex({.id = 3});
        ctx.emit_stream_vertex(1, {.id = 91});
        ctx.emit_vertex({.id = 4}); // the 6th emit: dropped
        ctx.end_primitive();
        ctx.emit_vertex({.id = 5});
    };
    uint32_t rec[kVertexHeaderDwords] = {7, 0};
    const uint32_t* in[1] = {rec};
    ShadedBatch out;
    GsStripWriter writer(gs, out);
    GsStats stats;
    execute_gs_reference(gs, in, kVertexHeaderDwords, 0, writer, stats);
    EXPECT_EQ(stats.emitted, 5u);
    EXPECT_EQ(stats.dropped, 2u);
    ASSERT_EQ(out.prims.size(), 1u);
    EXPECT_EQ(out.prims[0].prim, Prim::line_strip);
    EXPECT_EQ(out.prims[0].count, 3u);
    const uint32_t stride = gs_output_layout(gs).stride();
    ASSERT_EQ(out.vertex_count, 3u);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(out.vertices[i * stride + SLOT_GS_ID], i + 1);
}

TEST(GsReference, RandomDrawsMatchOracle) {
    std::mt19937 rng(20240605);
    const Strategy strategies[] = {*Strategy::parse("distinct"), *Strategy::parse("vsplit"),
                                   *Strategy::parse("none")};
    int checked = 0, nonempty = 0;
    for (const GeometryShader& gs : gs_library()) {
        // The oracle models ids only; shaders reading vertex-shader varyings are compared in
        // tests/middle_ends/varyings_test.cpp and against real OpenGL in tests/mesa.
        if (gs.input_varyings > 0) continue;
        for (Prim prim : feeding_prims(gs.input)) {
            for (int iter = 0; iter < 40; ++iter) {
                DrawDesc d = test::random_draw(rng, prim, {.max_count = 60, .max_instances = 3});
                d.gs = gs.name;
                const uint32_t limits[] = {0, 6, 13, 64};
                const uint32_t limit = limits[iter % 4];
                FetchShade middle(65536);
                const std::string got = gs_trace_with(d, middle, limit, strategies[iter % 3]);
                ASSERT_EQ(got, oracle_gs_trace(d)) << gs.name << " limit " << limit << "\n"
                                                   << format_draw_text(d);
                ++checked;
                nonempty += !got.empty();
            }
        }
    }
    EXPECT_GT(nonempty, checked / 2);
}

TEST(GsReference, SegmentLimitKeepsOutputBounded) {
    const GeometryShader& gs = find_gs("many_cuts64");
    EXPECT_EQ(gs_segment_vertex_limit(gs, 4096), 65535u / 64 * 3);
    const GeometryShader& pt = find_gs("passthrough_tri");
    EXPECT_EQ(gs_segment_vertex_limit(pt, 4096), 4096u);
    GeometryShader big = gs;
    big.max_vertices = 1024;
    big.invocations = 32;
    EXPECT_EQ(gs_segment_vertex_limit(big, 4096), 3u); // one primitive still fits
}

} // namespace
} // namespace drawpipe
