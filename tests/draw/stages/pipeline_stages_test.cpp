// PipelineStages (drawpipe/extend/pipeline_stages.hpp): the stages over batches a driver shaded
// itself give exactly what Context's own pipeline hands its backend for the same batches, for
// every primitive type and a random state of the stages; a driver's viewport transform places
// the vertices clipping makes; batches run on several threads at once; line stipple is exact
// where every primitive restarts the pattern and refused where it runs on; a viewport index
// past the limit is refused.
#include "draw/shade/raster_plan.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/pipeline_stages.hpp"
#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/extend/stage.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "support/pass_on.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace drawpipe;
using drawpipe::test::PassOn;

namespace {

constexpr uint32_t kRestart = 0xFFFFFFFFu;

// A decomposed primitive: its vertices' position and varyings (the header is the middle
// end's bookkeeping, not the stages' output).
using Dumped = std::vector<uint32_t>;

void dump(std::vector<Dumped>& out, Prim prim, Provoking pv, const VertexView& v,
          std::span<const uint32_t> elts) {
    for_each_rasterized(prim, pv, uint32_t(elts.size()), [&](uint32_t n, const uint32_t* pos) {
        Dumped d{n};
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t* r = v.vertex(elts[pos[i]]);
            d.insert(d.end(), r + SLOT_POSITION, r + v.stride);
        }
        out.push_back(std::move(d));
    });
}

// What a Context with the raster state hands its backend.
class Primitives final : public Backend {
  public:
    std::vector<Dumped> prims;
    void begin_draw(const DrawInfo& draw, const VertexLayout&) override { pv_ = draw.provoking; }
    void draw_elements(Prim prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        dump(prims, prim, pv_, v, elts);
    }

  private:
    Provoking pv_ = Provoking::last;
};

// What a Context without a raster state hands its backend: the middle end's batches, clip-space
// positions, as a driver's own vertex stage would make them.
class Batches final : public Backend {
  public:
    std::vector<ShadedBatch> batches;
    VertexLayout layout;
    void begin_draw(const DrawInfo&, const VertexLayout& l) override { layout = l; }
    void draw_elements(Prim prim, uint8_t flags, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        const std::vector<uint32_t> records(v.data, v.data + size_t(v.count) * v.stride);
        // Ranges of one batch arrive one after the other over the same records.
        if (batches.empty() || batches.back().vertex_count != v.count ||
            !std::equal(records.begin(), records.end(), batches.back().vertices.begin())) {
            batches.emplace_back();
            batches.back().vertices.assign(records.begin(), records.end());
            batches.back().vertex_count = v.count;
        }
        ShadedBatch& b = batches.back();
        b.prims.push_back({prim, flags, uint32_t(b.elts.size()), uint32_t(elts.size())});
        b.elts.insert(b.elts.end(), elts.begin(), elts.end());
    }
};

struct Scene {
    Prim prim = Prim::triangles;
    Provoking pv = Provoking::last;
    std::vector<uint32_t> indices;
    std::vector<float> positions, colors; // float4 per vertex
    RasterState raster;
};

