// Two-sided colour (RasterState::two_side): back faces take the back colour outputs after
// culling, in every polygon mode, from the same provoking vertex; lines and points keep the
// front colour; the image is the same at every limit, middle end and thread count; bad pairs
// are an Error naming the field.
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "support/expect_error.hpp"
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

namespace {

constexpr uint32_t kRed = 0xFF0000FFu, kGreen = 0xFF00FF00u, kBlue = 0xFFFF0000u,
                   kYellow = 0xFF00FFFFu;

void add_vertex(Scene& s, float x, float y, const float (&f)[4], const float (&b)[4]) {
    s.positions.insert(s.positions.end(), {x, y, 0.0f, 1.0f});
    s.colors.insert(s.colors.end(), f, f + 4);
    s.back.insert(s.back.end(), b, b + 4);
    s.edge.push_back(1.0f);
    s.indices.push_back(uint32_t(s.indices.size()));
}

constexpr float kR[4] = {1, 0, 0, 1}, kG[4] = {0, 1, 0, 1}, kB[4] = {0, 0, 1, 1},
                kY[4] = {1, 1, 0, 1};

// Triangle A counter-clockwise (front red, back yellow) on the left, triangle B clockwise
// (front green, back blue) on the right, with two-sided colour on over a 32 x 32 viewport.
Scene two_triangles() {
    Scene s;
    add_vertex(s, -0.875f, -0.5f, kR, kY);
    add_vertex(s, -0.125f, -0.5f, kR, kY);
    add_vertex(s, -0.5f, 0.5f, kR, kY);
    add_vertex(s, 0.125f, -0.5f, kG, kB);
    add_vertex(s, 0.5f, 0.5f, kG, kB);
    add_vertex(s, 0.875f, -0.5f, kG, kB);
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.raster.two_side = true;
    s.raster.two_side_colors[0] = {1, 3};
    return s;
}

// The colours lit in the left (triangle A) and right (triangle B) halves.
std::pair<std::set<uint32_t>, std::set<uint32_t>> halves(const RasterBackend& img) {
    std::set<uint32_t> l, r;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != 0) (x < 16 ? l : r).insert(img.pixel(x, y));
    return {l, r};
}

using Set = std::set<uint32_t>;

TEST(TwoSide, BackFacesTakeTheBackColourInEveryPolygonMode) {
    for (const PolygonMode mode : {PolygonMode::fill, PolygonMode::line, PolygonMode::point})
        for (const FrontFace ff : {FrontFace::ccw, FrontFace::cw}) {
            Scene s = two_triangles();
            s.raster.front_mode = s.raster.back_mode = mode;
            s.raster.front_face = ff;
            const auto [left, right] = halves(draw_scene(s));
            // A is counter-clockwise: front under ccw (red), back under cw (yellow); B the other.
            EXPECT_EQ(left, ff == FrontFace::ccw ? Set{kRed} : Set{kYellow}) << int(mode);
            EXPECT_EQ(right, ff == FrontFace::ccw ? Set{kBlue} : Set{kGreen}) << int(mode);
        }
}

TEST(TwoSide, EachFaceKeepsItsOwnPolygonModeAndColour) {
    Scene s = two_triangles();
    s.raster.front_mode = PolygonMode::fill;
    s.raster.back_mode = PolygonMode::line;
    const RasterBackend img = draw_scene(s);
    const auto [left, right] = halves(img);
    EXPECT_EQ(left, Set{kRed});
    EXPECT_EQ(right, Set{kBlue});
    // B's outline only: its centre stays empty.
    EXPECT_EQ(img.pixel(24, 10), 0u);
    EXPECT_EQ(img.pixel(8, 10), kRed);
}

TEST(TwoSide, CullingComesFirst) {
    for (const CullFace cull : {CullFace::front, CullFace::back}) {
        Scene s = two_triangles();
        s.raster.cull = cull;
        // Only the face kept is drawn, in its own colour.
        EXPECT_EQ(colours(draw_scene(s)), cull == CullFace::back ? Set{kRed} : Set{kBlue});
        s.raster.front_mode = s.raster.back_mode = PolygonMode::line;
        EXPECT_EQ(colours(draw_scene(s)), cull == CullFace::back ? Set{kRed} : Set{kBlue});
    }
}

