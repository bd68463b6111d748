// The unfilled stage: polygon mode line draws outlines, point mode corners, each face its own.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

// Polygon mode line draws a quad's outline, not its diagonal; point mode its corners; the
// back-face mode applies to clockwise quads only.
TEST(Stages, PolygonModeDrawsOutlinesAndCorners) {
    Scene s = one_triangle();
    s.prim = Prim::quads;
    s.indices = {0, 1, 2, 3};
    s.edge = {1, 1, 1, 1};
    s.colors = std::vector<float>(16, 1.0f);
    // Counter-clockwise, corners off pixel centres and boundaries.
    s.positions = {-0.48f, -0.46f, 0, 1, 0.52f,  -0.46f, 0, 1,
                   0.52f,  0.54f,  0, 1, -0.48f, 0.54f,  0, 1};
    auto image = [&](PolygonMode front, PolygonMode back) {
        s.raster.front_mode = front;
        s.raster.back_mode = back;
        return draw_scene(s);
    };
    auto lit = [](const RasterBackend& img) { return img.covered_pixels(); };
    const RasterBackend fill = image(PolygonMode::fill, PolygonMode::fill);
    const RasterBackend line = image(PolygonMode::line, PolygonMode::fill);
    const RasterBackend point = image(PolygonMode::point, PolygonMode::fill);
    EXPECT_NE(fill.pixel(16, 16), 0u);
    EXPECT_EQ(line.pixel(16, 16), 0u); // the diagonal passes here: not drawn
    EXPECT_GT(lit(line), 40u);         // the outline: four sides of about 16 pixels
    EXPECT_LT(lit(line), 80u);
    EXPECT_EQ(lit(point), 4u);
    // The back mode does not touch a front face.
    EXPECT_EQ(pixels(image(PolygonMode::fill, PolygonMode::line)), pixels(fill));
}
