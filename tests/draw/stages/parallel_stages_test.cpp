// The pipeline stages on the shading threads (issue 29): an order-free chain run batch by
// batch beside the shading draws exactly what the ordered chain in the sink draws, for every
// primitive type, state and thread count; the cull-only loop keeps what the cull stage keeps;
// a backend that takes parallel batches receives the same calls at the same places for every
// thread count; and a stippled line list needs bounded memory however many dashes it makes.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "drawpipe/extend/stage.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "support/pass_on.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;
using drawpipe::test::PassOn;

namespace {

constexpr uint32_t kRestart = 0xFFFFFFFFu;

// Every decomposed primitive the backend receives, as the bytes of its vertex records, in
// order; and, separately, the calls themselves.
class Recorder final : public Backend {
  public:
    std::vector<std::vector<uint32_t>> prims;
    std::vector<std::string> calls;
    void begin_draw(const DrawInfo& draw, const VertexLayout&) override { pv_ = draw.provoking; }
    void draw_elements(Prim prim, uint8_t flags, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        calls.push_back(std::to_string(int(prim)) + " f" + std::to_string(flags) + " n" +
                        std::to_string(elts.size()));
        // As the stages decompose (quads with the provoking vertex first), so that a range
        // the sink hands on whole compares with the stages' lists.
        for_each_rasterized(prim, pv_, uint32_t(elts.size()), [&](uint32_t n, const uint32_t* pos) {
            std::vector<uint32_t> rec{n};
            for (uint32_t i = 0; i < n; ++i)
                rec.insert(rec.end(), v.vertex(elts[pos[i]]), v.vertex(elts[pos[i]]) + v.stride);
            prims.push_back(std::move(rec));
        });
    }

  private:
    Provoking pv_ = Provoking::last;
};

// The vertex ids of each primitive, for a readable failure.
std::vector<std::string> ids(const Recorder& r) {
    std::vector<std::string> out;
    for (const std::vector<uint32_t>& p : r.prims) {
        const uint32_t stride = uint32_t(p.size() - 1) / p[0];
        std::string s;
        for (uint32_t i = 0; i < p[0]; ++i) s += std::to_string(p[1 + i * stride]) + " ";
        out.push_back(s);
    }
    return out;
}

// A driver's stage: drops triangles whose first vertex id is a multiple of 5 and gives every
// other primitive's vertices a colour made from their ids, in new records. `copyable`: it
// says it may run on the shading threads (Stage::clone).
class Tint final : public Stage {
  public:
    explicit Tint(bool copyable) : copyable_(copyable) {}
    std::unique_ptr<Stage> clone() const override {
        return copyable_ ? std::make_unique<Tint>(true) : nullptr;
    }
    void point(const StagePrim& p) override { next()->point(tint(p, 1)); }
    void line(const StagePrim& p) override { next()->line(tint(p, 2)); }
    void triangle(const StagePrim& p) override {
        if (p.v[0][SLOT_VERTEX_ID] % 5 == 0) return;
        next()->triangle(tint(p, 3));
    }

  private:
    StagePrim tint(const StagePrim& p, uint32_t n) {
        StagePrim out = p;
        const uint32_t slot = draw_.layout->varying_slot(0);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t* r = new_vertex(p.v[i]);
            r[slot] = float_dword(float(p.v[i][SLOT_VERTEX_ID] % 7) / 7.0f);
            out.v[i] = r;
        }
        return out;
    }
    bool copyable_;
};

struct Scene {
    Prim prim = Prim::triangles;
    Provoking pv = Provoking::last;
    std::vector<uint32_t> indices;
    std::vector<float> positions; // float4 per vertex
    std::vector<float> colors;    // float4 per vertex
    RasterState raster;
};