TEST(TwoSide, FlatShadingTakesTheProvokingVertexsBackColour) {
    for (const Provoking pv : {Provoking::first, Provoking::last})
        for (const PolygonMode mode : {PolygonMode::fill, PolygonMode::line, PolygonMode::point}) {
            Scene s;
            s.pv = pv;
            // One clockwise (back) triangle whose vertices have different back colours.
            add_vertex(s, -0.5f, -0.5f, kR, kY);
            add_vertex(s, 0.0f, 0.5f, kR, kG);
            add_vertex(s, 0.5f, -0.5f, kR, kB);
            s.raster.viewport = {0, 0, 32, 32, 0, 1};
            s.raster.two_side = true;
            s.raster.two_side_colors[0] = {1, 3};
            s.raster.flatshade = true;
            s.raster.front_mode = s.raster.back_mode = mode;
            EXPECT_EQ(colours(draw_scene(s)), pv == Provoking::first ? Set{kYellow} : Set{kBlue})
                << int(mode);
        }
}

TEST(TwoSide, LinesAndPointsKeepTheFrontColour) {
    for (const Prim prim : {Prim::lines, Prim::points}) {
        Scene s = two_triangles();
        s.prim = prim;
        s.raster.flatshade = true; // each line's colour is its last vertex's
        EXPECT_EQ(colours(draw_scene(s)), (Set{kRed, kGreen})) << prim_name(prim);
    }
}

TEST(TwoSide, OffTheFrontColourShowsOnBothFaces) {
    Scene s = two_triangles();
    s.raster.two_side = false; // the pairs are then ignored
    EXPECT_EQ(colours(draw_scene(s)), (Set{kRed, kGreen}));
    s.raster.two_side = true;
    s.raster.two_side_colors[0] = {};
    EXPECT_EQ(colours(draw_scene(s)), (Set{kRed, kGreen}));
}

TEST(TwoSide, TheImageIsTheSameAtEveryLimitMiddleEndAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(7);
    for (const Prim prim : {Prim::triangle_strip, Prim::triangle_fan, Prim::quads, Prim::quad_strip,
                            Prim::polygon, Prim::triangles}) {
        Scene s;
        s.prim = prim;
        s.pv = rng() % 2 ? Provoking::first : Provoking::last;
        for (uint32_t v = 0; v < 40; ++v) {
            float f[4] = {float(rng() % 9) / 8, float(rng() % 9) / 8, 1, 1};
            float b[4] = {0, float(rng() % 9) / 8, float(rng() % 9) / 8, 1};
            s.positions.insert(s.positions.end(), {float(int(rng() % 15) - 7) / 8.0f,
                                                   float(int(rng() % 15) - 7) / 8.0f, 0, 1});
            s.colors.insert(s.colors.end(), f, f + 4);
            s.back.insert(s.back.end(), b, b + 4);
            s.edge.push_back(1.0f);
        }
        for (uint32_t i = 0; i < 60; ++i) s.indices.push_back(rng() % 11 == 0 ? ~0u : rng() % 40);
        s.raster.viewport = {0, 0, 32, 32, 0, 1};
        s.raster.two_side = true;
        s.raster.two_side_colors[0] = {1, 3};
        s.raster.flatshade = rng() % 2;
        s.raster.back_mode = PolygonMode::line;
        const RasterBackend want = draw_scene(s);
        ASSERT_GT(want.covered_pixels(), 0u);
        for (const DrawSetup& setup :
             {DrawSetup{"fetch_shade", 8, {}, 1}, DrawSetup{"fetch_shade_simd", 6, {}, 2},
              DrawSetup{"gen7", 9, {}, 3}, DrawSetup{"a4xx", 7, {}, 2}}) {
            const RasterBackend got = draw_scene(s, setup);
            for (uint32_t y = 0; y < 32; ++y)
                for (uint32_t x = 0; x < 32; ++x)
                    ASSERT_EQ(got.pixel(x, y), want.pixel(x, y))
                        << prim_name(prim) << " " << setup.middle << " at " << x << "," << y;
        }
    }
}

TEST(TwoSide, BadPairsAreAnErrorNamingTheField) {
    auto with = [](ColorPair p, ColorPair q = {}) {
        Scene s = two_triangles();
        s.raster.two_side_colors = {p, q};
        return [s] { draw_scene(s); };
    };
    using test::expect_error;
    expect_error(with({1, 5}), ErrorCode::invalid_value, "two_side_colors[0]");
    expect_error(with({1, -1}), ErrorCode::invalid_value, "two_side_colors[0]");
    expect_error(with({3, 3}), ErrorCode::invalid_value, "same output");
    expect_error(with({1, 3}, {1, 0}), ErrorCode::invalid_value, "two_side_colors[1]");
}

} // namespace
