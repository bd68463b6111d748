// Property: random EmitVertex / EndPrimitive sequences under random max_vertices (1-256),
// written through the gen7 URB model and read back by the fixed-function side, give the
// strips (or per-stream points) a plain GL-semantics strip builder gives, and on stream 0
// what the GL reference executor (<drawpipe/extend/gs_executor.hpp>) gives for the same sequence.
#include "drawpipe/extend/gs_executor.hpp"
#include "support/gen7_urb_script.hpp"

#include <gtest/gtest.h>

#include <random>

namespace drawpipe::test {
namespace {

using Strips = std::vector<std::vector<uint32_t>>; // per strip, the emit ordinals

// GL: an emit appends to its stream's strip, EndPrimitive closes it, strips too short for
// one primitive vanish; emits past max_vertices (over the counted streams) are dropped.
std::vector<Strips> gl_strips(Prim output, uint32_t max_vertices,
                              const std::vector<GsEvent>& events, bool count_other_streams) {
    const uint32_t min = output == Prim::points ? 1 : output == Prim::line_strip ? 2 : 3;
    std::vector<Strips> done(4);
    std::vector<std::vector<uint32_t>> open(4);
    auto close = [&](uint32_t s) {
        if (open[s].size() >= min) done[s].push_back(open[s]);
        open[s].clear();
    };
    uint32_t emitted = 0, k = 0;
    for (const GsEvent& e : events) {
        if (!e.emit) {
            if (output != Prim::points) close(e.stream);
            continue;
        }
        const uint32_t ordinal = k++;
        if (e.stream != 0 && !count_other_streams) continue;
        if (emitted == max_vertices) continue;
        ++emitted;
        open[e.stream].push_back(ordinal);
        if (output == Prim::points) close(e.stream);
    }
    for (uint32_t s = 0; s < 4; ++s) close(s);
    return done;
}

std::vector<Strips> urb_strips(const gen7::GsProgram& p, const gen7::UrbEntry& entry) {
    std::vector<gen7::OutputRun> runs;
    gen7::read_output_runs(p, entry, runs);
    std::vector<Strips> out(4);
    std::vector<uint32_t> vue(p.desc.vue_slots * 4);
    for (const auto& r : runs) {
        std::vector<uint32_t> ids;
        for (uint32_t n = r.first; n < r.first + r.count; ++n) {
            gen7::read_vertex(p, entry, n, vue);
            EXPECT_EQ(vue.back(), ~vue.front()); // the whole VUE came back
            ids.push_back(vue.front());
        }
        if (p.desc.output == Prim::points) // one run of points is many points
            for (uint32_t id : ids) out[r.stream].push_back({id});
        else
            out[r.stream].push_back(ids);
    }
    return out;
}

// The GL reference executor running the script as a points-in shader: its stream-0 strips,
// as emit ordinals (the `id` of each vertex).
Strips reference_strips(const gen7::GsDesc& d, const std::vector<GsEvent>& events) {
    GeometryShader gs;
    gs.name = "script";
    gs.input = Prim::points;
    gs.output = d.output;
    gs.max_vertices = d.max_vertices;
    gs.streams = d.output == Prim::points ? 4 : 1;
    gs.main = [&](GsContext& ctx) {
        uint32_t k = 0;
        for (const GsEvent& e : events) {
            if (!e.emit) {
                ctx.end_stream_primitive(e.stream);
                continue;
            }
            GsOutput o;
            o.id = k++;
            ctx.emit_stream_vertex(e.stream, o);
        }
    };
    const std::vector<uint32_t> record(kVertexHeaderDwords, 0);
    const uint32_t* inputs[1] = {record.data()};
    ShadedBatch out;
    GsStripWriter writer(gs, out);
    GsStats stats;
    execute_gs_reference(gs, inputs, kVertexHeaderDwords, 0, writer, stats);
    const uint32_t stride = gs_output_layout(gs).stride();
    Strips strips;
    for (const PrimRange& r : out.prims) {
        std::vector<uint32_t> ids;
        for (uint32_t i = r.first; i < r.first + r.count; ++i)
            ids.push_back(out.vertices[size_t(out.elts[i]) * stride + SLOT_GS_ID]);
        if (d.output == Prim::points)
            for (uint32_t id : ids) strips.push_back({id});
        else
            strips.push_back(ids);
    }
    return strips;
}

uint32_t pick_max_vertices(std::mt19937& rng) {
    // Half the time a batch edge or its neighbour, otherwise anything in 1..256.
    static const uint32_t edges[] = {1,  2,  15, 16,  17,  31,  32,  33,
                                     63, 64, 65, 127, 128, 129, 255, 256};
    if (rng() % 2) return edges[rng() % std::size(edges)];
    return 1 + rng() % 256;
}

TEST(Gen7UrbProperty, RandomSequencesMatchGlStrips) {
    std::mt19937 rng(20240607);
    gen7::UrbEntry entry;
    uint64_t checked = 0, header_writes_seen = 0, reference_checked = 0;
    for (int iter = 0; iter < 30000; ++iter) {
        gen7::GsDesc d;
        const uint32_t kind = rng() % 3;
        d.output = kind == 0 ? Prim::points : kind == 1 ? Prim::line_strip : Prim::triangle_strip;
        d.max_vertices = pick_max_vertices(rng);
        d.vue_slots = 1 + rng() % 3;
        if (d.output == Prim::points) d.stream_mask = 1 + rng() % 15;
        d.stream_output = rng() % 4 != 0;
        // Emit up to a little past max_vertices, cutting often, sometimes at batch edges.
        const uint32_t cut_every = 1 + rng() % 40;
        const uint32_t length = rng() % (d.max_vertices + 8);
        std::vector<GsEvent> events;
        bool any_cut = false;
        for (uint32_t i = 0; i < length; ++i) {
            if (rng() % cut_every == 0 || (i % 32 == 0 && rng() % 3 == 0)) {
                events.push_back(cut_on(0));
                any_cut = true;
                if (rng() % 4 == 0) events.push_back(cut_on(0)); // twice in a row
            }
            uint32_t stream = 0;
            if (d.output == Prim::points && d.stream_mask != 1) {
                do stream = rng() % 4;
                while (!(d.stream_mask & (1u << stream)));
            }
            events.push_back(emit_on(stream));
        }
        if (rng() % 2) events.push_back(cut_on(0));
        // A shader that never calls EndPrimitive may be compiled without cut bits.
        d.uses_end_primitive = any_cut || rng() % 2;
        if (!d.uses_end_primitive) std::erase_if(events, [](const GsEvent& e) { return !e.emit; });

        const gen7::GsProgram p = gen7::compile_gs(d);
        run_script(p, events, entry);
        const auto want = gl_strips(d.output, d.max_vertices, events, d.stream_output);
        const auto got = urb_strips(p, entry);
        ASSERT_EQ(got, want) << "iteration " << iter << " max_vertices " << d.max_vertices
                             << " output " << prim_name(d.output);
        // With stream output on, vertices of every stream count toward max_vertices as in
        // GL. Off, Haswell drops stream > 0 vertices uncounted (README, gen7 section).
        if (d.stream_output) {
            ASSERT_EQ(got[0], reference_strips(d, events))
                << "iteration " << iter << " max_vertices " << d.max_vertices << " output "
                << prim_name(d.output);
            ++reference_checked;
        }

        // Write invariants: one vertex write per counted vertex; header DWORD batches are
        // written once each, in order, never carrying the uninitialised register.
        const uint32_t count = entry.vertex_count();
        ASSERT_EQ(vertex_write_count(entry), count);
        const auto hw = header_writes(entry);
        uint32_t expect_hw = 0;
        if (p.bits_per_vertex && count)
            expect_hw = p.batched() ? (count - 1) / p.vertices_per_dword() + 1 : 1;
        ASSERT_EQ(hw.size(), expect_hw);
        for (size_t i = 0; i < hw.size(); ++i) {
            if (p.batched()) {
                ASSERT_EQ(hw[i].dword_index, i);
            }
            ASSERT_NE(hw[i].data, gen7::kUninitialisedBits);
            ASSERT_LE(hw[i].byte_offset + hw[i].byte_count, 32 * p.header_hwords);
        }
        header_writes_seen += hw.size();
        ++checked;
    }
    EXPECT_EQ(checked, 30000u);
    EXPECT_GT(reference_checked, 20000u);
    EXPECT_GT(header_writes_seen, 30000u);
}

} // namespace
} // namespace drawpipe::test
