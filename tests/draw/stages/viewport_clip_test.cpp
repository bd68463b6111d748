// Viewport arrays, depth clamp and clip control (issue 30): the provoking vertex's viewport
// index places the whole primitive, clipped pieces included; an index past the viewports
// takes viewport 0; upper_left flips y and keeps facing; zero_to_one clips at z = 0 and maps
// depth without halving; depth clamp clips nothing in z and the backend clamps depth to the
// primitive's range; the layer reaches the backend; splitting changes none of it.
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/stage.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/middle_ends.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

constexpr uint32_t kImage = 32;

// Passes every vertex of its input on as one strip (position and colour), with
// gl_ViewportIndex = uint(colour alpha) of that vertex and gl_Layer = 5.
GeometryShader strip_gs(Prim input) {
    GeometryShader gs;
    gs.name = "viewport_from_alpha";
    gs.input = input;
    gs.output = Prim::triangle_strip;
    gs.max_vertices = input == Prim::lines_adjacency ? 4 : 3;
    gs.input_varyings = 2;
    gs.outputs.add_varying();
    gs.outputs.viewport_index = true;
    gs.outputs.layer = true;
    gs.main = [](GsContext& ctx) {
        for (uint32_t i = 0; i < ctx.vertex_count(); ++i) {
            GsOutput o{.id = i, .layer = 5};
            for (uint32_t c = 0; c < 4; ++c) {
                o.position[c] = dword_float(ctx.load(i, SLOT_POSITION + c));
                o.varyings[0][c] = ctx.varying(i, 1, c);
            }
            o.viewport = uint32_t(dword_float(o.varyings[0][3]));
            o.varyings[0][3] = float_dword(1.0f);
            ctx.emit_vertex(o);
        }
        ctx.end_primitive();
    };
    return gs;
}

// Records each triangle's and point's window positions.
class Positions final : public Stage {
  public:
    void line(const StagePrim& p) override { next()->line(p); }
    std::vector<std::array<std::array<float, 3>, 3>> tris;
    std::vector<std::array<float, 3>> points;
    void triangle(const StagePrim& p) override {
        std::array<std::array<float, 3>, 3> t{};
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t c = 0; c < 3; ++c) t[i][c] = dword_float(p.v[i][SLOT_POSITION + c]);
        tris.push_back(t);
        next()->triangle(p);
    }
    void point(const StagePrim& p) override {
        points.push_back({dword_float(p.v[0][SLOT_POSITION]),
                          dword_float(p.v[0][SLOT_POSITION + 1]),
                          dword_float(p.v[0][SLOT_POSITION + 2])});
        next()->point(p);
    }
};

// The layer of every vertex the backend's elements name.
class LayerBackend final : public Backend {
  public:
    std::vector<uint32_t> layers;
    uint32_t slot = 0;
    void begin_draw(const DrawInfo&, const VertexLayout& layout) override {
        slot = layout.outputs.layer ? layout.layer_slot() : 0;
    }
    void draw_elements(Prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        for (const uint32_t e : elts) layers.push_back(v.vertex(e)[slot]);
    }
};

struct Scene {
    Prim prim = Prim::triangles;
    Provoking pv = Provoking::last;
    std::vector<float> positions; // float4 per vertex
    std::vector<float> colors;    // float4 per vertex (alpha: the GS's viewport index)
    RasterState raster;
    const GeometryShader* gs = nullptr;
    bool depth_test = false;
};

// What draws it: the middle end, segment limit, strategy and threads.
struct DrawSetup {
    std::string middle = "fetch_shade";
    uint32_t limit = 0;
    uint32_t threads = 1;
    std::string strategy = "distinct";
};

RasterOptions options_for(const Scene& s) {
    RasterOptions o{.colour_varying = s.gs ? 0 : 1, .depth_test = s.depth_test};
    o.depth_clamp = s.raster.depth_clamp;
    o.top_edge_rule = s.raster.clip_origin == ClipOrigin::upper_left;
    for (uint32_t i = 0; i < kMaxViewports; ++i)
        o.depth_ranges[i] = {s.raster.viewport_at(i).near, s.raster.viewport_at(i).far};
    return o;
}

