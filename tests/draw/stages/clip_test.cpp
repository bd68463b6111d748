// The clip stage: what is inside is kept (w < 0, a triangle larger than the view, user
// planes), lines and points as llvmpipe clips them, and clipped polygons as Mesa's clipper
// emits them, in its plane order and arithmetic.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

TEST(Stages, ClippingKeepsWhatIsInside) {
    Scene s = one_triangle();
    // Larger than the view on every side: every pixel.
    s.positions = {-50, -50, 0, 1, 50, -50, 0, 1, 0, 50, 0, 1};
    const size_t all = 32 * 32;
    auto lit = [&](const Scene& sc) {
        const auto p = pixels(draw_scene(sc));
        return size_t(std::count_if(p.begin(), p.end(), [](uint32_t v) { return v != 0; }));
    };
    EXPECT_EQ(lit(s), all);
    // A vertex behind the eye (w < 0): part of the view, never garbage across it.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, -0.5f};
    const size_t behind = lit(s);
    EXPECT_GT(behind, 0u);
    EXPECT_LT(behind, all);
    // Entirely outside: nothing.
    s.positions = {2, 2, 0, 1, 3, 2, 0, 1, 2, 3, 0, 1};
    EXPECT_EQ(lit(s), 0u);
    // A user plane x >= 0 keeps the right half of the full-view triangle exactly.
    s.positions = {-50, -50, 0, 1, 50, -50, 0, 1, 0, 50, 0, 1};
    s.raster.clip_plane_enable = 1;
    s.raster.clip_planes[0] = {1, 0, 0, 0};
    EXPECT_EQ(lit(s), all / 2);
}

// gl_ClipVertex (RasterState::clip_vertex_varying): the planes measure that output in place of
// the position. Varying 0 carries the position (the scene's pass-through), so naming it changes
// nothing; the back colours as clip vertex decide alone, whatever the positions, on every
// middle end (the scalar and the SIMD clip test).
TEST(Stages, UserPlanesMeasureTheClipVertex) {
    Scene s = one_triangle();
    s.positions = {-50, -50, 0, 1, 50, -50, 0, 1, 0, 50, 0, 1};
    s.raster.clip_plane_enable = 1;
    s.raster.clip_planes[0] = {1, 0, 0, 0}; // x >= 0
    auto setup = [](const std::string& middle) {
        DrawSetup d;
        d.middle = middle;
        d.threads = 2; // the per-vertex step fused into the shading (the SIMD kernel's)
        return d;
    };
    auto lit = [&](const Scene& sc, const std::string& middle) {
        const auto p = pixels(draw_scene(sc, setup(middle)));
        return size_t(std::count_if(p.begin(), p.end(), [](uint32_t v) { return v != 0; }));
    };
    for (const std::string middle : {"fetch_shade", "fetch_shade_simd"}) {
        Scene by_position = s;
        by_position.raster.clip_vertex_varying = 0;
        EXPECT_EQ(pixels(draw_scene(by_position, setup(middle))),
                  pixels(draw_scene(s, setup(middle))));
        EXPECT_EQ(lit(s, middle), 32u * 32 / 2) << middle;
        // Under the flat shade model too: a vertex the right plane makes is then measured
        // against the user plane where it lies, not where the provoking vertex's clip vertex
        // is (tests/mesa's comparison found it).
        Scene flat = s;
        flat.positions = {-0.40625f, 0.34375f, -0.125f, 0.5f,   -1.25f, -1.25f,
                          1,         2,        1.25f,   0.375f, 0.75f,  1};
        flat.raster.clip_planes[0] = {1, 0, 0, -0.375f};
        flat.raster.flatshade = true;
        Scene flat_cv = flat;
        flat_cv.raster.clip_vertex_varying = 0;
        EXPECT_EQ(pixels(draw_scene(flat_cv, setup(middle))),
                  pixels(draw_scene(flat, setup(middle))))
            << middle;
        Scene by_back = s;
        by_back.positions = {-0.8f, -0.8f, 0, 1, 0.8f, -0.8f, 0, 1, 0, 0.8f, 0, 1};
        Scene unclipped = by_back;
        unclipped.raster.clip_plane_enable = 0;
        const size_t whole = lit(unclipped, middle);
        by_back.raster.clip_vertex_varying = 3;
        by_back.back = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}; // x = 1 everywhere: all inside
        EXPECT_EQ(lit(by_back, middle), whole) << middle;
        by_back.back = {-1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1}; // all outside
        EXPECT_EQ(lit(by_back, middle), 0u) << middle;
        // Every position inside the plane, the clip vertex outside: the clip test itself must
        // measure the clip vertex, or the triangle never reaches the clipper.
        Scene right = by_back;
        right.positions = {0.1f, -0.8f, 0, 1, 0.8f, -0.8f, 0, 1, 0.4f, 0.8f, 0, 1};
        EXPECT_EQ(lit(right, middle), 0u) << middle;
        // Outside at the first vertex only: cut halfway along its edges.
        by_back.back = {-1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
        const size_t part = lit(by_back, middle);
        EXPECT_GT(part, 0u) << middle;
        EXPECT_LT(part, whole) << middle;
    }
}

