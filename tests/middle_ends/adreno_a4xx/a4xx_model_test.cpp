// Golden checks of the A4xx GS model's hardware-facing words: the r0.x header, the
// prim_info words of library shaders, and local-memory addresses
// (middle_ends/adreno_a4xx/README.md).
#include "drawpipe/limits.hpp"
#include "middle_ends/adreno_a4xx/a4xx_gs.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace drawpipe::a4xx {
namespace {

TEST(A4xxR0x, GoldenPacking) {
    EXPECT_EQ(pack_r0x({0, 0, 0}), 0u);
    EXPECT_EQ(pack_r0x({1, 0, 0}), 0x1u);
    EXPECT_EQ(pack_r0x({0, 1, 0}), 0x400u);  // invocation at bit 10
    EXPECT_EQ(pack_r0x({0, 0, 1}), 0x8000u); // vertex at bit 15
    EXPECT_EQ(pack_r0x({5, 3, 17}), 0x88C05u);
    EXPECT_EQ(pack_r0x({31, 31, 1023}), 0x1FFFC1Fu); // bits 5-9 and 25-31 stay clear
}

TEST(A4xxR0x, RoundTripsEveryField) {
    for (uint32_t slot = 0; slot < 32; ++slot)
        for (uint32_t inv = 0; inv < 32; ++inv)
            for (uint32_t v = 0; v < 1024; ++v) {
                const uint32_t w = pack_r0x({slot, inv, v});
                const R0x f = unpack_r0x(w);
                ASSERT_EQ(f.prim_slot, slot);
                ASSERT_EQ(f.invocation, inv);
                ASSERT_EQ(f.vertex, v);
                ASSERT_EQ(w & ~0x1FFFC1Fu, 0u);
            }
}

TEST(A4xxLocalMemory, TriangleAddresses) {
    // Wiki: positions 0x00-0xBF, generic varying 0 at 0xC0, 0xD0, 0xE0, varying 1 at 0xF0.
    EXPECT_EQ(lm_position_offset(2), 0x80u); // c12.x in the captured shader
    EXPECT_EQ(lm_varying_offset(3, 0, 0), 0xC0u);
    EXPECT_EQ(lm_varying_offset(3, 0, 1), 0xD0u);
    EXPECT_EQ(lm_varying_offset(3, 0, 2), 0xE0u);
    EXPECT_EQ(lm_varying_offset(3, 1, 0), 0xF0u);
    EXPECT_EQ(lm_varying_offset(3, 1, 2), 0x110u);
    EXPECT_EQ(lm_prim_stride(3, 0), 0xC0u); // c9.x: triangles with no varyings
    EXPECT_EQ(lm_prim_stride(3, 2), 0x120u);
    // Record dwords: ids -> system block +0x20, position -> +0x00, attribute a -> varying a.
    EXPECT_EQ(lm_record_offset(3, 1, 1, SLOT_VERTEX_ID), 0x60u);
    EXPECT_EQ(lm_record_offset(3, 1, 1, SLOT_INSTANCE_ID), 0x64u);
    EXPECT_EQ(lm_record_offset(3, 1, 2, SLOT_POSITION + 1), 0x84u);
    EXPECT_EQ(lm_record_offset(3, 1, 0, kVertexHeaderDwords + 3), 0xCCu);
    EXPECT_EQ(lm_record_offset(3, 1, 2, kVertexHeaderDwords), 0xE0u);
    EXPECT_EQ(lm_record_offset(3, 1, 0, kVertexHeaderDwords + 4), ~0u); // no attribute 1
    // The staged memory itself: a triangle without attributes takes c9.x = 0xC0 bytes, and
    // with one attribute its vertices' values sit at 0xC0, 0xD0, 0xE0 of the primitive.
    LocalMemory lm;
    lm.configure(3, 0);
    EXPECT_EQ(lm.prim_stride(), 0xC0u);
    lm.configure(3, 1);
    EXPECT_EQ(lm.prim_stride(), 0xF0u);
    std::vector<std::vector<uint32_t>> rec(3, std::vector<uint32_t>(kVertexHeaderDwords + 4));
    std::vector<const uint32_t*> ptr;
    for (uint32_t v = 0; v < 3; ++v) {
        rec[v][kVertexHeaderDwords] = 500 + v;
        ptr.push_back(rec[v].data());
    }
    lm.stage(0, ptr);
    EXPECT_EQ(lm.load(0xC0), 500u);
    EXPECT_EQ(lm.load(0xD0), 501u);
    EXPECT_EQ(lm.load(0xE0), 502u);
}

TEST(A4xxLocalMemory, TrianglesAdjacencyAddresses) {
    EXPECT_EQ(lm_position_offset(5), 0x140u);
    EXPECT_EQ(lm_varying_offset(6, 0, 0), 0x180u);
    EXPECT_EQ(lm_varying_offset(6, 0, 5), 0x1D0u);
    EXPECT_EQ(lm_varying_offset(6, 1, 0), 0x1E0u);
    EXPECT_EQ(lm_varying_offset(6, 2, 3), 0x270u);
    EXPECT_EQ(lm_prim_stride(6, 1), 0x1E0u);
}

// Staged records land at the documented addresses of their slot, and the point size 1.0
// sits at +0x10 of each vertex's system block.
TEST(A4xxLocalMemory, StagingFollowsTheLayout) {
    for (uint32_t V : {3u, 6u}) {
        const uint32_t attribs = 2, dwords = kVertexHeaderDwords + 4 * attribs;
        std::vector<std::vector<uint32_t>> rec(V, std::vector<uint32_t>(dwords));
        std::vector<const uint32_t*> ptr;
        for (uint32_t v = 0; v < V; ++v) {
            for (uint32_t s = 0; s < dwords; ++s) rec[v][s] = 1000 * v + s + 1;
            ptr.push_back(rec[v].data());
        }
        LocalMemory lm;
        lm.configure(V, attribs);
        ASSERT_EQ(lm.prim_stride(), 0x40 * V + attribs * 0x10 * V);
        const uint32_t slot = 7, base = slot * lm.prim_stride();
        lm.stage(slot, ptr);
        for (uint32_t v = 0; v < V; ++v) {
            for (uint32_t c = 0; c < 4; ++c) {
                EXPECT_EQ(lm.load(base + 0x40 * v + 4 * c), rec[v][SLOT_POSITION + c]);
                EXPECT_EQ(lm.load(base + 0x40 * v + 0x20 + 4 * c), rec[v][c]); // ids
                for (uint32_t a = 0; a < attribs; ++a)
                    EXPECT_EQ(lm.load(base + 0x40 * V + a * 0x10 * V + 0x10 * v + 4 * c),
                              rec[v][kVertexHeaderDwords + 4 * a + c]);
            }
            EXPECT_EQ(lm.load(base + 0x40 * v + 0x10), 0x3F800000u);
        }
        EXPECT_EQ(lm.load(0), 0u); // slot 0 untouched
    }
}

// Runs the whole sequence of one input primitive (vertex ids 10, 11, 12) for invocation
// `inv`, staged in slot 3: the prim_info word of every launch up to the kill (0xFFFFFFFF marks
// it).
std::vector<uint32_t> prim_infos(const GeometryShader& gs, uint32_t inv, Mode mode) {
    const uint32_t V = gs_input_vertices(gs.input);
    std::vector<std::vector<uint32_t>> rec(V, std::vector<uint32_t>(kVertexHeaderDwords));
    std::vector<const uint32_t*> ptr;
    for (uint32_t v = 0; v < V; ++v) {
        rec[v][SLOT_VERTEX_ID] = 10 + v;
        ptr.push_back(rec[v].data());
    }
    LocalMemory lm;
    lm.configure(V, 0);
    lm.stage(3, ptr);
    std::vector<uint32_t> out;
    for (uint32_t k = 0; k < gs.max_vertices; ++k) {
        const LaunchResult r = launch_once(gs, mode, lm, pack_r0x({3, inv, k}), 0, -1);
        if (r.killed) {
            out.push_back(0xFFFFFFFFu);
            break;
        }
        out.push_back(r.prim_info);
    }
    return out;
}

TEST(A4xxPrimInfo, GoldenWords) {
    using V = std::vector<uint32_t>;
    for (Mode mode : {Mode::naive, Mode::switch_rewrite}) {
        // New primitive at vertex 0 and after each end_primitive (vertices 4 and 6).
        EXPECT_EQ(prim_infos(find_gs("strip_cut_middle"), 0, mode), (V{4, 0, 0, 0, 4, 0, 4, 0, 0}));
        // Layer c at bit 7: 4 | c << 7 starts each copy.
        EXPECT_EQ(prim_infos(find_gs("amplify3_layer"), 0, mode),
                  (V{4, 0, 0, 132, 128, 128, 260, 256, 256}));
        for (uint32_t inv = 0; inv < 4; ++inv)
            EXPECT_EQ(prim_infos(find_gs("invocations4"), inv, mode),
                      (V{4 | inv << 7, inv << 7, inv << 7}));
        // 43 vertices of 64: the 44th launch kills.
        const V cuts = prim_infos(find_gs("many_cuts64"), 0, mode);
        ASSERT_EQ(cuts.size(), 44u);
        EXPECT_EQ(cuts.back(), 0xFFFFFFFFu);
        for (uint32_t n = 0; n < 43; ++n) EXPECT_EQ(cuts[n], n % 5 == 0 ? 4u : 0u) << n;
        // Two ends before the first emit and two after the last change nothing.
        EXPECT_EQ(prim_infos(find_gs("endprim_before_emit"), 0, mode), (V{4, 0, 0, 0, 0}));
        // Points to two streams: the stream sits in bits 0-1.
        EXPECT_EQ(prim_infos(find_gs("streams2"), 0, mode), (V{4, 1}));
    }
}

TEST(A4xxPrimInfo, ViewportAndLayerFields) {
    EXPECT_EQ(pack_prim_info(true, 0, 0, 1), 0xCu);
    EXPECT_EQ(pack_prim_info(false, 2, 5, 15), 2u | 15u << 3 | 5u << 7);
    const uint32_t w = pack_prim_info(true, 3, 2047, 9);
    EXPECT_EQ(prim_info_layer(w), 2047u);
    EXPECT_EQ(prim_info_viewport(w), 9u);
    EXPECT_EQ(prim_info_stream(w), 3u);
    EXPECT_TRUE(prim_info_new_prim(w));
}

// A launch sees its inputs through r0.x and r0.y only: the shader's loads use the slot r0.x
// names, primitive_id_in is r0.y and invocation_id is r0.x bits 10-14.
TEST(A4xxLaunch, InputsComeFromR0AndLocalMemory) {
    GeometryShader gs;
    gs.name = "probe";
    gs.input = Prim::triangles;
    gs.output = Prim::points;
    gs.max_vertices = 1;
    gs.main = [](GsContext& ctx) {
        ctx.emit_vertex(
            {.id = ctx.vertex_id(2) * 100000 + ctx.primitive_id_in() * 100 + ctx.invocation_id()});
    };
    LocalMemory lm;
    lm.configure(3, 0);
    for (uint32_t slot = 0; slot < kPrimSlots; ++slot) {
        uint32_t rec[3][kVertexHeaderDwords] = {};
        for (uint32_t v = 0; v < 3; ++v) rec[v][SLOT_VERTEX_ID] = slot * 3 + v;
        const uint32_t* ptr[3] = {rec[0], rec[1], rec[2]};
        lm.stage(slot, ptr);
    }
    const LaunchResult r = launch_once(gs, Mode::naive, lm, pack_r0x({9, 6, 0}), 42, -1);
    EXPECT_FALSE(r.killed);
    EXPECT_EQ(r.out.id, (9u * 3 + 2) * 100000 + 4200 + 6);
    EXPECT_TRUE(launch_once(gs, Mode::naive, lm, pack_r0x({9, 6, 1}), 42, -1).killed);
}

// A switch-rewritten launch executes only its own vertex's code: a value loaded before an
// earlier emit is not there, which is why the form needs independent_vertices.
TEST(A4xxLaunch, SwitchLaunchSkipsOtherVerticesCode) {
    GeometryShader gs;
    gs.name = "hoisted";
    gs.input = Prim::points;
    gs.output = Prim::points;
    gs.max_vertices = 2;
    gs.main = [](GsContext& ctx) {
        const uint32_t vid = ctx.vertex_id(0); // hoisted out of the per-vertex code
        ctx.emit_vertex({.id = vid});
        ctx.emit_vertex({.id = vid + 1});
    };
    uint32_t rec[kVertexHeaderDwords] = {50};
    const uint32_t* ptr[1] = {rec};
    LocalMemory lm;
    lm.configure(1, 0);
    lm.stage(0, ptr);
    EXPECT_EQ(launch_once(gs, Mode::naive, lm, pack_r0x({0, 0, 1}), 0, -1).out.id, 51u);
    EXPECT_EQ(launch_once(gs, Mode::switch_rewrite, lm, pack_r0x({0, 0, 0}), 0, -1).out.id, 50u);
    EXPECT_EQ(launch_once(gs, Mode::switch_rewrite, lm, pack_r0x({0, 0, 1}), 0, -1).out.id, 1u);
}

// Shader steps: a naive launch executes everything up to its vertex, a switch-rewritten launch
// only the calls since the previous emit. many_cuts64 makes, per vertex n, one load (the
// instance id) and one emit, plus an end after n = 4, 9, ..., 39 (8 ends), 94 calls in all.
TEST(A4xxLaunch, StepCountsForManyCuts) {
    const GeometryShader& gs = find_gs("many_cuts64");
    uint32_t rec[3][kVertexHeaderDwords] = {};
    const uint32_t* ptr[3] = {rec[0], rec[1], rec[2]};
    LocalMemory lm;
    lm.configure(3, 0);
    lm.stage(0, ptr);
    for (Mode mode : {Mode::naive, Mode::switch_rewrite}) {
        uint64_t naive = 0, sw = 0, launches = 0;
        for (uint32_t k = 0; k < gs.max_vertices; ++k) {
            const LaunchResult r = launch_once(gs, mode, lm, pack_r0x({0, 0, k}), 0, -1);
            naive += r.steps_naive;
            sw += r.steps_switch;
            ++launches;
            if (r.killed) break;
        }
        EXPECT_EQ(launches, 44u);
        // Launch k (k < 43): 2 (k + 1) + floor(k / 5) calls; the kill launch: 94 + 1.
        EXPECT_EQ(naive, 2056u + 95u);
        // Every call once, plus the kill.
        EXPECT_EQ(sw, 94u + 1u);
    }
}

} // namespace
} // namespace drawpipe::a4xx