void run_draw(const Scene& s, Backend& backend, Stage* record, const DrawSetup& setup = {}) {
    std::vector<float> colors = s.colors;
    colors.resize(s.positions.size(), 1.0f);
    const VertexBuffer buffers[2] = {{s.positions.data(), s.positions.size() * 4, 16, 0},
                                     {colors.data(), colors.size() * 4, 16, 0}};
    const VertexAttrib attribs[2] = {{0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 0}};
    DrawInfo d;
    d.prim = s.prim;
    d.provoking = s.pv;
    d.count = uint32_t(s.positions.size() / 4);
    ContextOptions o;
    o.threads = setup.threads;
    o.inline_below = 0;
    o.draw = {*Strategy::parse(setup.strategy), setup.limit};
    Context ctx(o);
    ctx.bind_middle_end(setup.middle);
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.bind_geometry_shader(s.gs);
    ctx.set_raster_state(s.raster);
    if (record) ctx.add_stage(*record);
    ctx.draw(d);
    ctx.flush();
}

RasterBackend render(const Scene& s, Stage* record = nullptr, const DrawSetup& setup = {}) {
    RasterBackend image(kImage, kImage, options_for(s));
    run_draw(s, image, record, setup);
    return image;
}

std::vector<uint32_t> pixels(const RasterBackend& img) {
    std::vector<uint32_t> p;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x) p.push_back(img.pixel(x, y));
    return p;
}

uint32_t lit(const RasterBackend& img) {
    return uint32_t(img.covered_pixels());
}

// Four 16 x 16 viewports, one per quadrant: 0 bottom left, 1 bottom right, 2 top left, 3 top
// right.
RasterState quadrants() {
    RasterState r;
    r.viewport = {0, 0, 16, 16, 0, 1};
    r.viewport_count = 4;
    r.extra_viewports[0] = {16, 0, 16, 16, 0, 1};
    r.extra_viewports[1] = {0, 16, 16, 16, 0, 1};
    r.extra_viewports[2] = {16, 16, 16, 16, 0, 1};
    return r;
}

bool in_viewport(const std::array<float, 3>& p, const Viewport& v) {
    return p[0] >= v.x && p[0] <= v.x + v.width && p[1] >= v.y && p[1] <= v.y + v.height;
}

} // namespace

// A strip whose shared vertices carry different indices: each triangle lies wholly in its
// provoking vertex's viewport (GL's rule), under both conventions.
TEST(ViewportArray, TheProvokingVertexsIndexPlacesTheWholePrimitive) {
    const GeometryShader gs = strip_gs(Prim::lines_adjacency);
    for (const Provoking pv : {Provoking::first, Provoking::last}) {
        Scene s;
        s.prim = Prim::lines_adjacency;
        s.pv = pv;
        s.gs = &gs;
        s.raster = quadrants();
        s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, -0.5f, 0.5f, 0, 1, 0.5f, 0.5f, 0, 1};
        // Viewport indices 1, 0, 0, 3: strip triangles (v0 v1 v2) and (v1 v3 v2) take v2 and
        // v3 under Provoking::last (0 and 3), v0 and v1 under first (1 and 0).
        s.colors = {1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 3};
        Positions rec;
        const RasterBackend img = render(s, &rec);
        ASSERT_EQ(rec.tris.size(), 2u);
        const uint32_t want[2] = {pv == Provoking::last ? 0u : 1u, pv == Provoking::last ? 3u : 0u};
        for (uint32_t t = 0; t < 2; ++t)
            for (const auto& p : rec.tris[t])
                EXPECT_TRUE(in_viewport(p, s.raster.viewport_at(want[t])))
                    << "triangle " << t << " at " << p[0] << ", " << p[1];
        EXPECT_GT(lit(img), 0u);
    }
}

