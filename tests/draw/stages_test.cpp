// The pipeline stages (issue 15): primitive assembly's edge flags and stipple resets are
// the unsplit draw's at every limit, strategy and thread count; clipping keeps what is
// inside (w < 0, a triangle larger than the view, user planes); cull by winding; and the
// rendered image is the same whatever splits or shades the draw.
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/stage.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

constexpr uint32_t kRestart = 0xFFFFFFFFu;

// Records every primitive that reaches it: its kind, vertex ids and flags.
class Recorder final : public Stage {
  public:
    std::vector<std::string> log;
    void point(const StagePrim& p) override { add('P', p, 1), next()->point(p); }
    void line(const StagePrim& p) override { add('L', p, 2), next()->line(p); }
    void triangle(const StagePrim& p) override { add('T', p, 3), next()->triangle(p); }

  private:
    void add(char kind, const StagePrim& p, uint32_t n) {
        std::string s(1, kind);
        for (uint32_t i = 0; i < n; ++i) s += " " + std::to_string(p.v[i][SLOT_VERTEX_ID]);
        s += " f" + std::to_string(p.flags);
        log.push_back(std::move(s));
    }
};

struct Scene {
    Prim prim = Prim::triangles;
    Provoking pv = Provoking::last;
    std::vector<uint32_t> indices;
    std::vector<float> positions; // float4 per vertex
    std::vector<float> colors;    // float4 per vertex
    std::vector<float> edge;      // per vertex
    RasterState raster;
    uint32_t image = 32;        // width and height
    bool backend_lines = false; // the backend draws lines at raster.line_width (llvmpipe)
    bool depth_test = false;    // the backend's depth buffer (GL_LESS)
};

// Every vertex inside the view, random edge flags, restart runs.
Scene random_scene(std::mt19937& rng, Prim prim, uint32_t vertices) {
    Scene s;
    s.prim = prim;
    s.pv = rng() % 2 ? Provoking::first : Provoking::last;
    const uint32_t n = 6 + rng() % 40;
    for (uint32_t i = 0; i < n; ++i)
        s.indices.push_back(rng() % 9 == 0 ? kRestart : rng() % vertices);
    for (uint32_t v = 0; v < vertices; ++v) {
        for (int c = 0; c < 2; ++c) s.positions.push_back(float(int(rng() % 15) - 7) / 8.0f);
        s.positions.insert(s.positions.end(), {0.0f, 1.0f});
        for (int c = 0; c < 3; ++c) s.colors.push_back(float(rng() % 9) / 8.0f);
        s.colors.push_back(1.0f);
        s.edge.push_back(rng() % 3 ? 1.0f : 0.0f);
    }
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.raster.edge_flag_varying = 2;
    return s;
}

// One white triangle (positions set by the caller) over a 32 x 32 viewport.
Scene one_triangle() {
    Scene s;
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.edge = {1, 1, 1};
    s.colors = std::vector<float>(12, 1.0f);
    s.indices = {0, 1, 2};
    return s;
}

struct DrawRun {
    std::string middle = "fetch_shade";
    uint32_t limit = 0;
    Strategy strategy;
    uint32_t threads = 1;
};

// Draws the scene through a Context with `record` appended; returns the image.
RasterBackend draw(const Scene& s, const DrawRun& run, Stage* record) {
    const VertexBuffer buffers[3] = {{s.positions.data(), s.positions.size() * 4, 16, 0},
                                     {s.colors.data(), s.colors.size() * 4, 16, 0},
                                     {s.edge.data(), s.edge.size() * 4, 4, 0}};
    const VertexAttrib attribs[3] = {
        {0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 0}, {2, 0, Format::float32x1, 0}};
    DrawInfo d;
    d.prim = s.prim;
    d.provoking = s.pv;
    d.index_type = IndexType::u32;
    d.indices = s.indices.data();
    d.index_buffer_count = d.count = uint32_t(s.indices.size());
    d.primitive_restart = true;
    d.restart_index = kRestart;
    ContextOptions o;
    o.threads = run.threads;
    o.inline_below = 0; // the pipeline even for small draws, so threads really share them
    o.draw = {run.strategy, run.limit};
    Context ctx(o);
    RasterState raster = s.raster;
    if (s.backend_lines) raster.wide_line_threshold = 10000.0f;
    RasterBackend image(s.image, s.image,
                        {.colour_varying = 1,
                         .depth_test = s.depth_test,
                         .line_width = s.backend_lines ? s.raster.line_width : 1.0f});
    ctx.bind_middle_end(run.middle);
    ctx.bind_backend(image);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.set_raster_state(raster);
    if (record) ctx.add_stage(*record);
    ctx.draw(d);
    ctx.flush();
    return image;
}