// Clipping lines and points as Mesa 22.3's llvmpipe does for desktop GL (the GL state tracker
// leaves point_line_tri_clip off, so its draw module clips points and lines exactly against
// every plane; its rasterizer scissors only to the framebuffer). A thin line crossing the
// viewport's edge lights, inside the viewport, exactly the pixels of the same window-space
// line drawn unclipped, and none outside.
TEST(Stages, ALineCrossingTheViewportEdgeLightsTheUnclippedLinesPixelsInside) {
    // Viewport (8, 8, 16, 16) in a 32 x 32 image: window (4, 16.8) to (18.4, 19.2).
    Scene clipped = one_line({-1.5f, 0.1f, 0, 1, 0.3f, 0.4f, 0, 1});
    clipped.raster.viewport = {8, 8, 16, 16, 0, 1};
    // The same window-space line with the whole image as viewport: nothing outside.
    Scene whole = one_line({-0.75f, 0.05f, 0, 1, 0.15f, 0.2f, 0, 1});
    const auto got = lit_pixels(draw_scene(clipped));
    std::set<std::pair<uint32_t, uint32_t>> want;
    for (const auto& p : lit_pixels(draw_scene(whole)))
        if (p.first >= 8 && p.first < 24 && p.second >= 8 && p.second < 24) want.insert(p);
    EXPECT_EQ(got, want);
    EXPECT_EQ(got.size(), 10u); // columns 8 to 17
}

// A line with one end behind the eye (w < 0) is clipped against the near plane: it draws as
// the line from its inside end to where it crosses z = -w, computed here by hand.
TEST(Stages, ALineWithAnEndBehindTheEyeIsClippedAgainstNear) {
    // (0, 0, 0, 1) to (0.25, 0.0625, -0.5, -0.5): z + w is 1 and -1, so the crossing is
    // halfway, at (0.125, 0.03125, -0.25, 0.25).
    const Scene behind = one_line({0, 0, 0, 1, 0.25f, 0.0625f, -0.5f, -0.5f});
    const Scene by_hand = one_line({0, 0, 0, 1, 0.125f, 0.03125f, -0.25f, 0.25f});
    const auto got = lit_pixels(draw_scene(behind));
    EXPECT_EQ(got, lit_pixels(draw_scene(by_hand)));
    EXPECT_GE(got.size(), 7u); // window x 16 to 24
    for (const auto& p : got) EXPECT_GE(p.first, 16u);
}

