// Small-primitive culling (drawpipe/extend/small_cull.hpp): a culled triangle covers no pixel
// centre, checked against llvmpipe's snapped coordinates and against drawpipe's rasterizer
// (the picture with and without the culled triangles); most tiny triangles are culled.
#include "support/stage_scene.hpp"

#include <drawpipe/extend/small_cull.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

namespace {

// llvmpipe's setup: x - 0.5 (the centre offset) in float, scaled to 1/256 and rounded.
int64_t snap(float v) {
    return std::lrint((v - 0.5f) * 256.0f);
}

// Whether the closed triangle, snapped as llvmpipe snaps it, holds the centre of a pixel: a
// superset of what any fill rule covers, degenerate triangles (a segment, a point) included.
bool covers_a_centre(const float a[2], const float b[2], const float c[2]) {
    const int64_t x[3] = {snap(a[0]), snap(b[0]), snap(c[0])};
    const int64_t y[3] = {snap(a[1]), snap(b[1]), snap(c[1])};
    const int64_t x0 = std::min({x[0], x[1], x[2]}), x1 = std::max({x[0], x[1], x[2]});
    const int64_t y0 = std::min({y[0], y[1], y[2]}), y1 = std::max({y[0], y[1], y[2]});
    // The centre of pixel (i, j) is (256 i, 256 j) after the offset.
    for (int64_t j = (y0 + 255) >> 8; j * 256 <= y1; ++j)
        for (int64_t i = (x0 + 255) >> 8; i * 256 <= x1; ++i) {
            int64_t e[3];
            for (int k = 0; k < 3; ++k) {
                const int n = (k + 1) % 3;
                e[k] = (x[n] - x[k]) * (j * 256 - y[k]) - (y[n] - y[k]) * (i * 256 - x[k]);
            }
            if ((e[0] >= 0 && e[1] >= 0 && e[2] >= 0) || (e[0] <= 0 && e[1] <= 0 && e[2] <= 0))
                return true;
        }
    return false;
}

// A triangle of at most `size` pixels across near a random point of [0, 32)^2, its corners on
// a 1/1024 grid so that many land on and next to pixel centres and the box's edges.
std::vector<float> tiny_triangle(std::mt19937& rng, float size) {
    std::uniform_real_distribution<float> at(0.0f, 32.0f), off(0.0f, size);
    const float cx = std::round(at(rng) * 1024.0f) / 1024.0f;
    const float cy = std::round(at(rng) * 1024.0f) / 1024.0f;
    std::vector<float> v;
    for (int k = 0; k < 3; ++k)
        for (float c : {cx, cy}) v.push_back(c + std::round(off(rng) * 1024.0f) / 1024.0f);
    return v;
}

} // namespace

TEST(SmallCull, ACulledTriangleHoldsNoCentreAfterLlvmpipesSnapping) {
    std::mt19937 rng(7);
    uint32_t culled = 0, tiny = 0;
    for (int n = 0; n < 200000; ++n) {
        const float size = n % 4 == 0 ? 4.0f : n % 4 == 1 ? 1.0f : 0.25f;
        const std::vector<float> t = tiny_triangle(rng, size);
        const bool cull = misses_pixel_centres(&t[0], &t[2], &t[4]);
        if (cull) {
            ASSERT_FALSE(covers_a_centre(&t[0], &t[2], &t[4]))
                << t[0] << "," << t[1] << " " << t[2] << "," << t[3] << " " << t[4] << "," << t[5];
        }
        tiny += size == 0.25f;
        culled += cull && size == 0.25f;
    }
    // Triangles of a quarter pixel: a centre lies in a box that small less than 1 time in 4.
    EXPECT_GT(culled, tiny * 6 / 10);
}