std::vector<uint32_t> pixels(const RasterBackend& img) {
    std::vector<uint32_t> p;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x) p.push_back(img.pixel(x, y));
    return p;
}

} // namespace

// Edge flags and stipple resets come only from SplitFlags and each primitive's place in its
// run: a split draw hands the stages exactly the unsplit draw's primitives and flags.
TEST(Stages, AssemblyIsTheUnsplitDrawsAtEveryLimitStrategyAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(15);
    const Strategy strategies[] = {Strategy{}, *Strategy::parse("vsplit"),
                                   *Strategy::parse("exact"), *Strategy::parse("none")};
    for (int p = 0; p < test::kPrimsWithoutTess; ++p)
        for (int iter = 0; iter < 6; ++iter) {
            const Scene s = random_scene(rng, Prim(p), 12);
            Recorder whole;
            draw(s, {}, &whole);
            for (uint32_t limit = min_segment_vertices(Prim(p)); limit <= 12; ++limit) {
                Recorder split;
                const DrawRun run{"fetch_shade", limit, strategies[rng() % 4],
                                  uint32_t(1 + rng() % 2)};
                draw(s, run, &split);
                ASSERT_EQ(split.log, whole.log)
                    << prim_name(Prim(p)) << " limit " << limit << " " << run.strategy.name()
                    << " threads " << run.threads;
            }
        }
}

// Polygons and quads show only their outline in polygon mode line: the decomposition's
// interior edges never carry an edge flag, however the draw is split.
TEST(Stages, InteriorEdgesOfQuadsAndPolygonsAreNeverFlagged) {
    std::mt19937 rng(3);
    for (const Prim prim : {Prim::quads, Prim::polygon, Prim::quad_strip})
        for (const Provoking pv : {Provoking::first, Provoking::last}) {
            Scene s = random_scene(rng, prim, 8);
            s.pv = pv;
            s.indices = {0, 1, 2, 3, 4, 5, 6, 7};
            std::fill(s.edge.begin(), s.edge.end(), 1.0f);
            Recorder rec;
            draw(s, {"fetch_shade", 6, {}, 1}, &rec);
            // Count flagged edges: each GL primitive's boundary, once.
            uint32_t flagged = 0;
            for (const std::string& l : rec.log)
                flagged += uint32_t(__builtin_popcount(std::stoul(l.substr(l.find('f') + 1)) &
                                                       PRIM_EDGE_MASK)); // not the stipple bit
            const uint32_t want = prim == Prim::quads ? 8 : prim == Prim::polygon ? 8 : 3 * 4;
            EXPECT_EQ(flagged, want) << prim_name(prim);
        }
}

// A line strip's stipple pattern starts once per run, and continues across segments.
TEST(Stages, StippleResetsOncePerRunOfAStrip) {
    std::mt19937 rng(4);
    Scene s = random_scene(rng, Prim::line_strip, 10);
    s.indices = {0, 1, 2, 3, 4, 5, 6, 7, kRestart, 8, 9, 0};
    Recorder rec;
    draw(s, {"fetch_shade", 3, {}, 2}, &rec);
    uint32_t resets = 0;
    for (const std::string& l : rec.log) resets += l.back() == '8'; // PRIM_RESET_STIPPLE
    EXPECT_EQ(resets, 2u);
    EXPECT_EQ(rec.log.size(), 9u);
}

