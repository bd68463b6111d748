// Small scenes drawn through a Context into a RasterBackend, for the tests of the pipeline
// stages (tests/draw/stages/) and of two-sided colour: a scene's vertices, its raster state,
// how the draw is set up (middle end, limit, strategy, threads), and the picture it gives.
#pragma once

#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/stage.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace drawpipe::test {

inline constexpr uint32_t kRestart = 0xFFFFFFFFu;

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

// An indexed draw (restart index kRestart) whose attributes are its varyings: 0 the
// position, 1 the colour (the backend's colour), 2 the edge flag, 3 the back colour when
// given (RasterState::two_side_colors pairs 1 with 3).
struct Scene {
    Prim prim = Prim::triangles;
    Provoking pv = Provoking::last;
    std::vector<uint32_t> indices;
    std::vector<float> positions; // float4 per vertex
    std::vector<float> colors;    // float4 per vertex
    std::vector<float> edge;      // per vertex
    std::vector<float> back;      // float4 per vertex, or none
    RasterState raster;
    uint32_t image = 32;        // width and height
    bool backend_lines = false; // the backend draws lines at raster.line_width (llvmpipe)
    bool depth_test = false;    // the backend's depth buffer (GL_LESS)
};

// What draws a scene: the middle end, the segment limit and strategy, the threads.
struct DrawSetup {
    std::string middle = "fetch_shade";
    uint32_t limit = 0;
    Strategy strategy;
    uint32_t threads = 1;
};

// Every vertex inside the view, random edge flags, restart runs.
inline Scene random_scene(std::mt19937& rng, Prim prim, uint32_t vertices) {
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
inline Scene one_triangle() {
    Scene s;
    s.raster.viewport = {0, 0, 32, 32, 0, 1};
    s.edge = {1, 1, 1};
    s.colors = std::vector<float>(12, 1.0f);
    s.indices = {0, 1, 2};
    return s;
}

// One white line from the two float4 `positions` over a 32 x 32 viewport.
inline Scene one_line(std::vector<float> positions) {
    Scene s = one_triangle();
    s.prim = Prim::lines;
    s.indices = {0, 1};
    s.positions = std::move(positions);
    return s;
}

// A 600 x 600 image, big enough for the widest line and the largest point; vertex i of
// `positions` (float4 each) is index i.
inline Scene big_scene(Prim prim, std::vector<float> positions) {
    Scene s = one_triangle();
    s.image = 600;
    s.raster.viewport = {0, 0, 600, 600, 0, 1};
    s.prim = prim;
    s.indices.resize(positions.size() / 4);
    for (uint32_t i = 0; i < s.indices.size(); ++i) s.indices[i] = i;
    s.positions = std::move(positions);
    return s;
}

// Draws the scene through a Context with `record` (when set) appended; returns the image.
inline RasterBackend draw_scene(const Scene& s, const DrawSetup& setup = {},
                                Stage* record = nullptr) {
    const VertexBuffer buffers[4] = {{s.positions.data(), s.positions.size() * 4, 16, 0},
                                     {s.colors.data(), s.colors.size() * 4, 16, 0},
                                     {s.edge.data(), s.edge.size() * 4, 4, 0},
                                     {s.back.data(), s.back.size() * 4, 16, 0}};
    const VertexAttrib attribs[4] = {{0, 0, Format::float32x4, 0},
                                     {1, 0, Format::float32x4, 0},
                                     {2, 0, Format::float32x1, 0},
                                     {3, 0, Format::float32x4, 0}};
    const size_t bound = s.back.empty() ? 3 : 4;
    DrawInfo d;
    d.prim = s.prim;
    d.provoking = s.pv;
    d.index_type = IndexType::u32;
    d.indices = s.indices.data();
    d.index_buffer_count = d.count = uint32_t(s.indices.size());
    d.primitive_restart = true;
    d.restart_index = kRestart;
    ContextOptions o;
    o.threads = setup.threads;
    o.inline_below = 0; // the pipeline even for small draws, so threads really share them
    o.draw = {setup.strategy, setup.limit};
    Context ctx(o);
    RasterState raster = s.raster;
    if (s.backend_lines) raster.wide_line_threshold = 10000.0f;
    RasterBackend image(s.image, s.image,
                        {.colour_varying = 1,
                         .depth_test = s.depth_test,
                         .line_width = s.backend_lines ? s.raster.line_width : 1.0f});
    ctx.bind_middle_end(setup.middle);
    ctx.bind_backend(image);
    ctx.set_vertex_buffers({buffers, bound});
    ctx.set_vertex_attribs({attribs, bound});
    ctx.set_raster_state(raster);
    if (record) ctx.add_stage(*record);
    ctx.draw(d);
    ctx.flush();
    return image;
}

// Every pixel of the image, row by row.
inline std::vector<uint32_t> pixels(const RasterBackend& img) {
    std::vector<uint32_t> p;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x) p.push_back(img.pixel(x, y));
    return p;
}

// The lit pixels of an image, as (x, y) pairs.
inline std::set<std::pair<uint32_t, uint32_t>> lit_pixels(const RasterBackend& img) {
    std::set<std::pair<uint32_t, uint32_t>> lit;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != 0) lit.insert({x, y});
    return lit;
}

// How many of `p` (pixels()) are lit.
inline uint64_t lit_count(const std::vector<uint32_t>& p) {
    return uint64_t(std::count_if(p.begin(), p.end(), [](uint32_t x) { return x != 0; }));
}

// The colours lit in the image.
inline std::set<uint32_t> colours(const RasterBackend& img) {
    std::set<uint32_t> c;
    for (uint32_t y = 0; y < img.height(); ++y)
        for (uint32_t x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != 0) c.insert(img.pixel(x, y));
    return c;
}

} // namespace drawpipe::test
