#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/prim.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace drawpipe;

namespace {

std::vector<std::vector<uint32_t>> gs_inputs(Prim prim, Provoking pv, uint32_t n) {
    std::vector<std::vector<uint32_t>> out;
    for_each_gs_input(prim, pv, n,
                      [&](uint32_t c, const uint32_t* v) { out.emplace_back(v, v + c); });
    return out;
}

} // namespace

TEST(Prim, ShapesMatchMesaTable) {
    EXPECT_EQ(prim_shape(Prim::quad_strip).first, 4u);
    EXPECT_EQ(prim_shape(Prim::quad_strip).incr, 2u);
    EXPECT_EQ(prim_rollback(Prim::triangle_strip_adjacency), 4u);
    EXPECT_EQ(prim_rollback(Prim::line_strip_adjacency), 3u);
    EXPECT_EQ(prim_rollback(Prim::triangles), 0u);
}

TEST(Prim, TrimKeepsWholePrimitives) {
    EXPECT_EQ(trim_count(Prim::triangles, 8), 6u);
    EXPECT_EQ(trim_count(Prim::triangles, 2), 0u);
    EXPECT_EQ(trim_count(Prim::quad_strip, 7), 6u);
    EXPECT_EQ(trim_count(Prim::triangle_strip_adjacency, 9), 8u);
    EXPECT_EQ(trim_count(Prim::line_loop, 1), 0u);
}

TEST(Prim, GlPrimCount) {
    EXPECT_EQ(gl_prim_count(Prim::line_loop, 4), 4u);
    EXPECT_EQ(gl_prim_count(Prim::line_loop, 2), 2u);
    EXPECT_EQ(gl_prim_count(Prim::triangle_strip_adjacency, 10), 3u);
    EXPECT_EQ(gl_prim_count(Prim::triangle_strip_adjacency, 7), 1u);
    EXPECT_EQ(gl_prim_count(Prim::triangle_fan, 2), 0u);
}

// The 10-vertex strip example of docs/gl-order.md, "With a geometry shader".
TEST(Prim, TriangleStripAdjacencyGsInputOrder) {
    const auto last = gs_inputs(Prim::triangle_strip_adjacency, Provoking::last, 10);
    ASSERT_EQ(last.size(), 3u);
    EXPECT_EQ(last[0], (std::vector<uint32_t>{0, 1, 2, 6, 4, 3}));
    EXPECT_EQ(last[1], (std::vector<uint32_t>{4, 0, 2, 5, 6, 8}));
    EXPECT_EQ(last[2], (std::vector<uint32_t>{4, 2, 6, 9, 8, 7}));
    const auto first = gs_inputs(Prim::triangle_strip_adjacency, Provoking::first, 10);
    EXPECT_EQ(first[0], (std::vector<uint32_t>{0, 1, 2, 6, 4, 3}));
    EXPECT_EQ(first[1], (std::vector<uint32_t>{2, 5, 6, 8, 4, 0}));
    EXPECT_EQ(first[2], (std::vector<uint32_t>{4, 2, 6, 9, 8, 7}));
}

TEST(Prim, FanReachesGsInConventionOrder) {
    const auto first = gs_inputs(Prim::triangle_fan, Provoking::first, 4);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0], (std::vector<uint32_t>{1, 2, 0}));
    EXPECT_EQ(first[1], (std::vector<uint32_t>{2, 3, 0}));
}

TEST(Prim, LineLoopClosingLineComesLast) {
    const auto lines = gs_inputs(Prim::line_loop, Provoking::last, 3);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[2], (std::vector<uint32_t>{2, 0}));
}

TEST(Prim, GsCompatibilityFollowsGl) {
    EXPECT_TRUE(gs_input_compatible(Prim::triangle_fan, Prim::triangles));
    EXPECT_FALSE(gs_input_compatible(Prim::quads, Prim::triangles));
    EXPECT_FALSE(gs_input_compatible(Prim::polygon, Prim::triangles));
    EXPECT_FALSE(gs_input_compatible(Prim::triangles_adjacency, Prim::triangles));
    EXPECT_TRUE(gs_input_compatible(Prim::line_loop, Prim::lines));
    EXPECT_TRUE(gs_input_compatible(Prim::line_strip_adjacency, Prim::lines_adjacency));
}
