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

namespace {

// Records the given varying's x on every vertex of every line and point that reaches it.
class FaceRecorder final : public Stage {
  public:
    explicit FaceRecorder(uint32_t varying) : slot_(kVertexHeaderDwords + 4 * varying) {}
    std::vector<float> faces;
    void point(const StagePrim& p) override { add(p, 1), next()->point(p); }
    void line(const StagePrim& p) override { add(p, 2), next()->line(p); }
    void triangle(const StagePrim& p) override { next()->triangle(p); }

  private:
    void add(const StagePrim& p, uint32_t n) {
        for (uint32_t i = 0; i < n; ++i) {
            faces.push_back(dword_float(p.v[i][slot_]));
            // Every component the same (Mesa writes all four).
            for (uint32_t c = 1; c < 4; ++c) EXPECT_EQ(p.v[i][slot_ + c], p.v[i][slot_]);
        }
    }
    uint32_t slot_;
};

} // namespace

// RasterState::front_face_varying: the lines and points polygon mode makes carry their
// triangle's facing (1 front, 0 back, 0 without area), on copies of the vertices, so that a
// vertex shared by a front and a back triangle carries each one's; without it the varying is
// what the shader wrote.
TEST(Stages, PolygonModeWritesEachTrianglesFacing) {
    Scene s = one_triangle();
    // A counter-clockwise triangle, a clockwise one sharing its edge 1-2, and one without
    // area (vertex 4 repeats vertex 0).
    s.positions = {-0.8f, -0.8f, 0,    1,    0.4f, -0.6f, 0,     1,     -0.2f, 0.7f,
                   0,     1,     0.8f, 0.6f, 0,    1,     -0.8f, -0.8f, 0,     1};
    s.indices = {0, 1, 2, 1, 2, 3, 0, 1, 4};
    s.edge = {1, 1, 1, 1, 1};
    s.colors = std::vector<float>(20, 1.0f);
    s.back = std::vector<float>(20, 0.5f);
    for (const PolygonMode mode : {PolygonMode::line, PolygonMode::point}) {
        s.raster.front_mode = s.raster.back_mode = mode;
        const uint32_t per = mode == PolygonMode::line ? 6 : 3; // vertices handed on a triangle
        Scene faced = s;
        faced.raster.front_face_varying = 3;
        FaceRecorder with(3), without(3);
        draw_scene(faced, {}, &with);
        draw_scene(s, {}, &without);
        ASSERT_EQ(with.faces.size(), 3 * per);
        for (uint32_t i = 0; i < 3 * per; ++i) {
            EXPECT_EQ(with.faces[i], i < per ? 1.0f : 0.0f) << i;
            EXPECT_EQ(without.faces[i], 0.5f) << i;
        }
    }
}