// Vertices past the clip planes: the clipper's new vertices land in the primitive's viewport.
TEST(ViewportArray, ClippedPiecesStayInTheirViewport) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    Scene s;
    s.gs = &gs;
    s.raster = quadrants();
    s.positions = {-3.0f, -0.5f, 0, 1, 3.0f, -0.5f, 0, 1, 0.0f, 3.0f, 0, 1};
    s.colors = {1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2};
    Positions rec;
    const RasterBackend img = render(s, &rec);
    ASSERT_FALSE(rec.tris.empty());
    for (const auto& t : rec.tris)
        for (const auto& p : t) EXPECT_TRUE(in_viewport(p, s.raster.viewport_at(2)));
    // Only the top-left quadrant is lit.
    for (uint32_t y = 0; y < kImage; ++y)
        for (uint32_t x = 0; x < kImage; ++x)
            if (img.pixel(x, y)) {
                EXPECT_TRUE(x < 16 && y >= 16) << x << ", " << y;
            }
    EXPECT_GT(lit(img), 100u);
}

// GL leaves an index past the implementation's 16 undefined; drawpipe, as llvmpipe, takes
// viewport 0, and so for an index past the state's viewport_count.
TEST(ViewportArray, AnIndexPastTheViewportsTakesViewportZero) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    for (const float index : {4.0f, 16.0f, 1000.0f, 3.0f}) {
        Scene s;
        s.gs = &gs;
        s.raster = quadrants();
        s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0.0f, 0.5f, 0, 1};
        s.colors = {1, 1, 1, index, 1, 1, 1, index, 1, 1, 1, index};
        Positions rec;
        render(s, &rec);
        ASSERT_EQ(rec.tris.size(), 1u);
        const uint32_t want = index == 3.0f ? 3 : 0;
        for (const auto& p : rec.tris[0])
            EXPECT_TRUE(in_viewport(p, s.raster.viewport_at(want))) << index;
    }
}

// With one viewport every index takes it: the fast path, no stage per primitive.
TEST(ViewportArray, OneViewportIgnoresTheIndex) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    Scene s;
    s.gs = &gs;
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0.0f, 0.5f, 0, 1};
    s.colors = {1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2};
    Scene plain = s;
    plain.colors = {1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
    EXPECT_EQ(pixels(render(s)), pixels(render(plain)));
}

// gl_Layer reaches the backend on every vertex, the clipper's new ones included.
TEST(ViewportArray, TheLayerReachesTheBackend) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    Scene s;
    s.gs = &gs;
    s.raster = quadrants();
    s.positions = {-3.0f, -0.5f, 0, 1, 3.0f, -0.5f, 0, 1, 0.0f, 3.0f, 0, 1,
                   -0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0.0f, 0.5f, 0, 1};
    s.colors = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
    LayerBackend b;
    run_draw(s, b, nullptr);
    ASSERT_GT(b.layers.size(), 6u); // the clipped triangle became more than one
    for (const uint32_t l : b.layers) EXPECT_EQ(l, 5u);
}

// Many triangles in four viewports, through every middle end that runs geometry shaders,
// small limits and two threads: the same picture.
TEST(ViewportArray, SplittingChangesNothing) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    std::mt19937 rng(30);
    Scene s;
    s.gs = &gs;
    s.raster = quadrants();
    s.raster.extra_viewports[1].near = 0.5f; // a depth range per viewport, and depth clamp
    s.raster.depth_clamp = true;
    s.depth_test = true;
    for (uint32_t t = 0; t < 40; ++t) {
        const float index = float(rng() % 5);
        for (uint32_t v = 0; v < 3; ++v) {
            s.positions.insert(s.positions.end(), {float(int(rng() % 33) - 16) / 8.0f,
                                                   float(int(rng() % 33) - 16) / 8.0f,
                                                   float(int(rng() % 9) - 4) / 2.0f, 1.0f});
            s.colors.insert(s.colors.end(), {float(rng() % 9) / 8.0f, float(rng() % 9) / 8.0f,
                                             float(rng() % 9) / 8.0f, index});
        }
    }
    register_builtin_middle_ends();
    const std::vector<uint32_t> want = pixels(render(s));
    EXPECT_GT(std::count_if(want.begin(), want.end(), [](uint32_t p) { return p != 0; }), 200);
    for (const char* middle : {"fetch_shade", "fetch_shade_simd", "gen7", "a4xx"})
        for (const uint32_t limit : {3u, 7u, 12u})
            for (const uint32_t threads : {1u, 2u})
                EXPECT_EQ(pixels(render(s, nullptr, {middle, limit, threads, "vsplit"})), want)
                    << middle << " limit " << limit << " threads " << threads;
}