// Random primitives, many vertices outside the view (some behind the eye), restart runs, and a
// random state of every stage PipelineStages runs.
Scene random_scene(std::mt19937& rng, Prim prim) {
    Scene s;
    s.prim = prim;
    s.pv = rng() % 2 ? Provoking::first : Provoking::last;
    const uint32_t vertices = 48;
    for (uint32_t i = 0, n = 20 + rng() % 200; i < n; ++i)
        s.indices.push_back(rng() % 61 == 0 ? kRestart : rng() % vertices);
    for (uint32_t v = 0; v < vertices; ++v) {
        for (int c = 0; c < 3; ++c)
            s.positions.push_back(1.6f * (float(rng() % 2001) / 1000.0f - 1.0f));
        s.positions.push_back(rng() % 13 == 0 ? -0.5f : 0.5f + float(rng() % 100) / 100.0f);
        for (int c = 0; c < 3; ++c) s.colors.push_back(float(rng() % 9) / 8.0f);
        s.colors.push_back(1.0f);
    }
    RasterState& r = s.raster;
    r.viewport = {float(rng() % 9), float(rng() % 9), 64, 48, 0, 1};
    r.cull = CullFace(rng() % 4);
    r.front_face = rng() % 2 ? FrontFace::ccw : FrontFace::cw;
    r.flatshade = rng() % 3 == 0;
    r.depth_clamp = rng() % 4 == 0;
    r.clip_depth = rng() % 4 == 0 ? ClipDepth::zero_to_one : ClipDepth::negative_one_to_one;
    if (rng() % 3 == 0) {
        r.clip_plane_enable = 1;
        r.clip_planes[0] = {1, 0.5f, 0, 0.25f};
    }
    if (rng() % 4 == 0) r.front_mode = PolygonMode(rng() % 3);
    if (rng() % 4 == 0) r.back_mode = PolygonMode(rng() % 3);
    if (rng() % 4 == 0) {
        r.offset_fill = r.offset_line = true;
        r.offset_factor = 1.0f;
        r.offset_units = 2.0f;
    }
    if (rng() % 4 == 0) r.line_width = float(1 + rng() % 4);
    if (rng() % 4 == 0) r.point_size = float(1 + rng() % 4);
    if (rng() % 3 == 0) {
        r.line_stipple = true;
        r.stipple_factor = 1 + rng() % 3;
        r.stipple_pattern = uint16_t(rng() | 1);
    }
    return s;
}

void draw(const Scene& s, const RasterState* raster, Stage* stage, Backend& backend) {
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
    o.threads = 1;
    o.inline_below = 0;
    o.draw.max_vertices = 32; // several batches per draw
    Context ctx(o);
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    if (raster) ctx.set_raster_state(*raster);
    if (stage) ctx.add_stage(*stage);
    ctx.draw(d);
    ctx.flush();
}

// The driver's side: each batch through its own per-vertex step (here the draw module's, so
// that the positions are the ones Context's stages start from), then PipelineStages.
struct DriverRun {
    std::vector<Dumped> prims;
    std::vector<std::vector<uint32_t>> new_records; // per batch, the records the stages made
};

// With `in_order`, the batches through it (one draw in order) instead of run().
DriverRun run_stages(const Scene& s, std::vector<ShadedBatch> batches, const VertexLayout& layout,
                     const PipelineStages& stages, PipelineStages::InOrder* in_order = nullptr) {
    const auto plan = plan_raster(s.raster, layout, false);
    DriverRun out;
    StagedLists lists;
    for (ShadedBatch& b : batches) {
        ClipResults clip;
        post_shade(*plan, b, clip);
        const uint32_t own = b.vertex_count;
        if (in_order)
            in_order->run(b, clip, lists);
        else
            stages.run(b, clip, lists);
        EXPECT_EQ(b.vertex_count, own);
        EXPECT_GE(lists.vertex_count, lists.ranges.empty() ? 0 : own);
        const uint32_t stride = layout.stride();
        EXPECT_GE(b.vertices.size(), size_t(lists.vertex_count) * stride);
        const VertexView view{b.vertices.data(), lists.vertex_count, stride};
        for (const StagedRange& r : lists.ranges) {
            const std::span<const uint32_t> elts(lists.elts.data() + r.first, r.count);
            for (const uint32_t e : elts) EXPECT_LT(e, lists.vertex_count);
            dump(out.prims, r.prim, s.pv, view, elts);
        }
        out.new_records.emplace_back(
            b.vertices.begin() + std::ptrdiff_t(own) * stride,
            b.vertices.begin() + std::ptrdiff_t(std::max(lists.vertex_count, own)) * stride);
    }
    return out;
}

