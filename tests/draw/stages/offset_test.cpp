// The polygon offset stage: depth moves by slope and units, vertex depths saturate where
// Mesa's draw module applies the offset, and fragment depth is clamped after it.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

namespace {

// Records the window depth of every line and triangle vertex reaching it.
class Depths final : public Stage {
  public:
    std::vector<float> line_z, triangle_z;
    void point(const StagePrim& p) override { next()->point(p); }
    void line(const StagePrim& p) override {
        for (int i = 0; i < 2; ++i) line_z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
        next()->line(p);
    }
    void triangle(const StagePrim& p) override {
        for (int i = 0; i < 3; ++i) triangle_z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
        next()->triangle(p);
    }
};

// Each vertex's depth move under `raster`'s offset (fill) against none.
std::vector<float> offset_moves(Scene s) {
    Depths plain, offset;
    s.raster.offset_fill = false;
    draw_scene(s, {}, &plain);
    s.raster.offset_fill = true;
    draw_scene(s, {}, &offset);
    EXPECT_EQ(plain.triangle_z.size(), offset.triangle_z.size());
    std::vector<float> moves;
    for (size_t i = 0; i < plain.triangle_z.size() && i < offset.triangle_z.size(); ++i)
        moves.push_back(offset.triangle_z[i] - plain.triangle_z[i]);
    return moves;
}

} // namespace

// Polygon offset moves a filled triangle's window depth by factor * its depth slope plus
// units * the float depth buffer's step at its largest depth; a line-mode triangle only with
// offset_line.
TEST(Stages, PolygonOffsetMovesDepthBySlopeAndUnits) {
    Scene s = one_triangle();
    // Window x 8..24 and y 8..24; z (ndc) 0 -> 0.5 along x: window depth 0.5 -> 0.75, slope
    // 0.25 / 16 pixels; the largest depth 0.75 has exponent -1, so r = 2^-24.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0.5f, 1, -0.5f, 0.5f, 0, 1};
    s.raster.offset_factor = 2;
    s.raster.offset_units = 3;
    const float want = 2 * (0.25f / 16) + 3 * std::ldexp(1.0f, -24);
    Depths plain, offset, line_only;
    draw_scene(s, {}, &plain);
    s.raster.offset_fill = true;
    draw_scene(s, {}, &offset);
    ASSERT_EQ(plain.triangle_z.size(), 3u);
    ASSERT_EQ(offset.triangle_z.size(), 3u);
    for (int i = 0; i < 3; ++i)
        EXPECT_FLOAT_EQ(offset.triangle_z[i] - plain.triangle_z[i], want) << i;
    // Polygon mode line: offset_fill does not apply, offset_line does.
    s.raster.front_mode = PolygonMode::line;
    draw_scene(s, {}, &line_only);
    ASSERT_FALSE(line_only.line_z.empty());
    for (const float z : line_only.line_z) EXPECT_TRUE(z == 0.5f || z == 0.75f) << z;
}

// A fixed-point depth buffer's r (offset_units_r) is one step at every depth, where a float
// buffer's follows the triangle's largest depth; offset_clamp caps a positive offset and
// floors a negative one.
TEST(Stages, PolygonOffsetTakesAFixedStepAndAClamp) {
    Scene s = one_triangle();
    // Window depth 0.5 -> 0.75 along x over 16 pixels: slope 2^-6.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0.5f, 1, -0.5f, 0.5f, 0, 1};
    s.raster.offset_factor = 2;
    s.raster.offset_units = 3;
    s.raster.offset_units_r = std::ldexp(1.0f, -16);
    for (const float m : offset_moves(s))
        EXPECT_FLOAT_EQ(m, 2 * std::ldexp(1.0f, -6) + 3 * std::ldexp(1.0f, -16));
    // Deeper (0.8 -> 0.9): a float buffer's r doubles past 0.75 -> the fixed one does not.
    s.positions = {-0.5f, -0.5f, 0.6f, 1, 0.5f, -0.5f, 0.8f, 1, -0.5f, 0.5f, 0.6f, 1};
    s.raster.offset_factor = 0;
    s.raster.offset_units = 1024;
    for (const float m : offset_moves(s)) EXPECT_FLOAT_EQ(m, std::ldexp(1.0f, -6));
    s.raster.offset_units_r = 0;
    for (const float m : offset_moves(s)) EXPECT_FLOAT_EQ(m, 1024 * std::ldexp(1.0f, -24));
    // A clamp below the offset caps it; a negative one floors a negative offset.
    s.raster.offset_units_r = std::ldexp(1.0f, -16);
    s.raster.offset_clamp = std::ldexp(1.0f, -10);
    for (const float m : offset_moves(s)) EXPECT_FLOAT_EQ(m, std::ldexp(1.0f, -10));
    s.raster.offset_units = -1024;
    s.raster.offset_clamp = -std::ldexp(1.0f, -9);
    for (const float m : offset_moves(s)) EXPECT_FLOAT_EQ(m, -std::ldexp(1.0f, -9));
    s.raster.offset_clamp = std::ldexp(1.0f, -10); // a cap does not touch a negative offset
    for (const float m : offset_moves(s)) EXPECT_FLOAT_EQ(m, -std::ldexp(1.0f, -6));
}