// Random primitives over a 64 x 64 viewport, some vertices outside it (clipped), restart runs,
// and a random state of the order-free stages.
Scene random_scene(std::mt19937& rng, Prim prim, uint32_t count) {
    Scene s;
    s.prim = prim;
    s.pv = rng() % 2 ? Provoking::first : Provoking::last;
    const uint32_t vertices = 64;
    for (uint32_t i = 0; i < count; ++i)
        s.indices.push_back(rng() % 97 == 0 ? kRestart : rng() % vertices);
    const bool outside = rng() % 2;
    for (uint32_t v = 0; v < vertices; ++v) {
        const float span = outside ? 1.4f : 0.95f;
        for (int c = 0; c < 2; ++c)
            s.positions.push_back(span * (float(rng() % 2001) / 1000.0f - 1.0f));
        s.positions.insert(s.positions.end(), {float(rng() % 100) / 100.0f, 1.0f});
        for (int c = 0; c < 3; ++c) s.colors.push_back(float(rng() % 9) / 8.0f);
        s.colors.push_back(1.0f);
    }
    RasterState& r = s.raster;
    r.viewport = {0, 0, 64, 64, 0, 1};
    r.cull = CullFace(rng() % 4);
    r.front_face = rng() % 2 ? FrontFace::ccw : FrontFace::cw;
    r.flatshade = rng() % 3 == 0;
    if (rng() % 4 == 0) r.front_mode = PolygonMode(rng() % 3);
    if (rng() % 4 == 0) r.back_mode = PolygonMode(rng() % 3);
    if (rng() % 4 == 0) {
        r.offset_fill = r.offset_line = true;
        r.offset_factor = 1.0f;
        r.offset_units = 2.0f;
    }
    if (rng() % 4 == 0) r.line_width = float(1 + rng() % 4);
    if (rng() % 4 == 0) r.point_size = float(1 + rng() % 4);
    return s;
}

// What draws it: the threads, the segment limit and a driver stage.
struct DrawSetup {
    uint32_t threads = 1;
    uint32_t limit = 0;
    Stage* driver_stage = nullptr;
};

void draw(const Scene& s, const DrawSetup& setup, Backend& backend) {
    const VertexBuffer buffers[2] = {{s.positions.data(), s.positions.size() * 4, 16, 0},
                                     {s.colors.data(), s.colors.size() * 4, 16, 0}};
    const VertexAttrib attribs[2] = {{0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 0}};
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
    o.draw.max_vertices = setup.limit;
    Context ctx(o);
    ctx.bind_middle_end("fetch_shade_simd");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.set_raster_state(s.raster);
    if (setup.driver_stage) ctx.add_stage(*setup.driver_stage);
    ctx.draw(d);
    ctx.draw(d); // a second draw in flight with the first
    ctx.flush();
}

std::string describe(const Scene& s) {
    const RasterState& r = s.raster;
    return std::string(prim_name(s.prim)) + " cull " + std::to_string(int(r.cull)) + " face " +
           std::to_string(int(r.front_face)) + " flat " + std::to_string(r.flatshade) + " modes " +
           std::to_string(int(r.front_mode)) + "/" + std::to_string(int(r.back_mode)) + " offset " +
           std::to_string(r.offset_fill) + " width " + std::to_string(r.line_width) + " size " +
           std::to_string(r.point_size);
}

} // namespace

// The chain on the shading threads (no driver stage) against the ordered chain in the sink (a
// pass-through driver stage): the same primitives, vertex records byte for byte, in the same
// order; and at every thread count and limit the same backend calls.
TEST(ParallelStages, OrderFreeStagesDrawWhatTheOrderedChainDraws) {
    register_builtin_middle_ends();
    std::mt19937 rng(29);
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        for (int iter = 0; iter < 12; ++iter) {
            const Scene s = random_scene(rng, Prim(p), 200 + rng() % 400);
            PassOn pass;
            Recorder ordered;
            draw(s, {1, 0, &pass}, ordered);
            Recorder first;
            draw(s, {1, 0, nullptr}, first);
            ASSERT_EQ(ids(first), ids(ordered)) << describe(s);
            ASSERT_EQ(first.prims, ordered.prims) << describe(s);
            for (const uint32_t threads : {2u, 4u}) {
                for (const uint32_t limit : {0u, 32u}) {
                    Recorder other;
                    draw(s, {threads, limit, nullptr}, other);
                    ASSERT_EQ(other.prims, ordered.prims)
                        << describe(s) << " threads " << threads << " limit " << limit;
                    if (limit == 0) {
                        ASSERT_EQ(other.calls, first.calls) << describe(s);
                    }
                }
            }
        }
    }
}

// A driver's stage that can be copied runs on the shading threads, a copy per thread, and
// draws what the same stage run in order draws.
TEST(ParallelStages, ACopyableDriverStageDrawsWhatItDrawsInOrder) {
    std::mt19937 rng(31);
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        for (int iter = 0; iter < 4; ++iter) {
            const Scene s = random_scene(rng, Prim(p), 300 + rng() % 400);
            Tint in_order(false);
            Recorder ordered;
            draw(s, {1, 0, &in_order}, ordered);
            for (const uint32_t threads : {1u, 2u, 4u}) {
                Tint copyable(true);
                Recorder other;
                draw(s, {threads, 32, &copyable}, other);
                ASSERT_EQ(ids(other), ids(ordered)) << describe(s) << " threads " << threads;
                ASSERT_EQ(other.prims, ordered.prims) << describe(s) << " threads " << threads;
            }
        }
    }
}

