// The viewport transform and emit: window coordinates are a fused multiply-add, colours and
// depth are interpolated on the unsnapped positions, and the viewport is clamped to the
// implementation's range.
#include "drawpipe/middle_ends.hpp"
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

// Window coordinates are ndc * scale + translate rounded once, as llvmpipe's draw module
// computes them (LLVM's fmuladd: one FMA instruction on CPUs that have one), on every
// middle end. Window y of ndc -0.9 in a viewport 24 high at y 6: 7.20000029 fused,
// 7.20000076 multiplied and added separately.
TEST(Stages, WindowCoordinatesAreAFusedMultiplyAdd) {
    register_builtin_middle_ends();
    class Positions final : public Stage {
      public:
        std::vector<float> y;
        void point(const StagePrim& p) override {
            y.push_back(dword_float(p.v[0][SLOT_POSITION + 1]));
            next()->point(p);
        }
        void line(const StagePrim& p) override { next()->line(p); }
        void triangle(const StagePrim& p) override { next()->triangle(p); }
    };
    Scene s = one_triangle();
    s.prim = Prim::points;
    s.indices = {0};
    s.positions = {0, -0.45f, 0, 0.5f};
    s.raster.viewport = {3, 6, 16, 24, 0, 1};
    volatile float ndc = -0.45f * (1.0f / 0.5f), scale = 12, translate = 18;
    const float fused = std::fma(float(ndc), float(scale), float(translate));
    const float product = ndc * scale;
    ASSERT_NE(fused, product + translate); // the case tells the two apart
    for (const char* middle : {"fetch_shade", "fetch_shade_simd", "a4xx", "gen7", "mali"}) {
        Positions rec;
        DrawSetup setup;
        setup.middle = middle;
        draw_scene(s, setup, &rec);
        ASSERT_EQ(rec.y.size(), 1u) << middle;
        EXPECT_EQ(rec.y[0], fused) << middle;
    }
}

// Colours are interpolated on the vertices' own window positions, as llvmpipe sets up its
// plane equations from the float positions (only coverage uses the positions snapped to
// 1/256): on a thin triangle, weights from the snapped positions are visibly off. A
// triangle of a scene compare_render.py generated (--unfilled, seed 7), against the colours
// Mesa 22.3's llvmpipe gives its two pixels (within one step).
TEST(Stages, ColoursAreInterpolatedOnTheUnsnappedPositions) {
    Scene s = one_triangle();
    s.positions = {-0.675f, 0.65f, 0, 4, 0.76875f, -0.15f, 0.75f, 1, 0.83125f, -0.2125f, -0.25f, 1};
    s.colors = {0.75f, 0.75f, 0.125f, 1, 1, 0.375f, 0.125f, 1, 0.75f, 0, 1, 1};
    s.raster.viewport = {2, 5, 16, 8, 0, 1};
    const RasterBackend img = draw_scene(s);
    auto near = [](uint32_t got, uint32_t want) {
        for (int c = 0; c < 32; c += 8)
            if (std::abs(int((got >> c) & 0xFF) - int((want >> c) & 0xFF)) > 1) return false;
        return true;
    };
    EXPECT_TRUE(near(img.pixel(9, 9), 0xFF4191CBu)) << std::hex << img.pixel(9, 9);
    EXPECT_TRUE(near(img.pixel(15, 8), 0xFF2C5DFAu)) << std::hex << img.pixel(15, 8);
}

// So is depth: llvmpipe's depth plane comes from the float positions too. At pixel (9, 9) of
// the thin triangle above, the window depths 0.5, 0.875 and 0.375 weigh 0.89, 0.06 and
// 0.05 at the pixel centre: 0.51625; weights from the snapped positions are far off.
TEST(Stages, DepthIsInterpolatedOnTheUnsnappedPositions) {
    Scene s = one_triangle();
    s.positions = {-0.675f, 0.65f, 0, 4, 0.76875f, -0.15f, 0.75f, 1, 0.83125f, -0.2125f, -0.25f, 1};
    s.raster.viewport = {2, 5, 16, 8, 0, 1};
    s.depth_test = true;
    const RasterBackend img = draw_scene(s);
    EXPECT_NEAR(img.depth(9, 9), 0.51625f, 1e-5f);
}

// GL clamps the viewport's size to GL_MAX_VIEWPORT_DIMS and its corner to
// GL_VIEWPORT_BOUNDS_RANGE (llvmpipe: 16384, and a viewport 40000 wide from -20000 draws
// nothing in a 64-pixel image while one 18000 wide from -9000 covers it).
TEST(Stages, TheViewportIsClampedToTheImplementationsRange) {
    Scene s = big_scene(Prim::triangles, {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1});
    s.image = 64;
    s.indices = {0, 1, 2, 2, 1, 3};
    auto lit = [&](Viewport v) {
        s.raster.viewport = v;
        return lit_count(pixels(draw_scene(s)));
    };
    EXPECT_EQ(lit({-20000, -20000, 40000, 40000, 0, 1}), 0u);
    EXPECT_EQ(lit({-9000, -9000, 18000, 18000, 0, 1}), 64u * 64u);
    EXPECT_EQ(lit({0, 0, 1e38f, 1e38f, 0, 1}), 64u * 64u);
    // The corner at -32768: 16384 wide from there ends far left of the image.
    EXPECT_EQ(lit({-1e30f, 0, 16384, 64, 0, 1}), 0u);
    EXPECT_EQ(lit({-32768 - 100, 0, 16384 * 2 + 100 + 64, 64, 0, 1}), 0u);
}