TEST(Stages, ClippingKeepsWhatIsInside) {
    Scene s = one_triangle();
    // Larger than the view on every side: every pixel.
    s.positions = {-50, -50, 0, 1, 50, -50, 0, 1, 0, 50, 0, 1};
    const size_t all = 32 * 32;
    auto lit = [&](const Scene& sc) {
        const auto p = pixels(draw(sc, {}, nullptr));
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

TEST(Stages, CullByWindowSpaceWinding) {
    Scene s = one_triangle();
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1}; // counter-clockwise
    auto drawn = [&](CullFace cull, FrontFace front) {
        s.raster.cull = cull;
        s.raster.front_face = front;
        const auto p = pixels(draw(s, {}, nullptr));
        return std::any_of(p.begin(), p.end(), [](uint32_t v) { return v != 0; });
    };
    EXPECT_TRUE(drawn(CullFace::none, FrontFace::ccw));
    EXPECT_FALSE(drawn(CullFace::front, FrontFace::ccw));
    EXPECT_TRUE(drawn(CullFace::back, FrontFace::ccw));
    EXPECT_TRUE(drawn(CullFace::front, FrontFace::cw));
    EXPECT_FALSE(drawn(CullFace::back, FrontFace::cw));
    EXPECT_FALSE(drawn(CullFace::front_and_back, FrontFace::ccw));
}

// The picture is the draw's, not the split's: every limit, strategy, middle end and thread
// count renders the same pixels, with clipping, culling and flat shading in play.
TEST(Stages, ImageIsTheSameForEveryLimitStrategyMiddleEndAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(21);
    const char* middles[] = {"fetch_shade", "fetch_shade_simd", "a4xx", "gen7", "mali"};
    for (int p = 0; p < test::kPrimsWithoutTess; ++p)
        for (int iter = 0; iter < 3; ++iter) {
            Scene s = random_scene(rng, Prim(p), 14);
            for (size_t v = 0; v < s.positions.size(); v += 4)
                if (rng() % 4 == 0) s.positions[v] *= 3; // some outside: clipped
            s.raster.flatshade = rng() % 2;
            s.raster.cull = rng() % 3 ? CullFace::none : CullFace::back;
            const auto want = pixels(draw(s, {}, nullptr));
            for (int k = 0; k < 6; ++k) {
                const DrawRun run{
                    middles[rng() % 5], uint32_t(min_segment_vertices(Prim(p)) + rng() % 6),
                    *Strategy::parse(rng() % 2 ? "vsplit" : "distinct"), uint32_t(1 + rng() % 2)};
                ASSERT_EQ(pixels(draw(s, run, nullptr)), want)
                    << prim_name(Prim(p)) << " " << run.middle << " limit " << run.limit;
            }
        }
}

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
        return draw(s, {}, nullptr);
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
        const RasterBackend img = draw(s, {}, nullptr);
        const int n = int(size), lo = 10 - (n - 1) / 2;
        EXPECT_EQ(img.covered_pixels(), uint64_t(n * n)) << size;
        for (int y = lo; y < lo + n; ++y)
            for (int x = lo; x < lo + n; ++x)
                EXPECT_NE(img.pixel(uint32_t(x), uint32_t(y)), 0u) << size << " " << x << "," << y;
    }
}