std::string describe(const Scene& s) {
    const RasterState& r = s.raster;
    return std::string(prim_name(s.prim)) + " pv " + std::to_string(int(s.pv)) + " cull " +
           std::to_string(int(r.cull)) + " face " + std::to_string(int(r.front_face)) + " flat " +
           std::to_string(r.flatshade) + " clamp " + std::to_string(r.depth_clamp) + " planes " +
           std::to_string(r.clip_plane_enable) + " modes " + std::to_string(int(r.front_mode)) +
           "/" + std::to_string(int(r.back_mode)) + " offset " + std::to_string(r.offset_fill) +
           " width " + std::to_string(r.line_width) + " size " + std::to_string(r.point_size) +
           " stipple " + std::to_string(r.line_stipple);
}

// Whether the scene's primitives carry a stipple pattern on from one to the next (line strips
// and loops; polygons, quads and quad strips drawn as edges), which PipelineStages refuses.
bool pattern_runs_on(const Scene& s) {
    const RasterState& r = s.raster;
    const bool edges = r.front_mode == PolygonMode::line || r.back_mode == PolygonMode::line;
    return r.line_stipple && (s.prim == Prim::line_strip || s.prim == Prim::line_loop ||
                              (edges && (s.prim == Prim::polygon || s.prim == Prim::quads ||
                                         s.prim == Prim::quad_strip)));
}

const Prim kPrims[] = {Prim::points,       Prim::lines,           Prim::line_strip,
                       Prim::line_loop,    Prim::triangles,       Prim::triangle_strip,
                       Prim::triangle_fan, Prim::quads,           Prim::quad_strip,
                       Prim::polygon,      Prim::lines_adjacency, Prim::triangles_adjacency};

} // namespace

// The property: for every primitive type and a random state, the driver's batches through
// PipelineStages give the primitives Context gives, vertex records equal dword for dword. With
// line stipple, primitives whose pattern runs on from one to the next are refused instead, and
// give Context's primitives through an InOrder (twice: begin() starts the pattern afresh).
TEST(PipelineStages, GiveWhatContextsPipelineGivesForTheSameBatches) {
    std::mt19937 rng(40);
    uint64_t clipped = 0, stippled = 0, refused = 0, in_order = 0;
    for (const Prim prim : kPrims)
        for (int round = 0; round < 12; ++round) {
            const Scene s = random_scene(rng, prim);
            PassOn pass;
            Primitives want;
            draw(s, &s.raster, &pass, want);
            Batches shaded;
            draw(s, nullptr, nullptr, shaded);
            ASSERT_FALSE(shaded.batches.empty()) << describe(s);
            const PipelineStages stages(s.raster, shaded.layout, s.pv);
            DriverRun got;
            try {
                got = run_stages(s, shaded.batches, shaded.layout, stages);
            } catch (const Error& e) {
                ASSERT_EQ(e.code(), ErrorCode::unsupported) << describe(s) << ": " << e.what();
                ASSERT_TRUE(pattern_runs_on(s)) << describe(s) << ": " << e.what();
                ++refused;
                PipelineStages::InOrder order(stages);
                for (int again = 0; again < 2; ++again) {
                    order.begin();
                    got = run_stages(s, shaded.batches, shaded.layout, stages, &order);
                    ASSERT_EQ(got.prims.size(), want.prims.size()) << describe(s);
                    for (size_t i = 0; i < want.prims.size(); ++i)
                        ASSERT_EQ(got.prims[i], want.prims[i]) << describe(s) << " primitive " << i;
                }
                in_order += shaded.batches.size() > 1;
                continue;
            }
            stippled += s.raster.line_stipple ? 1 : 0;
            ASSERT_EQ(got.prims.size(), want.prims.size()) << describe(s);
            for (size_t i = 0; i < want.prims.size(); ++i)
                ASSERT_EQ(got.prims[i], want.prims[i]) << describe(s) << " primitive " << i;
            for (const auto& r : got.new_records) clipped += r.empty() ? 0 : 1;
        }
    EXPECT_GT(clipped, 20u); // the scenes do clip
    EXPECT_GT(stippled, 10u);
    EXPECT_GT(refused, 0u);
    EXPECT_GT(in_order, 0u); // draws of several batches whose pattern ran on between them
}

