// Wide lines: the wide-line stage repeats the thin line across, the backend draws
// llvmpipe's parallelograms, and widths and sizes are clamped to the implementation's range.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace drawpipe;
using namespace drawpipe::test;

// A wide line is the thin line's pixels repeated `width` rows across its minor axis.
TEST(Stages, WideLinesRepeatTheThinLineAcross) {
    Scene s = one_triangle();
    s.prim = Prim::lines;
    s.indices = {0, 1};
    // x-major, ends off pixel centres and boundaries: window (8.3, 8.6) to (24.3, 12.6).
    s.positions = {-0.48125f, -0.4625f, 0, 1, 0.51875f, -0.2125f, 0, 1};
    const auto thin = pixels(draw_scene(s));
    for (const float width : {2.0f, 3.0f}) {
        s.raster.line_width = width;
        const auto wide = pixels(draw_scene(s));
        uint64_t lit = 0, columns_match = 0;
        for (uint32_t x = 0; x < 32; ++x) {
            uint32_t in_thin = 0, in_wide = 0;
            for (uint32_t y = 0; y < 32; ++y) {
                in_thin += thin[y * 32 + x] != 0;
                in_wide += wide[y * 32 + x] != 0;
            }
            lit += in_wide;
            columns_match += in_wide == in_thin * uint32_t(width);
        }
        EXPECT_EQ(columns_match, 32u) << width;
        EXPECT_EQ(lit, 16u * uint64_t(width)) << width;
    }
}

// llvmpipe's wide lines: a parallelogram `width` pixels tall on an x-major line (every column
// the same height), its ends where the thin line's diamond-exit test puts them.
TEST(Stages, BackendWideLinesAreParallelogramsAsInLlvmpipe) {
    // x-major, ends off pixel centres and boundaries: window (8.3, 8.6) to (24.3, 12.6).
    Scene s = one_line({-0.48125f, -0.4625f, 0, 1, 0.51875f, -0.2125f, 0, 1});
    s.backend_lines = true;
    const auto thin = lit_pixels(draw_scene(s));
    for (const float width : {1.0f, 2.0f, 3.0f, 4.0f}) {
        s.raster.line_width = width;
        std::map<uint32_t, uint32_t> column;
        for (const auto& p : lit_pixels(draw_scene(s))) ++column[p.first];
        EXPECT_EQ(column.size(), 16u) << width; // columns 9 to 24, as the thin line's
        EXPECT_EQ(column.begin()->first, thin.begin()->first) << width;
        for (const auto& [x, n] : column) EXPECT_EQ(n, uint32_t(width)) << width << " " << x;
    }
}

// GL clamps line widths and point sizes to the implementation's range, llvmpipe's 255
// (limits.hpp; llvmpipe draws exactly these pictures for widths and sizes of 255 and 300):
// wider lines and larger points draw the 255 picture, whether the wide-line stage or the
// backend draws the line, and a width of 1e30 neither hangs nor loses the line.
TEST(Stages, LineWidthsAndPointSizesAreClampedToTheImplementationsRange) {
    Scene line = big_scene(Prim::lines, {-0.5f, 0.1f, 0, 1, 0.5f, 0.1f, 0, 1});
    for (const bool backend : {false, true}) {
        line.backend_lines = backend;
        line.raster.line_width = kMaxLineWidth;
        const auto widest = pixels(draw_scene(line));
        EXPECT_EQ(lit_count(widest), 300u * 255u) << backend; // 300 pixels long
        for (const float width : {256.0f, 300.0f, 1e9f, 1e30f}) {
            line.raster.line_width = width;
            EXPECT_EQ(pixels(draw_scene(line)), widest) << backend << " " << width;
        }
    }
    // Polygon mode line: every edge of the triangle at the clamped width.
    Scene outline =
        big_scene(Prim::triangles, {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1});
    outline.raster.front_mode = outline.raster.back_mode = PolygonMode::line;
    outline.raster.line_width = kMaxLineWidth;
    const auto outline_widest = pixels(draw_scene(outline));
    outline.raster.line_width = 1e9f;
    EXPECT_EQ(pixels(draw_scene(outline)), outline_widest);

    Scene point = big_scene(Prim::points, {0.1f, 0.1f, 0, 1});
    point.raster.point_size = kMaxPointSize;
    const auto largest = pixels(draw_scene(point));
    EXPECT_EQ(lit_count(largest), 255u * 255u);
    for (const float size : {256.0f, 1e38f}) {
        point.raster.point_size = size;
        EXPECT_EQ(pixels(draw_scene(point)), largest) << size;
    }
}