// upper_left mirrors the picture about the viewport's centre line and keeps every triangle's
// facing: a counter-clockwise triangle stays front with front_face ccw.
TEST(ClipControl, UpperLeftFlipsYAndKeepsFacing) {
    Scene s;
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    // Window (0, 0), (24, 0), (0, 20): no edge through a pixel centre either way up.
    s.positions = {-1, -1, 0, 1, 0.5f, -1, 0, 1, -1, 0.25f, 0, 1};
    const RasterBackend lower = render(s);
    Scene u = s;
    u.raster.clip_origin = ClipOrigin::upper_left;
    const RasterBackend upper = render(u);
    ASSERT_GT(lit(lower), 100u);
    for (uint32_t y = 0; y < kImage; ++y)
        for (uint32_t x = 0; x < kImage; ++x)
            EXPECT_EQ(upper.pixel(x, y), lower.pixel(x, kImage - 1 - y)) << x << ", " << y;
    for (const ClipOrigin origin : {ClipOrigin::lower_left, ClipOrigin::upper_left}) {
        Scene c = s;
        c.raster.clip_origin = origin;
        c.raster.cull = CullFace::back;
        EXPECT_EQ(lit(render(c)), lit(lower)) << "a front face is kept";
        c.raster.cull = CullFace::front;
        EXPECT_EQ(lit(render(c)), 0u) << "and culled as one";
        c.raster.cull = CullFace::none;
        c.raster.front_face = FrontFace::cw;
        c.raster.front_mode = PolygonMode::point; // back faces filled, front ones as points
        EXPECT_EQ(lit(render(c)), lit(lower)) << "a back face under front_face cw";
    }
}

// zero_to_one: the near plane is z = 0, and depth = z_ndc * (far - near) + near.
TEST(ClipControl, ZeroToOneClipsAtZeroAndMapsDepthWithoutHalving) {
    Scene s;
    s.prim = Prim::points;
    s.depth_test = true;
    s.raster.viewport = {0, 0, 32, 32, 0.25f, 0.75f};
    // Pixel centres (17, 17), (7, 16) and (19, 19).
    s.positions = {0.09375f, 0.09375f, -0.25f,  1,       -0.53125f, 0.03125f,
                   0.5f,     1,        0.4375f, 0.4375f, 1.0f,      2.0f};
    Positions rec;
    render(s, &rec);
    ASSERT_EQ(rec.points.size(), 3u);
    EXPECT_FLOAT_EQ(rec.points[0][2], 0.25f + 0.375f * 0.5f);
    EXPECT_FLOAT_EQ(rec.points[1][2], 0.25f + 0.75f * 0.5f);
    s.raster.clip_depth = ClipDepth::zero_to_one;
    Positions z01;
    const RasterBackend img = render(s, &z01);
    ASSERT_EQ(z01.points.size(), 2u) << "z = -0.25 w is past the near plane";
    EXPECT_FLOAT_EQ(z01.points[0][2], 0.25f + 0.5f * 0.5f);
    EXPECT_FLOAT_EQ(z01.points[1][2], 0.25f + 0.5f * 0.5f); // z = w / 2
    EXPECT_FLOAT_EQ(img.depth(7, 16), 0.5f);
}