// A point is kept or dropped by its centre alone, whatever its size: one just outside the
// viewport in x is dropped even when wide enough to reach into it; a wide point just inside
// lights pixels outside the viewport (no scissor to the viewport, as llvmpipe).
TEST(Stages, PointsAreClippedByTheirCentreAndNotScissoredToTheViewport) {
    Scene s = one_triangle();
    s.prim = Prim::points;
    s.indices = {0};
    s.raster.viewport = {8, 8, 16, 16, 0, 1};
    s.raster.point_size = 5;
    // Window x 7.5 (ndc -1.0625): outside the viewport by half a pixel.
    s.positions = {-1.0625f, 0.0625f, 0, 1};
    EXPECT_TRUE(lit_pixels(draw_scene(s)).empty());
    // Window x 8.5: inside; the 5 x 5 square spans x 6 to 10.
    s.positions = {-0.9375f, 0.0625f, 0, 1};
    const auto lit = lit_pixels(draw_scene(s));
    EXPECT_EQ(lit.size(), 25u);
    EXPECT_EQ(lit.begin()->first, 6u);
}

// A wide line crossing the viewport's edge is clipped there, then drawn at its full width:
// the parallelogram llvmpipe sets up reaches past the viewport, and only the framebuffer
// bounds it (Mesa 22.3 pixels: window (5.6, 6.4) to (17.6, 23.2), width 4, viewport
// (8, 8, 16, 16)).
TEST(Stages, AWideLineIsClippedThenDrawnAtFullWidthPastTheViewport) {
    Scene s = one_line({-1.3f, -1.2f, 0, 1, 0.2f, 0.9f, 0, 1});
    s.raster.viewport = {8, 8, 16, 16, 0, 1};
    s.raster.line_width = 4;
    s.backend_lines = true;
    const auto lit = lit_pixels(draw_scene(s));
    const std::set<std::pair<uint32_t, uint32_t>> want = {
        {7, 10},  {8, 10},  {9, 10},  {10, 10}, {7, 11},  {8, 11},  {9, 11},  {10, 11}, {8, 12},
        {9, 12},  {10, 12}, {11, 12}, {9, 13},  {10, 13}, {11, 13}, {12, 13}, {9, 14},  {10, 14},
        {11, 14}, {12, 14}, {10, 15}, {11, 15}, {12, 15}, {13, 15}, {11, 16}, {12, 16}, {13, 16},
        {14, 16}, {12, 17}, {13, 17}, {14, 17}, {15, 17}, {12, 18}, {13, 18}, {14, 18}, {15, 18},
        {13, 19}, {14, 19}, {15, 19}, {16, 19}, {14, 20}, {15, 20}, {16, 20}, {17, 20}, {14, 21},
        {15, 21}, {16, 21}, {17, 21}, {15, 22}, {16, 22}, {17, 22}, {18, 22}};
    EXPECT_EQ(lit, want);
}

// A clipped triangle goes on as Mesa's clipper emits it (draw_pipe_clip.c emit_poly): a fan
// around the clipped polygon's first vertex, placed where the provoking vertex goes, so
// under Provoking::last each triangle is (i, i+1, 0). Polygon mode line draws each
// triangle's edges v2-v0, v0-v1, v1-v2: the polygon's closing edge comes last.
TEST(Stages, AClippedTriangleIsMesasFanWithItsCentreLastUnderProvokingLast) {
    Scene s = one_triangle();
    s.pv = Provoking::last;
    // The user plane y <= 0.25 cuts off vertex 2: the polygon v0, v1, n12, n20.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0.5f, 0.5f, 0, 1};
    s.raster.clip_plane_enable = 1;
    s.raster.clip_planes[0] = {0, -1, 0, 0.25f};
    s.raster.front_mode = s.raster.back_mode = PolygonMode::line;
    Recorder rec;
    draw_scene(s, {}, &rec);
    // New vertices are made from the provoking vertex (id 2). Fan (v1, n12, v0): v0-v1,
    // v1-n12; then (n12, n20, v0): n12-n20 (along a user plane: drawn), n20-v0.
    const std::vector<std::string> want = {"L 0 1 f0", "L 1 2 f0", "L 2 2 f0", "L 2 0 f0"};
    EXPECT_EQ(rec.log, want);
}

