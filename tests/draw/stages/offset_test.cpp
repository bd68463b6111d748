// The polygon offset stage: depth moves by slope and units, vertex depths saturate where
// Mesa's draw module applies the offset, and fragment depth is clamped after it.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

// Polygon offset moves a filled triangle's window depth by factor * its depth slope plus
// units * the float depth buffer's step at its largest depth; a line-mode triangle only with
// offset_line.
TEST(Stages, PolygonOffsetMovesDepthBySlopeAndUnits) {
    class Depths final : public Stage {
      public:
        std::vector<float> z;
        void point(const StagePrim& p) override { next()->point(p); }
        void line(const StagePrim& p) override {
            for (int i = 0; i < 2; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->line(p);
        }
        void triangle(const StagePrim& p) override {
            for (int i = 0; i < 3; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->triangle(p);
        }
    };
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
    ASSERT_EQ(plain.z.size(), 3u);
    ASSERT_EQ(offset.z.size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(offset.z[i] - plain.z[i], want) << i;
    // Polygon mode line: offset_fill does not apply, offset_line does.
    s.raster.front_mode = PolygonMode::line;
    draw_scene(s, {}, &line_only);
    for (size_t i = 0; i < line_only.z.size(); ++i)
        EXPECT_TRUE(line_only.z[i] == 0.5f || line_only.z[i] == 0.75f) << line_only.z[i];
}

// Polygon offset clamps each vertex's depth to [0, 1] where Mesa's draw module applies it
// (draw_pipe_offset.c), which llvmpipe leaves it to only while the draw module runs its
// pipeline anyway: polygon mode line or point on some face, or line stipple. Otherwise
// llvmpipe offsets filled triangles itself, with no clamp per vertex.
TEST(Stages, PolygonOffsetSaturatesVertexDepthsWhereMesasDrawModuleAppliesIt) {
    class Depths final : public Stage {
      public:
        std::vector<float> z;
        void point(const StagePrim& p) override { next()->point(p); }
        void line(const StagePrim& p) override { next()->line(p); }
        void triangle(const StagePrim& p) override {
            for (int i = 0; i < 3; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->triangle(p);
        }
    };
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
        ASSERT_EQ(d.z.size(), 3u) << variant;
        EXPECT_FLOAT_EQ(d.z[0], variant == 0 ? 1.15f : 1.0f) << variant;
        EXPECT_FLOAT_EQ(d.z[1], 0.45f) << variant;
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