// Depth clamp: nothing is clipped at near or far (points, lines, triangles), and each
// fragment's depth is clamped to its primitive's depth range.
TEST(DepthClamp, NoNearOrFarClippingAndDepthClampedToTheRange) {
    Scene s;
    s.depth_test = true;
    s.raster.viewport = {0, 0, 32, 32, 0.25f, 0.75f};
    // A triangle from z = -3 w to 3 w across the view.
    s.positions = {-1, -1, -3, 1, 1, -1, -3, 1, 0, 1, 3, 1};
    const uint32_t clipped = lit(render(s));
    s.raster.depth_clamp = true;
    const RasterBackend clamped = render(s);
    Scene flat = s;
    flat.positions = {-1, -1, 0, 1, 1, -1, 0, 1, 0, 1, 0, 1};
    EXPECT_LT(clipped, lit(clamped));
    EXPECT_EQ(lit(clamped), lit(render(flat)));
    EXPECT_FLOAT_EQ(clamped.depth(16, 0), 0.25f);
    EXPECT_FLOAT_EQ(clamped.depth(16, 30), 0.75f);
    for (uint32_t y = 0; y < kImage; ++y)
        for (uint32_t x = 0; x < kImage; ++x)
            if (clamped.pixel(x, y)) {
                EXPECT_GE(clamped.depth(x, y), 0.25f);
                EXPECT_LE(clamped.depth(x, y), 0.75f);
            }
    // A point behind near and a line through far are drawn whole.
    Scene p;
    p.prim = Prim::points;
    p.depth_test = true;
    p.raster = s.raster;
    p.positions = {0.03125f, 0.03125f, -2, 1}; // pixel (16, 16)
    const RasterBackend point = render(p);
    EXPECT_EQ(lit(point), 1u);
    EXPECT_FLOAT_EQ(point.depth(16, 16), 0.25f);
    p.raster.depth_clamp = false;
    EXPECT_EQ(lit(render(p)), 0u);
    Scene l = p;
    l.prim = Prim::lines;
    l.positions = {-0.9f, 0.03f, 0, 1, 0.9f, 0.03f, 4, 1};
    const uint32_t cut = lit(render(l));
    l.raster.depth_clamp = true;
    EXPECT_GT(lit(render(l)), cut);
    EXPECT_GT(cut, 0u);
}

// The fused SIMD pass and the scalar one agree under every convention.
TEST(ClipControl, EveryMiddleEndDrawsTheSame) {
    register_builtin_middle_ends();
    std::mt19937 rng(31);
    for (int iter = 0; iter < 24; ++iter) {
        Scene s;
        s.prim = iter % 3 == 0 ? Prim::triangle_strip : iter % 3 == 1 ? Prim::lines : Prim::points;
        s.depth_test = true;
        s.raster.viewport = {2, 3, 24, 24, 0.125f, 0.875f};
        s.raster.clip_origin = iter & 1 ? ClipOrigin::upper_left : ClipOrigin::lower_left;
        s.raster.clip_depth = iter & 2 ? ClipDepth::zero_to_one : ClipDepth::negative_one_to_one;
        s.raster.depth_clamp = iter & 4;
        s.raster.cull = iter & 8 ? CullFace::back : CullFace::none;
        for (uint32_t v = 0; v < 60; ++v) {
            const float w = float(1 << (rng() % 3));
            s.positions.insert(s.positions.end(),
                               {w * float(int(rng() % 41) - 20) / 16.0f + w / 64.0f,
                                w * float(int(rng() % 41) - 20) / 16.0f + w / 64.0f,
                                w * float(int(rng() % 13) - 6) / 4.0f, w});
            s.colors.insert(s.colors.end(), {float(rng() % 9) / 8.0f, float(rng() % 9) / 8.0f,
                                             float(rng() % 9) / 8.0f, 1.0f});
        }
        const std::vector<uint32_t> want = pixels(render(s));
        for (const char* middle : {"fetch_shade_simd", "gen7", "mali"})
            for (const uint32_t threads : {1u, 2u})
                EXPECT_EQ(pixels(render(s, nullptr, {middle, 7, threads, "distinct"})), want)
                    << middle << " iteration " << iter;
    }
}

