// The cull stage: faces by window-space winding, and a triangle without area as a back face.
#include "support/stage_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace drawpipe;
using namespace drawpipe::test;

TEST(Stages, CullByWindowSpaceWinding) {
    Scene s = one_triangle();
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1}; // counter-clockwise
    auto drawn = [&](CullFace cull, FrontFace front) {
        s.raster.cull = cull;
        s.raster.front_face = front;
        const auto p = pixels(draw_scene(s));
        return std::any_of(p.begin(), p.end(), [](uint32_t v) { return v != 0; });
    };
    EXPECT_TRUE(drawn(CullFace::none, FrontFace::ccw));
    EXPECT_FALSE(drawn(CullFace::front, FrontFace::ccw));
    EXPECT_TRUE(drawn(CullFace::back, FrontFace::ccw));
    EXPECT_TRUE(drawn(CullFace::front, FrontFace::cw));
    EXPECT_FALSE(drawn(CullFace::back, FrontFace::cw));
    EXPECT_FALSE(drawn(CullFace::front_and_back, FrontFace::ccw));
}

// Culling a triangle without area: llvmpipe culls it as a back face whatever the winding, so
// in polygon mode line its edges still show under cull front, and not under cull back.
TEST(Stages, ATriangleWithoutAreaIsCulledAsABackFace) {
    Scene s = one_triangle();
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, 0.5f, 0, 1, 0.5f, 0.5f, 0, 1};
    s.raster.front_mode = s.raster.back_mode = PolygonMode::line;
    for (const FrontFace face : {FrontFace::ccw, FrontFace::cw}) {
        s.raster.front_face = face;
        s.raster.cull = CullFace::front;
        EXPECT_EQ(lit_pixels(draw_scene(s)).size(), 16u);
        s.raster.cull = CullFace::back;
        EXPECT_TRUE(lit_pixels(draw_scene(s)).empty());
    }
}