// Culling alone takes the loop over whole ranges (cull_triangles); with a driver stage each
// triangle passes the cull stage. Both keep the same triangles, for every winding and facing.
TEST(ParallelStages, TheCullLoopKeepsWhatTheCullStageKeeps) {
    std::mt19937 rng(7);
    for (const Prim prim :
         {Prim::triangles, Prim::triangle_strip, Prim::triangle_fan, Prim::quads, Prim::polygon,
          Prim::triangles_adjacency, Prim::triangle_strip_adjacency})
        for (const CullFace cull : {CullFace::back, CullFace::front, CullFace::front_and_back})
            for (const FrontFace face : {FrontFace::ccw, FrontFace::cw}) {
                Scene s = random_scene(rng, prim, 3000);
                s.raster = {};
                s.raster.viewport = {0, 0, 64, 64, 0, 1};
                s.raster.cull = cull;
                s.raster.front_face = face;
                for (size_t i = 0; i < s.positions.size(); i += 4) // all inside
                    s.positions[i] *= 0.5f, s.positions[i + 1] *= 0.5f;
                PassOn pass;
                Recorder ordered, loop;
                draw(s, {1, 0, &pass}, ordered);
                // The loop's vector part at every SIMD level this CPU runs.
                for (const std::string& level : simd_targets()) {
                    pin_simd_target(level);
                    Recorder at_level;
                    draw(s, {2, 0, nullptr}, at_level);
                    pin_simd_target("");
                    ASSERT_EQ(at_level.prims, ordered.prims) << level << " " << describe(s);
                }
                draw(s, {2, 0, nullptr}, loop);
                ASSERT_EQ(loop.prims, ordered.prims) << describe(s);
                Scene all = s;
                all.raster.cull = CullFace::none;
                Recorder unculled;
                draw(all, {1, 0, nullptr}, unculled);
                if (cull != CullFace::front_and_back) { // something is kept, not everything
                    EXPECT_GT(loop.prims.size(), 0u) << describe(s);
                    EXPECT_LT(loop.prims.size(), unculled.prims.size()) << describe(s);
                }
            }
}

// A backend that takes parallel batches gets the same calls at the same places whatever the
// thread count, whether the stages ran on the shading threads or (stipple) in order, and the
// same primitives as an ordered backend.
TEST(ParallelStages, AParallelBackendGetsTheSameBatchesAtEveryThreadCount) {
    std::mt19937 rng(11);
    for (const Prim prim : {Prim::triangles, Prim::triangle_strip, Prim::lines, Prim::points})
        for (const bool stipple : {false, true})
            for (int iter = 0; iter < 4; ++iter) {
                Scene s = random_scene(rng, prim, 2000 + rng() % 3000);
                s.raster.line_stipple = stipple;
                s.raster.stipple_pattern = 0x0F0F;
                CountingBackend ordered;
                draw(s, {1, 64, nullptr}, ordered);
                CountingBackend::Totals base;
                for (const uint32_t threads : {1u, 2u, 3u, 8u}) {
                    CountingBackend parallel(true);
                    draw(s, {threads, 64, nullptr}, parallel);
                    const CountingBackend::Totals t = parallel.totals();
                    if (threads == 1) {
                        base = t;
                        EXPECT_EQ(t.triangles, ordered.totals().triangles) << describe(s);
                        EXPECT_EQ(t.lines, ordered.totals().lines) << describe(s);
                        EXPECT_EQ(t.points, ordered.totals().points) << describe(s);
                        EXPECT_EQ(t.elements, ordered.totals().elements) << describe(s);
                        continue;
                    }
                    EXPECT_EQ(t.calls, base.calls) << describe(s) << " threads " << threads;
                    EXPECT_EQ(t.elements, base.elements) << describe(s);
                    EXPECT_EQ(t.checksum, base.checksum) << describe(s) << " threads " << threads;
                }
            }
}

// The parallel checksum is keyed by place: two draws whose batches swap places differ.
TEST(ParallelStages, TheParallelChecksumTellsPlacesApart) {
    Scene a;
    a.positions = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1, 0.5f, 0.5f, 0, 1};
    a.colors.assign(16, 1.0f);
    a.indices = {0, 1, 2};
    a.raster.viewport = {0, 0, 64, 64, 0, 1};
    Scene b = a;
    b.indices = {1, 3, 2};
    CountingBackend ca(true), cb(true);
    draw(a, {}, ca);
    draw(b, {}, cb);
    EXPECT_EQ(ca.totals().triangles, cb.totals().triangles);
    EXPECT_NE(ca.totals().checksum, cb.totals().checksum);
}