// The clipper computes a crossing point from whichever end of the edge is closer to the
// plane, with Mesa's arithmetic: a polygon mode point corner made by clipping at the
// viewport's right edge (window x 13) lands on pixel 13, as in Mesa 22.3's llvmpipe, not
// on pixel 12 (x just below 13, from the other end). A scene compare_render.py generated
// (--unfilled, seed 11).
TEST(Stages, ClippedCornersLandWhereMesasArithmeticPutsThem) {
    Scene s;
    s.prim = Prim::polygon;
    s.pv = Provoking::first;
    s.indices = {2, 1, 0, 3, 7, 2, 4, 4, 5, 9, 4, 5, 3, 7, 6, 4, 5, 6};
    s.positions = {2.6625f,  1.7f,    1.5f,  2, -1.5875f,  0.95f,    -1,    2,
                   0.08125f, 0.225f,  0.5f,  1, -0.29375f, -1.275f,  0,     1,
                   -1.9625f, 0.575f,  1.5f,  2, -0.79375f, 0.6625f,  -0.5f, 1,
                   3.575f,   -2.6f,   0,     4, 0.509375f, 0.39375f, 0.25f, 0.5f,
                   0.95625f, -0.775f, 0.75f, 1, 2.575f,    -3.35f,   1,     4};
    for (int v = 0; v < 10; ++v) s.colors.insert(s.colors.end(), {1, 1, 1, 1});
    s.edge = {1, 1, 0, 1, 1, 1, 1, 1, 0, 1};
    s.raster.viewport = {5, 1, 8, 24, 0, 1};
    s.raster.flatshade = true;
    s.raster.front_mode = PolygonMode::fill;
    s.raster.back_mode = PolygonMode::point;
    s.raster.edge_flag_varying = 2;
    const RasterBackend img = draw_scene(s);
    EXPECT_NE(img.pixel(13, 19), 0u);
    EXPECT_EQ(img.pixel(12, 19), 0u);
}

// The clipper takes the planes in Mesa's order (x <= w, x >= -w, y <= w, y >= -w, z >= -w,
// z <= w, then the user planes): it decides where a clipped polygon's vertex list starts,
// so the order polygon mode line draws its edges in and where a stipple pattern falls on
// them. A scene compare_render.py generated (--unfilled, seed 23), against pixels Mesa
// 22.3's llvmpipe lights and leaves dark where the planes' order makes the difference.
TEST(Stages, TrianglesAreClippedAgainstThePlanesInMesasOrder) {
    Scene s;
    s.prim = Prim::triangle_strip;
    s.pv = Provoking::last;
    s.indices = {6, 9, 5, kRestart, 9, 0, 8, kRestart, 6, 3, 8, 5, 1, 10};
    s.positions = {-0.35625f, 1.1625f,  0.75f, 1, -0.115625f, -0.29375f, -0.125f, 0.5f,
                   1.575f,    3.9f,     0,     4, -0.271875f, 0.39375f,  0.375f,  0.5f,
                   -0.16875f, 0.9125f,  0.75f, 1, 0.134375f,  0.425f,    -0.25f,  0.5f,
                   0.45625f,  -0.8375f, 0,     1, -0.29375f,  0.0375f,   -0.5f,   1,
                   2.1625f,   -2.05f,   1.5f,  2, 3.825f,     -3.85f,    0,       4,
                   -0.23125f, -0.8375f, 0.25f, 1};
    for (int v = 0; v < 11; ++v) s.colors.insert(s.colors.end(), {1, 1, 1, 1});
    s.edge = {0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1};
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.raster.edge_flag_varying = 2;
    s.raster.front_mode = PolygonMode::line;
    s.raster.back_mode = PolygonMode::fill;
    s.raster.line_stipple = true;
    s.raster.stipple_factor = 2;
    s.raster.stipple_pattern = 0xb633;
    const RasterBackend img = draw_scene(s);
    for (const auto& [x, y] : std::vector<std::pair<uint32_t, uint32_t>>{{12, 7}, {17, 4}})
        EXPECT_NE(img.pixel(x, y), 0u) << x << " " << y;
    for (const auto& [x, y] :
         std::vector<std::pair<uint32_t, uint32_t>>{{14, 13}, {15, 5}, {21, 3}, {29, 0}})
        EXPECT_EQ(img.pixel(x, y), 0u) << x << " " << y;
}