// The list's vectorised test (whole vectors of triangles, then one by one) holds to the same:
// 100,003 triangles drawn from 21,845 tiny ones (65,535 records of five floats), culled in
// place.
TEST(SmallCull, TheListDropsOnlyTrianglesThatHoldNoCentre) {
    std::mt19937 rng(9);
    const uint32_t shapes = 21845, triangles = 100003;
    std::vector<float> records;
    for (uint32_t i = 0; i < shapes; ++i) {
        const std::vector<float> tri = tiny_triangle(rng, i % 2 ? 0.25f : 1.0f);
        for (int k = 0; k < 3; ++k)
            records.insert(records.end(), {tri[2 * k], tri[2 * k + 1], 0.5f, 1, 7});
    }
    std::vector<uint16_t> elts;
    for (uint32_t t = 0; t < triangles; ++t) {
        const auto first = uint16_t(3 * (rng() % shapes));
        const uint16_t k = uint16_t(rng() % 3); // a rotation of its corners
        for (uint16_t j = 0; j < 3; ++j) elts.push_back(uint16_t(first + (j + k) % 3));
    }
    std::vector<uint16_t> out = elts;
    const uint32_t kept =
        cull_small_triangles(records.data(), 5, out.data(), triangles, out.data());
    uint32_t k = 0, small = 0, small_culled = 0;
    for (uint32_t t = 0; t < triangles; ++t) {
        const uint16_t* e = &elts[3 * t];
        const bool is_kept = k < kept && std::equal(e, e + 3, &out[3 * k]);
        const float* a = &records[5 * size_t(e[0])];
        const float* b = &records[5 * size_t(e[1])];
        const float* c = &records[5 * size_t(e[2])];
        // The vectors' verdict is the one-triangle test's, rounding included.
        ASSERT_EQ(is_kept, !misses_pixel_centres(a, b, c)) << "triangle " << t;
        if (is_kept)
            ++k;
        else
            ASSERT_FALSE(covers_a_centre(a, b, c)) << "triangle " << t;
        const bool quarter = (e[0] / 3) % 2 == 1;
        small += quarter, small_culled += quarter && !is_kept;
    }
    EXPECT_EQ(k, kept); // the kept ones, in order, and nothing else
    EXPECT_GT(small_culled, small * 6 / 10);
}

TEST(SmallCull, ATriangleTouchingACentreOrNearlySoIsKept) {
    // A vertex on the centre of pixel (3, 4).
    const float on[6] = {3.5f, 4.5f, 3.7f, 4.6f, 3.6f, 4.9f};
    EXPECT_FALSE(misses_pixel_centres(&on[0], &on[2], &on[4]));
    // The box's edge 1/1024 short of a centre: snapping may move it there.
    const float near[6] = {3.5f + 1.0f / 1024, 4.4f, 3.9f, 4.6f, 3.7f, 4.9f};
    EXPECT_FALSE(misses_pixel_centres(&near[0], &near[2], &near[4]));
    // A whole sixteenth short: certainly not.
    const float clear[6] = {3.5625f, 4.4f, 3.9f, 4.6f, 3.7f, 4.9f};
    EXPECT_TRUE(misses_pixel_centres(&clear[0], &clear[2], &clear[4]));
    // Between two centres in x, across several in y: nothing.
    const float thin[6] = {3.6f, 1.0f, 4.4f, 9.0f, 3.7f, 4.9f};
    EXPECT_TRUE(misses_pixel_centres(&thin[0], &thin[2], &thin[4]));
}

TEST(SmallCull, ANonFinitePositionIsKept) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const float bad : {nan, inf, -inf}) {
        // The other axis alone would cull these: a non-finite position is not trusted.
        const float t[6] = {bad, 4.6f, 3.7f, 4.6f, 3.6f, 4.9f};
        EXPECT_FALSE(misses_pixel_centres(&t[0], &t[2], &t[4])) << bad;
        const float u[6] = {3.6f, 4.6f, 3.7f, bad, 3.65f, 4.9f};
        EXPECT_FALSE(misses_pixel_centres(&u[0], &u[2], &u[4])) << bad;
        // The list's vectors too: 64 such triangles, each corner in turn the bad one.
        std::vector<float> records;
        std::vector<uint16_t> elts;
        for (uint16_t i = 0; i < 64 * 3; ++i) {
            const bool is_bad = i % 3 == (i / 3) % 3;
            records.insert(records.end(), {is_bad && i % 2 ? bad : 3.6f + float(i % 3) * 0.05f,
                                           is_bad && i % 2 == 0 ? bad : 4.6f, 0, 1});
            elts.push_back(i);
        }
        EXPECT_EQ(cull_small_triangles(records.data(), 4, elts.data(), 64, elts.data()), 64u)
            << bad;
    }
}