// A wide line is the thin line's pixels repeated `width` rows across its minor axis.
TEST(Stages, WideLinesRepeatTheThinLineAcross) {
    Scene s = one_triangle();
    s.prim = Prim::lines;
    s.indices = {0, 1};
    // x-major, ends off pixel centres and boundaries: window (8.3, 8.6) to (24.3, 12.6).
    s.positions = {-0.48125f, -0.4625f, 0, 1, 0.51875f, -0.2125f, 0, 1};
    const auto thin = pixels(draw(s, {}, nullptr));
    for (const float width : {2.0f, 3.0f}) {
        s.raster.line_width = width;
        const auto wide = pixels(draw(s, {}, nullptr));
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
    const RasterBackend img = draw(s, {}, nullptr);
    for (uint32_t x = 4; x < 20; ++x) EXPECT_EQ(img.pixel(x, 10) != 0, x - 4 < 8) << x;
}

// Polygon offset moves a filled triangle's window depth by factor * its depth slope plus
// units * the float depth buffer's step at its largest depth; a line-mode triangle only with
// offset_line.
TEST(Stages, PolygonOffsetMovesDepthBySlopeAndUnits) {
    class Depths final : public Stage {
      public:
        std::vector<float> z;
        void point(const StagePrim& p) override { next()->point(p); }
        void line(const StagePrim& p) override {
            for (int i = 0; i < 2; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->line(p);
        }
        void triangle(const StagePrim& p) override {
            for (int i = 0; i < 3; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->triangle(p);
        }
    };
    Scene s = one_triangle();
    // Window x 8..24 and y 8..24; z (ndc) 0 -> 0.5 along x: window depth 0.5 -> 0.75, slope
    // 0.25 / 16 pixels; the largest depth 0.75 has exponent -1, so r = 2^-24.
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0.5f, 1, -0.5f, 0.5f, 0, 1};
    s.raster.offset_factor = 2;
    s.raster.offset_units = 3;
    const float want = 2 * (0.25f / 16) + 3 * std::ldexp(1.0f, -24);
    Depths plain, offset, line_only;
    draw(s, {}, &plain);
    s.raster.offset_fill = true;
    draw(s, {}, &offset);
    ASSERT_EQ(plain.z.size(), 3u);
    ASSERT_EQ(offset.z.size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(offset.z[i] - plain.z[i], want) << i;
    // Polygon mode line: offset_fill does not apply, offset_line does.
    s.raster.front_mode = PolygonMode::line;
    draw(s, {}, &line_only);
    for (size_t i = 0; i < line_only.z.size(); ++i)
        EXPECT_TRUE(line_only.z[i] == 0.5f || line_only.z[i] == 0.75f) << line_only.z[i];
}

namespace {

// The lit pixels of an image, as (x, y) pairs.
std::set<std::pair<uint32_t, uint32_t>> lit_pixels(const RasterBackend& img) {
    std::set<std::pair<uint32_t, uint32_t>> lit;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != 0) lit.insert({x, y});
    return lit;
}

Scene one_line(std::vector<float> positions) {
    Scene s = one_triangle();
    s.prim = Prim::lines;
    s.indices = {0, 1};
    s.positions = std::move(positions);
    return s;
}

} // namespace

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
    const auto got = lit_pixels(draw(clipped, {}, nullptr));
    std::set<std::pair<uint32_t, uint32_t>> want;
    for (const auto& p : lit_pixels(draw(whole, {}, nullptr)))
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
    const auto got = lit_pixels(draw(behind, {}, nullptr));
    EXPECT_EQ(got, lit_pixels(draw(by_hand, {}, nullptr)));
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
    EXPECT_TRUE(lit_pixels(draw(s, {}, nullptr)).empty());
    // Window x 8.5: inside; the 5 x 5 square spans x 6 to 10.
    s.positions = {-0.9375f, 0.0625f, 0, 1};
    const auto lit = lit_pixels(draw(s, {}, nullptr));
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
    const auto lit = lit_pixels(draw(s, {}, nullptr));
    const std::set<std::pair<uint32_t, uint32_t>> want = {
        {7, 10},  {8, 10},  {9, 10},  {10, 10}, {7, 11},  {8, 11},  {9, 11},  {10, 11}, {8, 12},
        {9, 12},  {10, 12}, {11, 12}, {9, 13},  {10, 13}, {11, 13}, {12, 13}, {9, 14},  {10, 14},
        {11, 14}, {12, 14}, {10, 15}, {11, 15}, {12, 15}, {13, 15}, {11, 16}, {12, 16}, {13, 16},
        {14, 16}, {12, 17}, {13, 17}, {14, 17}, {15, 17}, {12, 18}, {13, 18}, {14, 18}, {15, 18},
        {13, 19}, {14, 19}, {15, 19}, {16, 19}, {14, 20}, {15, 20}, {16, 20}, {17, 20}, {14, 21},
        {15, 21}, {16, 21}, {17, 21}, {15, 22}, {16, 22}, {17, 22}, {18, 22}};
    EXPECT_EQ(lit, want);
}

// llvmpipe's wide lines: a parallelogram `width` pixels tall on an x-major line (every column
// the same height), its ends where the thin line's diamond-exit test puts them.
TEST(Stages, BackendWideLinesAreParallelogramsAsInLlvmpipe) {
    // x-major, ends off pixel centres and boundaries: window (8.3, 8.6) to (24.3, 12.6).
    Scene s = one_line({-0.48125f, -0.4625f, 0, 1, 0.51875f, -0.2125f, 0, 1});
    s.backend_lines = true;
    const auto thin = lit_pixels(draw(s, {}, nullptr));
    for (const float width : {1.0f, 2.0f, 3.0f, 4.0f}) {
        s.raster.line_width = width;
        std::map<uint32_t, uint32_t> column;
        for (const auto& p : lit_pixels(draw(s, {}, nullptr))) ++column[p.first];
        EXPECT_EQ(column.size(), 16u) << width; // columns 9 to 24, as the thin line's
        EXPECT_EQ(column.begin()->first, thin.begin()->first) << width;
        for (const auto& [x, n] : column) EXPECT_EQ(n, uint32_t(width)) << width << " " << x;
    }
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
        EXPECT_EQ(lit_pixels(draw(s, {}, nullptr)).size(), 16u);
        s.raster.cull = CullFace::back;
        EXPECT_TRUE(lit_pixels(draw(s, {}, nullptr)).empty());
    }
}

