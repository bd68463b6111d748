// The minimal backend docs/backends.md shows, compiled from the doc: it sees GL's primitives
// (as many as the counting backend) whatever type and path they come by, strips and fans
// whole on the fast path or lists after the stages, at one thread and several.
#include "doc_backend.hpp"

#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/raster_state.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <cmath>
#include <vector>

using namespace drawpipe;

namespace {

const tbb::global_control g_threads(tbb::global_control::max_allowed_parallelism, 8);

struct Totals {
    uint64_t points = 0, lines = 0, triangles = 0;
};

// A ring of 40 vertices in clip space, drawn as `prim` with the given raster state.
template <class B> void draw_ring(Prim prim, const RasterState& raster, uint32_t threads, B& b) {
    std::vector<float> pos;
    for (int i = 0; i < 40; ++i) {
        const float a = float(i) * 0.157f, r = i % 2 ? 0.9f : 0.4f;
        pos.insert(pos.end(), {r * std::cos(a), r * std::sin(a), 0, 1});
    }
    std::vector<uint32_t> idx(120);
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = (i * 7) % 40;
    const VertexBuffer buffer{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    ContextOptions o;
    o.threads = threads;
    o.inline_below = 0;
    o.draw.max_vertices = 16; // many segments: runs cut across calls
    Context ctx(o);
    ctx.bind_middle_end("fetch_shade_simd");
    ctx.bind_backend(b);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    ctx.set_raster_state(raster);
    DrawInfo d;
    d.prim = prim;
    d.index_type = IndexType::u32;
    d.indices = idx.data();
    d.index_buffer_count = d.count = uint32_t(idx.size());
    ctx.draw(d);
    ctx.flush();
}

TEST(DocBackend, SeesWhatTheCountingBackendSees) {
    RasterState fast; // nothing clipped or culled: batches go out as the middle end made them
    fast.viewport = {0, 0, 64, 64, 0, 1};
    RasterState staged = fast; // culling: the stages run and hand on lists
    staged.cull = CullFace::back;
    for (const Prim prim : {Prim::points, Prim::lines, Prim::line_strip, Prim::line_loop,
                            Prim::triangles, Prim::triangle_strip, Prim::triangle_fan})
        for (const RasterState* raster : {&fast, &staged})
            for (const uint32_t threads : {1u, 3u}) {
                SCOPED_TRACE(std::string(prim_name(prim)) +
                             (raster == &fast ? " fast" : " staged"));
                CollectingBackend doc;
                CountingBackend counting;
                draw_ring(prim, *raster, threads, doc);
                draw_ring(prim, *raster, threads, counting);
                EXPECT_EQ(doc.points.size(), counting.totals().points);
                EXPECT_EQ(doc.lines.size(), counting.totals().lines);
                EXPECT_EQ(doc.triangles.size(), counting.totals().triangles);
                EXPECT_GT(doc.points.size() + doc.lines.size() + doc.triangles.size(), 0u);
                // Window coordinates, y up: the ring's centre maps to (32, 32).
                for (const auto& t : doc.triangles)
                    for (const auto& c : t) {
                        EXPECT_GE(c.x, 0.0f);
                        EXPECT_LE(c.x, 64.0f);
                        EXPECT_FLOAT_EQ(c.inv_w, 1.0f);
                    }
            }
}

} // namespace