TEST(SmallCull, FarFromTheOriginTheMarginHolds) {
    // At 16000 pixels a float's step is 1/1024: the box still widens by the margin.
    const float t[6] = {16000.5f + 1.0f / 512, 7.4f, 16000.9f, 7.6f, 16000.7f, 7.9f};
    EXPECT_FALSE(misses_pixel_centres(&t[0], &t[2], &t[4]));
    const float u[6] = {16000.5f + 1.0f / 32, 7.4f, 16000.9f, 7.6f, 16000.7f, 7.9f};
    EXPECT_TRUE(misses_pixel_centres(&u[0], &u[2], &u[4]));
    // Past 16384 pixels every triangle is kept.
    const float v[6] = {16400.6f, 7.4f, 16400.9f, 7.6f, 16400.7f, 7.9f};
    EXPECT_FALSE(misses_pixel_centres(&v[0], &v[2], &v[4]));
}

TEST(SmallCull, TheListKeepsTheRestInOrderInPlace) {
    // Records of four floats (x, y, z, w); triangles 0 and 2 miss every centre.
    const std::vector<float> rec = {0.6f, 0.6f, 0, 1, 0.9f, 0.6f, 0, 1, 0.7f, 0.9f, 0, 1,
                                    0.0f, 0.0f, 0, 1, 3.0f, 0.0f, 0, 1, 0.0f, 3.0f, 0, 1};
    std::vector<uint16_t> elts = {0, 1, 2, 3, 4, 5, 2, 1, 0, 5, 4, 3};
    EXPECT_EQ(cull_small_triangles(rec.data(), 4, elts.data(), 4, elts.data()), 2u);
    EXPECT_EQ(std::vector<uint16_t>(elts.begin(), elts.begin() + 6),
              (std::vector<uint16_t>{3, 4, 5, 5, 4, 3}));
}

// drawpipe's rasterizer (llvmpipe's rules) draws the same picture without the culled
// triangles: random tiny and small triangles over a 32 x 32 image, each its own colour.
TEST(SmallCull, ThePictureIsTheSameWithoutTheCulledTriangles) {
    std::mt19937 rng(11);
    for (int round = 0; round < 20; ++round) {
        Scene s = one_triangle();
        s.indices.clear(), s.positions.clear(), s.colors.clear(), s.edge.clear();
        std::vector<float> window; // x, y per vertex
        for (uint32_t t = 0; t < 400; ++t) {
            const std::vector<float> tri = tiny_triangle(rng, t % 3 ? 0.5f : 2.0f);
            for (int k = 0; k < 3; ++k) {
                window.insert(window.end(), {tri[2 * k], tri[2 * k + 1]});
                // Window (x, y) back to clip space under the 32 x 32 viewport.
                s.positions.insert(s.positions.end(), {tri[2 * k] / 16.0f - 1.0f,
                                                       tri[2 * k + 1] / 16.0f - 1.0f, 0, 1});
                for (int c = 0; c < 3; ++c) s.colors.push_back(float(rng() % 255 + 1) / 255.0f);
                s.colors.push_back(1.0f);
                s.edge.push_back(1.0f);
                s.indices.push_back(3 * t + uint32_t(k));
            }
        }
        const std::vector<uint32_t> all = pixels(draw_scene(s));
        std::vector<uint16_t> elts(s.indices.begin(), s.indices.end());
        const uint32_t kept = cull_small_triangles(window.data(), 2, elts.data(), 400, elts.data());
        EXPECT_LT(kept, 300u); // two in three are half a pixel across
        EXPECT_GT(kept, 0u);
        s.indices.assign(elts.begin(), elts.begin() + 3 * kept);
        EXPECT_EQ(pixels(draw_scene(s)), all) << "round " << round;
        EXPECT_GT(lit_count(all), 0u);
    }
}