// Quad strips, as Mesa 22.3's llvmpipe draws them: a restart run with no vertex outside goes
// to llvmpipe whole, which draws each quad a, b, c, d as (a, b, d) then (c, a, d) (provoking
// first: (d, a, b) then (d, c, a)); a run with a vertex outside anywhere goes through the
// draw pipeline, which draws (c, a, d) then (a, b, d) (provoking first: (d, c, a) then
// (d, a, b)). The order shows where a twisted quad's two triangles overlap. The whole run
// decides, however the draw is split.
TEST(Stages, QuadStripRunsTakeTheDriversOrderUnlessAVertexOfTheRunIsOutside) {
    register_builtin_middle_ends();
    Scene strip = one_triangle();
    strip.prim = Prim::quad_strip;
    // a, b, c, d: (a, b, d) covers the lower right half of a square, (c, a, d) lies inside
    // it. Then a second quad c, d, e, f with e outside the view (x > w).
    strip.positions = {-0.75f, -0.75f, 0, 1, 0.75f, -0.75f, 0, 1, 0.25f,  -0.5f, 0, 1,
                       0.75f,  0.75f,  0, 1, 2.0f,  0.875f, 0, 1, 0.875f, 1.0f,  0, 1};
    strip.colors = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1};
    strip.edge = std::vector<float>(6, 1.0f);
    struct Case {
        std::vector<uint32_t> strip;
        std::vector<uint32_t> last, first; // the triangles drawn, provoking last / first
    };
    const Case cases[] = {
        // Nothing outside: the driver's order.
        {{0, 1, 2, 3}, {0, 1, 3, 2, 0, 3}, {3, 0, 1, 3, 2, 0}},
        // A vertex outside in the run's second quad: the pipeline's order for both quads.
        {{0, 1, 2, 3, 4, 5},
         {2, 0, 3, 0, 1, 3, 4, 2, 5, 2, 3, 5},
         {3, 2, 0, 3, 0, 1, 5, 4, 2, 5, 2, 3}},
        // The same quads in two runs: only the second run has a vertex outside.
        {{0, 1, 2, 3, kRestart, 2, 3, 4, 5},
         {0, 1, 3, 2, 0, 3, 4, 2, 5, 2, 3, 5},
         {3, 0, 1, 3, 2, 0, 5, 4, 2, 5, 2, 3}},
    };
    for (const Case& c : cases)
        for (const Provoking pv : {Provoking::last, Provoking::first})
            for (const bool staged : {false, true}) {
                Scene s = strip;
                s.pv = pv;
                s.indices = c.strip;
                // Through drawpipe's stages (an offset stage that moves nothing), which
                // llvmpipe does itself for filled triangles: the order does not change.
                s.raster.offset_fill = staged;
                Scene tris = s;
                tris.prim = Prim::triangles;
                tris.indices = pv == Provoking::last ? c.last : c.first;
                const auto want = pixels(draw(tris, {}, nullptr));
                for (const uint32_t limit : {0u, 6u, 7u, 8u})
                    for (const char* strategy : {"vsplit", "distinct"})
                        EXPECT_EQ(pixels(draw(s,
                                              {"fetch_shade", limit, *Strategy::parse(strategy),
                                               limit % 2 + 1},
                                              nullptr)),
                                  want)
                            << c.strip.size() << " indices, provoking "
                            << (pv == Provoking::last ? "last" : "first") << ", limit " << limit
                            << " " << strategy << (staged ? ", through the stages" : "");
            }
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
    draw(s, {}, &rec);
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
    const RasterBackend img = draw(s, {}, nullptr);
    EXPECT_NE(img.pixel(13, 19), 0u);
    EXPECT_EQ(img.pixel(12, 19), 0u);
}