// A float buffer's r is 2^(e - 23) of the largest depth's exponent e, and 0 once that is
// below 2^-126 + 23 (llvmpipe's rule, from the exponent's bits): depths in [0, 2^-110] take
// no units at all.
TEST(Stages, PolygonOffsetUnitsVanishOnTinyFloatDepths) {
    Scene s = one_triangle();
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0.5f, 1, -0.5f, 0.5f, 0, 1};
    s.raster.viewport.far = std::ldexp(1.0f, -110);
    s.raster.offset_units = 1e30f;
    for (const float m : offset_moves(s)) EXPECT_EQ(m, 0.0f);
    s.raster.viewport.far = std::ldexp(1.0f, -90); // 2^-91 .. 2^-90: r = 2^(-91 - 23)
    for (const float m : offset_moves(s)) EXPECT_GT(m, 0.0f);
}

// A triangle without area in polygon mode line: Mesa's draw module (llvmpipe's offset there)
// divides by the zero determinant anyway, so edges whose depths are not on one line move to
// depth 1 (an infinite slope, saturated), and a triangle with a repeated vertex, whose offset
// is NaN (0 * infinity), to depth 0 (Mesa's saturation takes NaN to 0). drawpipe follows it,
// as llvmpipe draws them.
TEST(Stages, PolygonOffsetOfATriangleWithoutAreaFollowsMesasDrawModule) {
    Scene s = one_triangle();
    s.raster.front_mode = s.raster.back_mode = PolygonMode::line;
    s.raster.offset_line = true;
    s.raster.offset_factor = 1;
    // Window (8, 8), (24, 24), (16, 16): on one line; depths 0.5, 0.75, 0.5 are not.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, 0.5f, 0.5f, 1, 0, 0, 0, 1};
    Depths collinear;
    draw_scene(s, {}, &collinear);
    ASSERT_EQ(collinear.line_z.size(), 6u);
    for (const float z : collinear.line_z) EXPECT_EQ(z, 1.0f);
    // Vertex 2 repeats vertex 0.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, 0.5f, 0.5f, 1, -0.5f, -0.5f, 0, 1};
    Depths repeated;
    draw_scene(s, {}, &repeated);
    ASSERT_EQ(repeated.line_z.size(), 6u);
    for (const float z : repeated.line_z) EXPECT_EQ(z, 0.0f);
    // Filled, where llvmpipe offsets in its own set-up, such a triangle keeps its depths.
    s.raster.front_mode = s.raster.back_mode = PolygonMode::fill;
    s.raster.offset_fill = true;
    Depths filled;
    draw_scene(s, {}, &filled);
    ASSERT_EQ(filled.triangle_z.size(), 3u);
    EXPECT_EQ(filled.triangle_z[0], 0.5f);
    EXPECT_EQ(filled.triangle_z[1], 0.75f);
}

// Polygon offset clamps each vertex's depth to [0, 1] where Mesa's draw module applies it
// (draw_pipe_offset.c), which llvmpipe leaves it to only while the draw module runs its
// pipeline anyway: polygon mode line or point on some face, or line stipple. Otherwise
// llvmpipe offsets filled triangles itself, with no clamp per vertex.
TEST(Stages, PolygonOffsetSaturatesVertexDepthsWhereMesasDrawModuleAppliesIt) {
    Scene s = one_triangle();
    // A front face with window depths 0.9, 0.2, 0.2; the largest has exponent -1, so
    // r = 2^-24, and 2^22 units move every depth by 0.25.
    s.positions = {-0.5f, -0.5f, 0.8f, 1, 0.5f, -0.5f, -0.6f, 1, 0, 0.5f, -0.6f, 1};
    s.raster.offset_fill = s.raster.offset_line = s.raster.offset_point = true;
    s.raster.offset_units = std::ldexp(1.0f, 22);
    for (const int variant : {0, 1, 2}) {
        s.raster.back_mode = variant == 1 ? PolygonMode::line : PolygonMode::fill;
        s.raster.line_stipple = variant == 2;
        Depths d;
        draw_scene(s, {}, &d);
        ASSERT_EQ(d.triangle_z.size(), 3u) << variant;
        EXPECT_FLOAT_EQ(d.triangle_z[0], variant == 0 ? 1.15f : 1.0f) << variant;
        EXPECT_FLOAT_EQ(d.triangle_z[1], 0.45f) << variant;
    }
}

// GL limits fragment depths to [0, 1] by clamping after the polygon offset is added (llvmpipe
// does the same): a filled triangle offset below 0 writes depth 0, and a later triangle at
// depth 0 then fails the `less` test against it.
TEST(Stages, FragmentDepthIsClampedAfterPolygonOffset) {
    Scene s = one_triangle();
    // Window depth 0.2 everywhere: exponent -2, so r = 2^-26, and -2^25 units move it by -0.5.
    s.positions = {-0.5f, -0.5f, -0.6f, 1, 0.5f, -0.5f, -0.6f, 1, 0, 0.5f, -0.6f, 1};
    s.raster.offset_fill = true;
    s.raster.offset_units = -std::ldexp(1.0f, 25);
    s.depth_test = true;
    const RasterBackend img = draw_scene(s);
    ASSERT_NE(img.pixel(16, 12), 0u);
    EXPECT_EQ(img.depth(16, 12), 0.0f);
}