// A driver's own viewport transform: the state's own transform changes nothing; another one
// moves the vertices clipping makes (and only those: the driver placed its own).
TEST(PipelineStages, TheDriversViewportTransformPlacesTheVerticesClippingMakes) {
    std::mt19937 rng(7);
    Scene s = random_scene(rng, Prim::triangles);
    s.raster = {};
    s.raster.viewport = {4, 2, 64, 48, 0, 1};
    Batches shaded;
    draw(s, nullptr, nullptr, shaded);
    PipelineStages stages(s.raster, shaded.layout, s.pv);
    const DriverRun base = run_stages(s, shaded.batches, shaded.layout, stages);
    stages.set_viewport_transform(0, {32, 24, 0.5f}, {36, 26, 0.5f}); // the state's own
    const DriverRun same = run_stages(s, shaded.batches, shaded.layout, stages);
    EXPECT_EQ(same.prims, base.prims);
    stages.set_viewport_transform(0, {32, 24, 0.5f}, {46, 26, 0.5f}); // 10 pixels right
    const DriverRun moved = run_stages(s, shaded.batches, shaded.layout, stages);
    const uint32_t stride = shaded.layout.stride();
    size_t made = 0;
    ASSERT_EQ(moved.new_records.size(), base.new_records.size());
    for (size_t b = 0; b < base.new_records.size(); ++b) {
        ASSERT_EQ(moved.new_records[b].size(), base.new_records[b].size());
        for (size_t r = 0; r < base.new_records[b].size(); r += stride) {
            const float x0 = dword_float(base.new_records[b][r + SLOT_POSITION]);
            const float x1 = dword_float(moved.new_records[b][r + SLOT_POSITION]);
            EXPECT_NEAR(x1 - x0, 10.0f, 1e-3f);
            ++made;
        }
    }
    EXPECT_GT(made, 10u);
}

// Batches on several threads at once give what they give one after another (each thread runs
// its own chain).
TEST(PipelineStages, BatchesRunOnSeveralThreadsAtOnce) {
    std::mt19937 rng(11);
    Scene s = random_scene(rng, Prim::triangle_strip);
    s.indices.resize(2000);
    for (uint32_t& i : s.indices) i = rng() % 48;
    Batches shaded;
    draw(s, nullptr, nullptr, shaded);
    const PipelineStages stages(s.raster, shaded.layout, s.pv);
    const DriverRun one = run_stages(s, shaded.batches, shaded.layout, stages);
    std::vector<DriverRun> parts(4);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < parts.size(); ++t)
        threads.emplace_back([&, t] {
            std::vector<ShadedBatch> mine;
            for (size_t b = t; b < shaded.batches.size(); b += parts.size())
                mine.push_back(shaded.batches[b]);
            parts[t] = run_stages(s, mine, shaded.layout, stages);
        });
    for (std::thread& t : threads) t.join();
    // Batch b's primitives are in part b % 4, in order; rebuild the sequence batch by batch.
    std::vector<Dumped> all;
    std::vector<size_t> at(parts.size(), 0);
    for (size_t b = 0; b < shaded.batches.size(); ++b) {
        std::vector<ShadedBatch> just{shaded.batches[b]};
        const size_t n = run_stages(s, just, shaded.layout, stages).prims.size();
        DriverRun& p = parts[b % parts.size()];
        all.insert(all.end(), p.prims.begin() + std::ptrdiff_t(at[b % parts.size()]),
                   p.prims.begin() + std::ptrdiff_t(at[b % parts.size()] + n));
        at[b % parts.size()] += n;
    }
    EXPECT_EQ(all, one.prims);
    EXPECT_GT(shaded.batches.size(), 8u);
}

TEST(PipelineStages, RefuseAViewportPastTheLimit) {
    VertexLayout layout;
    RasterState r;
    r.viewport = {0, 0, 8, 8, 0, 1};
    PipelineStages stages(r, layout, Provoking::last);
    EXPECT_THROW(stages.set_viewport_transform(kMaxViewports, {1, 1, 1}, {0, 0, 0}), Error);
    r.line_width = 0; // what set_raster_state rejects, this rejects
    EXPECT_THROW(PipelineStages(r, layout, Provoking::last), Error);
}