// Polygon offset clamps each vertex's depth to [0, 1] where Mesa's draw module applies it
// (draw_pipe_offset.c), which llvmpipe leaves it to only while the draw module runs its
// pipeline anyway: polygon mode line or point on some face, or line stipple. Otherwise
// llvmpipe offsets filled triangles itself, with no clamp per vertex.
TEST(Stages, PolygonOffsetSaturatesVertexDepthsWhereMesasDrawModuleAppliesIt) {
    class Depths final : public Stage {
      public:
        std::vector<float> z;
        void point(const StagePrim& p) override { next()->point(p); }
        void line(const StagePrim& p) override { next()->line(p); }
        void triangle(const StagePrim& p) override {
            for (int i = 0; i < 3; ++i) z.push_back(dword_float(p.v[i][SLOT_POSITION + 2]));
            next()->triangle(p);
        }
    };
    Scene s = one_triangle();
    // A front face with window depths 0.9, 0.2, 0.2; the largest has exponent -1, so
    // r = 2^-24, and 2^22 units move every depth by 0.25.
    s.positions = {-0.5f, -0.5f, 0.8f, 1, 0.5f, -0.5f, -0.6f, 1, 0, 0.5f, -0.6f, 1};
    s.raster.offset_fill = s.raster.offset_line = s.raster.offset_point = true;
    s.raster.offset_units = std::ldexp(1.0f, 22);
    for (const int variant : {0, 1, 2}) {
        s.raster.back_mode = variant == 1 ? PolygonMode::line : PolygonMode::fill;
        s.raster.line_stipple = variant == 2;
        Depths d;
        draw(s, {}, &d);
        ASSERT_EQ(d.z.size(), 3u) << variant;
        EXPECT_FLOAT_EQ(d.z[0], variant == 0 ? 1.15f : 1.0f) << variant;
        EXPECT_FLOAT_EQ(d.z[1], 0.45f) << variant;
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
    const RasterBackend img = draw(s, {}, nullptr);
    EXPECT_NE(img.pixel(10, 6), 0u);
    EXPECT_EQ(img.pixel(10, 5), 0u);
    EXPECT_NE(img.pixel(20, 5), 0u);
    EXPECT_EQ(img.pixel(20, 6), 0u);
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
    const RasterBackend img = draw(s, {}, nullptr);
    for (const auto& [x, y] : std::vector<std::pair<uint32_t, uint32_t>>{{12, 7}, {17, 4}})
        EXPECT_NE(img.pixel(x, y), 0u) << x << " " << y;
    for (const auto& [x, y] :
         std::vector<std::pair<uint32_t, uint32_t>>{{14, 13}, {15, 5}, {21, 3}, {29, 0}})
        EXPECT_EQ(img.pixel(x, y), 0u) << x << " " << y;
}

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
        DrawRun run;
        run.middle = middle;
        draw(s, run, &rec);
        ASSERT_EQ(rec.y.size(), 1u) << middle;
        EXPECT_EQ(rec.y[0], fused) << middle;
    }
}

// A stipple run that reaches a line's end keeps that end's vertex, as Mesa's emit_segment
// does (it interpolates only ends strictly inside the line): a + 1 * (b - a) need not be b,
// and a window coordinate one ulp off can add or drop the line's last pixel.
TEST(Stages, StippleRunsEndOnTheLinesOwnVertices) {
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
        draw(s, {}, &plain);
        s.raster.line_stipple = true; // every bit on: one run, the whole line
        draw(s, {}, &stippled);
        ASSERT_EQ(plain.x.size(), 2u);
        const volatile float a = plain.x[0], b = plain.x[1], d = b - a;
        telling += a + 1.0f * d != b;
        EXPECT_EQ(stippled.x, plain.x) << k;
    }
    EXPECT_GT(telling, 0); // some of the lines tell the two apart
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
    const RasterBackend img = draw(s, {}, nullptr);
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
    const RasterBackend img = draw(s, {}, nullptr);
    EXPECT_NEAR(img.depth(9, 9), 0.51625f, 1e-5f);
}

