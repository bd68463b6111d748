// The line stipple stage: resets once per restart run, the pattern's bits pick the pixels,
// and dashes end on the line's own vertices.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

// A line strip's stipple pattern starts once per restart run, and continues across segments.
TEST(Stages, StippleResetsOncePerRunOfAStrip) {
    std::mt19937 rng(4);
    Scene s = random_scene(rng, Prim::line_strip, 10);
    s.indices = {0, 1, 2, 3, 4, 5, 6, 7, kRestart, 8, 9, 0};
    Recorder rec;
    draw_scene(s, {"fetch_shade", 3, {}, 2}, &rec);
    uint32_t resets = 0;
    for (const std::string& l : rec.log) resets += l.back() == '8'; // PRIM_RESET_STIPPLE
    EXPECT_EQ(resets, 2u);
    EXPECT_EQ(rec.log.size(), 9u);
}

// Stipple: on a horizontal line the pattern's bits pick the pixels, `factor` pixels per bit,
// and the counter runs on along a strip instead of restarting at each line.
TEST(Stages, StipplePicksPixelsAlongTheLine) {
    Scene s = one_triangle();
    s.prim = Prim::line_strip;
    s.indices = {0, 1, 2};
    // Window (4.3, 10.6) to (12.3, 10.6) to (20.3, 10.6): two 8-pixel lines in a row.
    const float y = 2 * 10.6f / 32 - 1;
    s.positions = {2 * 4.3f / 32 - 1,  y, 0, 1, 2 * 12.3f / 32 - 1, y, 0, 1,
                   2 * 20.3f / 32 - 1, y, 0, 1};
    s.edge = {1, 1, 1};
    s.colors = std::vector<float>(12, 1.0f);
    s.raster.line_stipple = true;
    s.raster.stipple_factor = 2;
    s.raster.stipple_pattern = 0x0F0F; // bits 0-3 on: pixels 0-7 on, 8-15 off (factor 2)
    const RasterBackend img = draw_scene(s);
    for (uint32_t x = 4; x < 20; ++x) EXPECT_EQ(img.pixel(x, 10) != 0, x - 4 < 8) << x;
}

// A stipple dash that reaches a line's end keeps that end's vertex, as Mesa's emit_segment
// does (it interpolates only ends strictly inside the line): a + 1 * (b - a) need not be b,
// and a window coordinate one ulp off can add or drop the line's last pixel.
TEST(Stages, StippleDashesEndOnTheLinesOwnVertices) {
    class Ends final : public Stage {
      public:
        std::vector<float> x;
        void point(const StagePrim& p) override { next()->point(p); }
        void line(const StagePrim& p) override {
            for (int i = 0; i < 2; ++i) x.push_back(dword_float(p.v[i][SLOT_POSITION]));
            next()->line(p);
        }
        void triangle(const StagePrim& p) override { next()->triangle(p); }
    };
    int telling = 0;
    for (int k = 0; k < 40; ++k) {
        Scene s =
            one_line({-0.890899956f, 0.1f, 0, 1, 0.117200002f + 0.0043f * float(k), 0.15f, 0, 1});
        Ends plain, stippled;
        draw_scene(s, {}, &plain);
        s.raster.line_stipple = true; // every bit on: one dash, the whole line
        draw_scene(s, {}, &stippled);
        ASSERT_EQ(plain.x.size(), 2u);
        const volatile float a = plain.x[0], b = plain.x[1], d = b - a;
        telling += a + 1.0f * d != b;
        EXPECT_EQ(stippled.x, plain.x) << k;
    }
    EXPECT_GT(telling, 0); // some of the lines tell the two apart
}