// The context numbers its draws over its whole life (BatchOrder::draw); the parallel checksum
// counts them from the first since reset(), so the same draws drawn again sum the same, and
// draws in other places still differ.
TEST(ParallelStages, TheParallelChecksumIsTheSameForARedraw) {
    std::mt19937 rng(12);
    const Scene s = random_scene(rng, Prim::triangles, 3000);
    const VertexBuffer buffers[2] = {{s.positions.data(), s.positions.size() * 4, 16, 0},
                                     {s.colors.data(), s.colors.size() * 4, 16, 0}};
    const VertexAttrib attribs[2] = {{0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 0}};
    DrawInfo d;
    d.prim = s.prim;
    d.index_type = IndexType::u32;
    d.indices = s.indices.data();
    d.index_buffer_count = d.count = uint32_t(s.indices.size());
    ContextOptions o;
    o.threads = 3;
    o.inline_below = 0;
    o.draw.max_vertices = 64;
    Context ctx(o);
    CountingBackend backend(true);
    ctx.bind_middle_end("fetch_shade_simd");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.set_raster_state(s.raster);
    auto twice = [&](uint32_t second_count) {
        backend.reset();
        ctx.draw(d);
        DrawInfo e = d;
        e.count = second_count;
        ctx.draw(e);
        ctx.flush();
        return backend.totals();
    };
    const CountingBackend::Totals first = twice(d.count);
    const CountingBackend::Totals again = twice(d.count);
    EXPECT_GT(first.calls, 2u);
    EXPECT_EQ(again.calls, first.calls);
    EXPECT_EQ(again.checksum, first.checksum);
    // The first draw's triangles again, then a shorter second draw: places that received
    // the same as before still sum alike, the missing ones change the total.
    EXPECT_NE(twice(d.count - 3 * 200).checksum, first.checksum);
}

// Issue 29: 4000 stippled lines across a 2048-pixel viewport with pattern 0x5555 once peaked
// at 2.15 GB (a heap vertex per dash, kept to the end of the batch and copied twice more).
// Dashes are now made in a per-stage arena released line by line and handed to the backend in
// bounded groups: the heap in use while the backend draws stays small.
TEST(ParallelStages, AStippledLineListNeedsBoundedMemory) {
    Scene s;
    s.prim = Prim::lines;
    std::mt19937 rng(5);
    const uint32_t lines = 4000;
    for (uint32_t i = 0; i < lines; ++i) {
        const float y = float(rng() % 2000) / 1000.0f - 1.0f;
        s.positions.insert(s.positions.end(), {-0.999f, y, 0, 1, 0.999f, -y, 0, 1});
        s.indices.insert(s.indices.end(), {2 * i, 2 * i + 1});
    }
    s.colors.assign(s.positions.size(), 1.0f);
    s.raster.viewport = {0, 0, 2048, 2048, 0, 1};
    s.raster.line_stipple = true;
    s.raster.stipple_pattern = 0x5555;

    class Peak final : public Backend {
      public:
        uint64_t lines = 0;
        uint32_t most_vertices = 0;
        size_t base = 0, peak = 0;
        void begin_draw(const DrawInfo&, const VertexLayout&) override {}
        void draw_elements(Prim prim, uint8_t, const VertexView& v,
                           std::span<const uint32_t> elts) override {
            EXPECT_EQ(prim, Prim::lines);
            lines += elts.size() / 2;
            most_vertices = std::max(most_vertices, v.count);
            peak = std::max(peak, size_t(mallinfo2().uordblks));
        }
    } backend;
    backend.base = backend.peak = size_t(mallinfo2().uordblks);
    draw(s, {2, 0, nullptr}, backend);
    // Each line is about 2000 pixels long: about 1000 dashes of one pixel each, drawn twice.
    EXPECT_GT(backend.lines, uint64_t(2) * lines * 900);
    // A batch's own records plus at most the emit stage's bound of new ones.
    EXPECT_LT(backend.most_vertices, 4096u + 16384u + 4u);
    // mallinfo2 counts nothing under a sanitizer's allocator; there this checks nothing.
    EXPECT_LT(backend.peak - backend.base, size_t(64) << 20);
}