// GL limits fragment depths to [0, 1] by clamping after the polygon offset is added (llvmpipe
// does the same): a filled triangle offset below 0 writes depth 0, and a later triangle at
// depth 0 then fails the `less` test against it.
TEST(Stages, FragmentDepthIsClampedAfterPolygonOffset) {
    Scene s = one_triangle();
    // Window depth 0.2 everywhere: exponent -2, so r = 2^-26, and -2^25 units move it by -0.5.
    s.positions = {-0.5f, -0.5f, -0.6f, 1, 0.5f, -0.5f, -0.6f, 1, 0, 0.5f, -0.6f, 1};
    s.raster.offset_fill = true;
    s.raster.offset_units = -std::ldexp(1.0f, 25);
    s.depth_test = true;
    const RasterBackend img = draw(s, {}, nullptr);
    ASSERT_NE(img.pixel(16, 12), 0u);
    EXPECT_EQ(img.depth(16, 12), 0.0f);
}

namespace {

uint64_t lit_count(const std::vector<uint32_t>& p) {
    return uint64_t(std::count_if(p.begin(), p.end(), [](uint32_t x) { return x != 0; }));
}

// A 600 x 600 image, big enough for the widest line and the largest point.
Scene big_scene(Prim prim, std::vector<float> positions) {
    Scene s = one_triangle();
    s.image = 600;
    s.raster.viewport = {0, 0, 600, 600, 0, 1};
    s.prim = prim;
    s.indices.resize(positions.size() / 4);
    for (uint32_t i = 0; i < s.indices.size(); ++i) s.indices[i] = i;
    s.positions = std::move(positions);
    return s;
}

} // namespace

