// The raster backend: coverage rules, and the invariant seen as a picture: a split draw
// rasterises to exactly the image of the unsplit draw.
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace drawpipe;

namespace {

struct Mesh {
    std::vector<float> positions; // float4 per vertex
    std::vector<uint32_t> indices;
};

// A jittered n x n grid covering clip space, drawn as a triangle strip per row with restart.
Mesh strip_grid(uint32_t n) {
    Mesh m;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            const bool inner = x > 0 && y > 0 && x + 1 < n && y + 1 < n;
            const float d = 2.0f / float(n - 1);
            m.positions.insert(m.positions.end(),
                               {-1.0f + d * (float(x) + (inner ? jitter(rng) : 0.0f)),
                                -1.0f + d * (float(y) + (inner ? jitter(rng) : 0.0f)), 0.0f, 1.0f});
        }
    for (uint32_t y = 0; y + 1 < n; ++y) {
        for (uint32_t x = 0; x < n; ++x)
            m.indices.insert(m.indices.end(), {y * n + x, (y + 1) * n + x});
        m.indices.push_back(0xFFFFFFFFu);
    }
    return m;
}

RasterBackend render(const Mesh& m, Prim prim, Provoking pv, uint32_t limit) {
    const VertexBuffer vb{m.positions.data(), m.positions.size() * 4, 16, 0};
    const VertexAttrib a{0, 0, Format::float32x4, 0};
    DrawInfo d;
    d.prim = prim;
    d.index_type = IndexType::u32;
    d.indices = m.indices.data();
    d.index_buffer_count = uint32_t(m.indices.size());
    d.count = d.index_buffer_count;
    d.primitive_restart = true;
    d.restart_index = 0xFFFFFFFFu;
    d.provoking = pv;
    FetchShade middle(limit);
    RasterBackend raster(96, 80, {.clip_space = true, .colour_by_id = true});
    draw_serial({d, {{&vb, 1}, {&a, 1}}, nullptr, nullptr}, middle, raster);
    return raster;
}

} // namespace

TEST(Raster, StripGridCoversEveryPixelExactlyWhenUnsplit) {
    const Mesh m = strip_grid(9);
    const RasterBackend img = render(m, Prim::triangle_strip, Provoking::last, 4096);
    // The grid tiles clip space without gaps: every pixel is written.
    EXPECT_EQ(img.covered_pixels(), uint64_t(img.width()) * img.height());
}

TEST(Raster, SplitDrawGivesTheSameImage) {
    const Mesh m = strip_grid(12);
    for (Prim prim : {Prim::triangle_strip, Prim::line_strip, Prim::points, Prim::quad_strip}) {
        for (Provoking pv : {Provoking::first, Provoking::last}) {
            const RasterBackend whole = render(m, prim, pv, 65536);
            EXPECT_GT(whole.covered_pixels(), 0u);
            for (uint32_t limit : {6u, 7u, 10u, 33u}) {
                const RasterBackend split = render(m, prim, pv, limit);
                bool same = true;
                for (uint32_t y = 0; y < whole.height() && same; ++y)
                    for (uint32_t x = 0; x < whole.width() && same; ++x)
                        same = whole.pixel(x, y) == split.pixel(x, y);
                EXPECT_TRUE(same) << prim_name(prim) << " limit " << limit;
            }
        }
    }
}

TEST(Raster, ProvokingVertexChoosesTheColour) {
    const Mesh m = strip_grid(3);
    const RasterBackend last = render(m, Prim::triangle_strip, Provoking::last, 4096);
    const RasterBackend first = render(m, Prim::triangle_strip, Provoking::first, 4096);
    uint64_t differ = 0;
    for (uint32_t y = 0; y < last.height(); ++y)
        for (uint32_t x = 0; x < last.width(); ++x) differ += last.pixel(x, y) != first.pixel(x, y);
    EXPECT_GT(differ, 0u);
}
