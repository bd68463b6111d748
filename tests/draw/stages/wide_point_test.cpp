// Points: wide points cover their square, one-pixel points snap to the subpixel grid, a
// shader-written size is clamped, and point sprite coordinates run across the point.
#include "drawpipe/error.hpp"
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <limits>

using namespace drawpipe;
using namespace drawpipe::test;

// A point of size s covers the s x s pixel centres around it; on a tie (even sizes, the
// point on a pixel centre) the block lies up and right, as llvmpipe draws it.
TEST(Stages, WidePointsCoverTheirSquare) {
    Scene s = one_triangle();
    s.prim = Prim::points;
    s.indices = {0};
    const float c = 2 * 10.5f / 32 - 1; // window (10.5, 10.5): the centre of pixel (10, 10)
    s.positions = {c, c, 0, 1};
    for (const float size : {1.0f, 2.0f, 3.0f, 4.0f}) {
        s.raster.point_size = size;
        const RasterBackend img = draw_scene(s);
        const int n = int(size), lo = 10 - (n - 1) / 2;
        EXPECT_EQ(img.covered_pixels(), uint64_t(n * n)) << size;
        for (int y = lo; y < lo + n; ++y)
            for (int x = lo; x < lo + n; ++x)
                EXPECT_NE(img.pixel(uint32_t(x), uint32_t(y)), 0u) << size << " " << x << "," << y;
    }
}

// A one-pixel point is placed as llvmpipe places legacy GL points (lp_setup_point.c): its
// window position snapped to the 1/256 subpixel grid first. A point a hair below a pixel
// boundary, as clipping against a plane on that boundary can make one, lights the pixel
// above it; one well inside its pixel stays there.
TEST(Stages, OnePixelPointsAreSnappedToTheSubpixelGridFirst) {
    Scene s = one_triangle();
    s.prim = Prim::points;
    s.indices = {0, 1};
    // Window (10.5, 6 - 2^-20) and (20.5, 5.99).
    s.positions = {
        -0.34375f, (6.0f - std::ldexp(1.0f, -20)) / 16 - 1, 0, 1, 0.28125f, 5.99f / 16 - 1, 0, 1};
    const RasterBackend img = draw_scene(s);
    EXPECT_NE(img.pixel(10, 6), 0u);
    EXPECT_EQ(img.pixel(10, 5), 0u);
    EXPECT_NE(img.pixel(20, 5), 0u);
    EXPECT_EQ(img.pixel(20, 6), 0u);
}

// A point size the vertex shader writes is clamped like the state's.
TEST(Stages, AShaderWrittenPointSizeIsClampedToo) {
    auto picture = [](float size) {
        const float position[4] = {0.1f, 0.1f, 0, 1};
        const VertexBuffer vb{position, sizeof position, 16, 0};
        const VertexAttrib attrib{0, 0, Format::float32x4, 0};
        ShaderOutputs outputs;
        outputs.point_size = true;
        VertexShader vs{outputs, [size](const ShaderBlock& b) {
                            for (uint32_t l = 0; l < b.count; ++l) {
                                for (uint32_t c = 0; c < 4; ++c) b.out[c][l] = b.in[c][l];
                                b.out[4][l] = size; // the point size follows the position
                            }
                        }};
        RasterState raster;
        raster.viewport = {0, 0, 600, 600, 0, 1};
        RasterBackend image(600, 600);
        Context ctx;
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(image);
        ctx.set_vertex_buffers({&vb, 1});
        ctx.set_vertex_attribs({&attrib, 1});
        ctx.bind_vertex_shader(vs);
        ctx.set_raster_state(raster);
        DrawInfo d;
        d.prim = Prim::points;
        d.count = 1;
        ctx.draw(d);
        ctx.flush();
        return pixels(image);
    };
    const auto largest = picture(kMaxPointSize);
    EXPECT_EQ(lit_count(largest), 255u * 255u);
    EXPECT_EQ(picture(1e38f), largest);
    EXPECT_EQ(lit_count(picture(std::numeric_limits<float>::quiet_NaN())), 1u); // one pixel
}

// Point sprites: GL's s = 1/2 + (x_f + 1/2 - x_w) / size at each fragment, t the same upward
// under GL_LOWER_LEFT and downward under GL_UPPER_LEFT, written over the colour output here
// (as a fragment shader writing gl_PointCoord shows them); the square takes the triangle
// rule, unmoved, a one-pixel point too (llvmpipe's pictures for these, `mesa_render`).
TEST(Stages, PointSpriteCoordinatesRunAcrossThePoint) {
    Scene s = one_triangle();
    s.prim = Prim::points;
    s.indices = {0};
    auto channel = [](uint32_t pixel, int c) { return int((pixel >> (8 * c)) & 0xFF); };
    for (const bool lower_left : {false, true}) {
        s.raster.sprite_coord_varying = 1;
        s.raster.sprite_origin_lower_left = lower_left;
        // Size 4 at window (16, 16), a pixel corner: pixels 14-17 both ways.
        s.positions = {0, 0, 0, 1};
        s.raster.point_size = 4;
        const RasterBackend img = draw_scene(s);
        EXPECT_EQ(img.covered_pixels(), 16u) << lower_left;
        for (uint32_t y = 14; y < 18; ++y)
            for (uint32_t x = 14; x < 18; ++x) {
                const float sc = 0.5f + (float(x) + 0.5f - 16) / 4;
                const float up = 0.5f + (float(y) + 0.5f - 16) / 4;
                const float t = lower_left ? up : 1 - up;
                const uint32_t p = img.pixel(x, y);
                EXPECT_NEAR(channel(p, 0), 255 * sc, 1.0) << x << "," << y << " " << lower_left;
                EXPECT_NEAR(channel(p, 1), 255 * t, 1.0) << x << "," << y << " " << lower_left;
                EXPECT_EQ(channel(p, 2), 0);
                EXPECT_EQ(channel(p, 3), 255);
            }
        // Size 2 centred on pixel (16, 16)'s centre: edges through centres, the triangle rule
        // keeps the left and bottom ones (without sprites, the right and top ones).
        s.positions = {2 * 16.5f / 32 - 1, 2 * 16.5f / 32 - 1, 0, 1};
        s.raster.point_size = 2;
        const RasterBackend two = draw_scene(s);
        EXPECT_EQ(two.covered_pixels(), 4u);
        for (uint32_t y = 15; y < 17; ++y)
            for (uint32_t x = 15; x < 17; ++x) EXPECT_NE(two.pixel(x, y), 0u) << x << "," << y;
        // One pixel at window (16.2, 16.7): at its centre s = 0.8, t = 0.3 upward.
        s.positions = {2 * 16.2f / 32 - 1, 2 * 16.7f / 32 - 1, 0, 1};
        s.raster.point_size = 1;
        const RasterBackend one = draw_scene(s);
        EXPECT_EQ(one.covered_pixels(), 1u);
        const uint32_t p = one.pixel(16, 16);
        EXPECT_NEAR(channel(p, 0), 255 * 0.8f, 1.0);
        EXPECT_NEAR(channel(p, 1), 255 * (lower_left ? 0.3f : 0.7f), 1.0);
    }
    s.raster.sprite_coord_varying = 3; // not an output
    EXPECT_THROW(draw_scene(s), Error);
}