// GL clamps line widths and point sizes to the implementation's range, llvmpipe's 255
// (limits.hpp; llvmpipe draws exactly these pictures for widths and sizes of 255 and 300):
// wider lines and larger points draw the 255 picture, whether the wide-line stage or the
// backend draws the line, and a width of 1e30 neither hangs nor loses the line.
TEST(Stages, LineWidthsAndPointSizesAreClampedToTheImplementationsRange) {
    Scene line = big_scene(Prim::lines, {-0.5f, 0.1f, 0, 1, 0.5f, 0.1f, 0, 1});
    for (const bool backend : {false, true}) {
        line.backend_lines = backend;
        line.raster.line_width = kMaxLineWidth;
        const auto widest = pixels(draw(line, {}, nullptr));
        EXPECT_EQ(lit_count(widest), 300u * 255u) << backend; // 300 pixels long
        for (const float width : {256.0f, 300.0f, 1e9f, 1e30f}) {
            line.raster.line_width = width;
            EXPECT_EQ(pixels(draw(line, {}, nullptr)), widest) << backend << " " << width;
        }
    }
    // Polygon mode line: every edge of the triangle at the clamped width.
    Scene outline =
        big_scene(Prim::triangles, {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1});
    outline.raster.front_mode = outline.raster.back_mode = PolygonMode::line;
    outline.raster.line_width = kMaxLineWidth;
    const auto outline_widest = pixels(draw(outline, {}, nullptr));
    outline.raster.line_width = 1e9f;
    EXPECT_EQ(pixels(draw(outline, {}, nullptr)), outline_widest);

    Scene point = big_scene(Prim::points, {0.1f, 0.1f, 0, 1});
    point.raster.point_size = kMaxPointSize;
    const auto largest = pixels(draw(point, {}, nullptr));
    EXPECT_EQ(lit_count(largest), 255u * 255u);
    for (const float size : {256.0f, 1e38f}) {
        point.raster.point_size = size;
        EXPECT_EQ(pixels(draw(point, {}, nullptr)), largest) << size;
    }
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

// GL clamps the viewport's size to GL_MAX_VIEWPORT_DIMS and its corner to
// GL_VIEWPORT_BOUNDS_RANGE (llvmpipe: 16384, and a viewport 40000 wide from -20000 draws
// nothing in a 64-pixel image while one 18000 wide from -9000 covers it).
TEST(Stages, TheViewportIsClampedToTheImplementationsRange) {
    Scene s = big_scene(Prim::triangles, {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1});
    s.image = 64;
    s.indices = {0, 1, 2, 2, 1, 3};
    auto lit = [&](Viewport v) {
        s.raster.viewport = v;
        return lit_count(pixels(draw(s, {}, nullptr)));
    };
    EXPECT_EQ(lit({-20000, -20000, 40000, 40000, 0, 1}), 0u);
    EXPECT_EQ(lit({-9000, -9000, 18000, 18000, 0, 1}), 64u * 64u);
    EXPECT_EQ(lit({0, 0, 1e38f, 1e38f, 0, 1}), 64u * 64u);
    // The corner at -32768: 16384 wide from there ends far left of the image.
    EXPECT_EQ(lit({-1e30f, 0, 16384, 64, 0, 1}), 0u);
    EXPECT_EQ(lit({-32768 - 100, 0, 16384 * 2 + 100 + 64, 64, 0, 1}), 0u);
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
        const RasterBackend img = draw(s, {}, nullptr);
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
        const RasterBackend two = draw(s, {}, nullptr);
        EXPECT_EQ(two.covered_pixels(), 4u);
        for (uint32_t y = 15; y < 17; ++y)
            for (uint32_t x = 15; x < 17; ++x) EXPECT_NE(two.pixel(x, y), 0u) << x << "," << y;
        // One pixel at window (16.2, 16.7): at its centre s = 0.8, t = 0.3 upward.
        s.positions = {2 * 16.2f / 32 - 1, 2 * 16.7f / 32 - 1, 0, 1};
        s.raster.point_size = 1;
        const RasterBackend one = draw(s, {}, nullptr);
        EXPECT_EQ(one.covered_pixels(), 1u);
        const uint32_t p = one.pixel(16, 16);
        EXPECT_NEAR(channel(p, 0), 255 * 0.8f, 1.0);
        EXPECT_NEAR(channel(p, 1), 255 * (lower_left ? 0.3f : 0.7f), 1.0);
    }
    s.raster.sprite_coord_varying = 3; // not an output
    EXPECT_THROW(draw(s, {}, nullptr), Error);
}

// A raster state outside GL's domain is an Error(invalid_value) naming the field, never a
// picture drawn from it.
TEST(Stages, BadRasterStatesAreClearErrors) {
    const Scene good = one_triangle();
    ASSERT_NO_THROW(draw(good, {}, nullptr));
    auto error_of = [&](auto&& spoil) -> std::string {
        Scene s = good;
        spoil(s.raster);
        try {
            draw(s, {}, nullptr);
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::invalid_value);
            return e.what();
        }
        return "no error";
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto names = [&](const std::string& field, auto&& spoil) {
        EXPECT_NE(error_of(spoil).find(field), std::string::npos) << field;
    };
    names("viewport", [](RasterState& r) { r.viewport.width = -1; });
    names("viewport", [&](RasterState& r) { r.viewport.height = nan; });
    names("line_width", [&](RasterState& r) { r.line_width = nan; });
    names("line_width", [](RasterState& r) { r.line_width = 0; });
    names("point_size", [](RasterState& r) { r.point_size = -1; });
    names("stipple_factor", [](RasterState& r) { r.stipple_factor = 0; });
    names("stipple_factor", [](RasterState& r) { r.stipple_factor = 257; });
    names("clip_plane_enable", [](RasterState& r) { r.clip_plane_enable = 1u << 8; });
    names("edge_flag_varying", [](RasterState& r) { r.edge_flag_varying = 3; });
    names("sprite_coord_varying", [](RasterState& r) { r.sprite_coord_varying = 7; });
    names("front_face", [](RasterState& r) { r.front_face = FrontFace(2); });
    names("cull", [](RasterState& r) { r.cull = CullFace(9); });
    names("front_mode", [](RasterState& r) { r.front_mode = PolygonMode(3); });
    names("back_mode", [](RasterState& r) { r.back_mode = PolygonMode(200); });
}