TEST(ClipControl, BadStatesAreClearErrors) {
    auto error_of = [](auto&& spoil) -> std::string {
        Scene s;
        s.raster.viewport = {0, 0, 32, 32, 0, 1};
        s.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0.0f, 0.5f, 0, 1};
        spoil(s.raster);
        try {
            render(s);
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::invalid_value);
            return e.what();
        }
        return "no error";
    };
    auto names = [&](const std::string& field, auto&& spoil) {
        EXPECT_NE(error_of(spoil).find(field), std::string::npos) << field;
    };
    names("viewport_count", [](RasterState& r) { r.viewport_count = 0; });
    names("viewport_count", [](RasterState& r) { r.viewport_count = 17; });
    names("extra_viewports[2] (viewport 3)", [](RasterState& r) {
        r.viewport_count = 4;
        r.extra_viewports[2].width = -1;
    });
    names("viewport 1", [](RasterState& r) {
        r.viewport_count = 2;
        r.extra_viewports[0].near = std::nanf("");
    });
    names("clip_origin", [](RasterState& r) { r.clip_origin = ClipOrigin(2); });
    names("clip_depth", [](RasterState& r) { r.clip_depth = ClipDepth(7); });
    // A viewport past the count is never read, so it is never checked.
    EXPECT_EQ(error_of([](RasterState& r) { r.extra_viewports[5].width = -1; }), "no error");
}

// Under depth clamp each primitive's fragments clamp to its own viewport's depth range,
// [min, max] of a reversed one too.
TEST(DepthClamp, EachPrimitiveClampsToItsViewportsRange) {
    const GeometryShader gs = strip_gs(Prim::triangles);
    Scene s;
    s.gs = &gs;
    s.depth_test = true;
    s.raster = quadrants();
    s.raster.depth_clamp = true;
    s.raster.extra_viewports[0].near = 0.5f;                                         // viewport 1
    s.raster.extra_viewports[2].near = 0.8f, s.raster.extra_viewports[2].far = 0.2f; // viewport 3
    // One triangle behind near in viewport 1, one past far in viewport 3.
    s.positions = {-1, -1, -3, 1, 1, -1, -3, 1, -1, 1, -3, 1,
                   -1, -1, 3,  1, 1, -1, 3,  1, -1, 1, 3,  1};
    s.colors = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 3, 1, 1, 1, 3};
    const RasterBackend img = render(s);
    EXPECT_FLOAT_EQ(img.depth(18, 2), 0.5f);  // viewport 1: near 0.5
    EXPECT_FLOAT_EQ(img.depth(18, 18), 0.2f); // viewport 3: z_w = -0.4, clamped to min(0.8, 0.2)
    EXPECT_FLOAT_EQ(img.depth(2, 2), 1.0f);   // viewport 0: nothing drawn
}

// llvmpipe flips its vertical tie rule under upper_left (Mesa flips bottom_edge_rule): a
// centre on a horizontal edge then belongs to top edges, and a wide point keeps its bottom
// edge's centres instead of its top edge's. Pixels as mesa_render draws them.
TEST(ClipControl, UpperLeftFlipsTheVerticalTieRule) {
    auto rows = [](const RasterBackend& img) {
        std::vector<uint32_t> r;
        for (uint32_t y = 0; y < kImage; ++y)
            for (uint32_t x = 0; x < kImage; ++x)
                if (img.pixel(x, y) && (r.empty() || r.back() != y)) r.push_back(y);
        return r;
    };
    Scene p;
    p.prim = Prim::points;
    p.raster.viewport = {0, 0, 32, 32, 0, 1};
    p.raster.point_size = 2;
    p.positions = {0.03125f, 0.03125f, 0, 1}; // window (16.5, 16.5), or (16.5, 15.5)
    EXPECT_EQ(rows(render(p)), (std::vector<uint32_t>{16, 17}));
    p.raster.clip_origin = ClipOrigin::upper_left;
    EXPECT_EQ(rows(render(p)), (std::vector<uint32_t>{14, 15}));
    // A triangle whose top edge runs through the centres of row 23 under upper_left.
    Scene t;
    t.raster = p.raster;
    t.positions = {-0.5f, -0.46875f, 0, 1, 0.5f, -0.46875f, 0, 1, 0, 0.53125f, 0, 1};
    EXPECT_EQ(rows(render(t)).back(), 23u);
    // A one-pixel point on a row boundary goes to the row below.
    p.raster.point_size = 1;
    p.positions = {0.03125f, 0, 0, 1}; // window (16.5, 16.0)
    EXPECT_EQ(rows(render(p)), (std::vector<uint32_t>{15}));
    p.raster.clip_origin = ClipOrigin::lower_left;
    EXPECT_EQ(rows(render(p)), (std::vector<uint32_t>{16}));
}
