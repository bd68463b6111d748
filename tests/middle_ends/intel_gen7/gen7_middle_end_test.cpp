// The gen7 middle end against the GL reference executor (fetch_shade with the GS) and the
// independent GS oracle: every library shader, random draws with restart, instancing and
// splitting; plus the headers real library shaders leave in their URB entries.
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "support/gs_oracle.hpp"
#include "support/gs_trace_util.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace drawpipe {
namespace {

using gen7::Gen7MiddleEnd;
using test::gs_trace_with;

std::vector<Prim> feeding_prims(Prim gs_input) {
    std::vector<Prim> out;
    for (int p = 0; p < test::kPrimsWithoutTess; ++p)
        if (gs_input_compatible(Prim(p), gs_input)) out.push_back(Prim(p));
    return out;
}

Strategy random_strategy(std::mt19937& rng) {
    static const char* names[] = {"distinct", "vsplit", "direct-64", "exact", "none"};
    return *Strategy::parse(names[rng() % 5]);
}

TEST(Gen7MiddleEnd, LibraryShadersMatchReferenceAndOracle) {
    std::mt19937 rng(7007);
    uint64_t draws = 0, nonempty = 0, split_draws = 0;
    for (const GeometryShader& gs : gs_library()) {
        // The oracle models ids only; shaders reading vertex-shader varyings are compared in
        // tests/middle_ends/varyings_test.cpp and against real OpenGL in tests/mesa.
        if (gs.input_varyings > 0) continue;
        const uint32_t per_prim = gs_input_vertices(gs.input);
        for (Prim prim : feeding_prims(gs.input)) {
            for (int iter = 0; iter < 150; ++iter) {
                DrawDesc d = test::random_draw(rng, prim, {.max_count = 90, .max_instances = 3});
                d.gs = gs.name;
                // No limit, the smallest one (one input primitive a segment), or in between.
                const uint32_t pick = rng() % 3;
                const uint32_t limit = pick == 0 ? 0 : pick == 1 ? per_prim : per_prim + rng() % 60;
                const Strategy strategy = random_strategy(rng);
                Gen7MiddleEnd gen7(4096, rng() % 2 == 0);
                FetchShade reference(4096);
                DrawStats gen7_stats, ref_stats;
                const std::string got = gs_trace_with(d, gen7, limit, strategy, &gen7_stats);
                const std::string want = gs_trace_with(d, reference, limit, strategy, &ref_stats);
                ASSERT_EQ(got, want) << gs.name << " limit " << limit << "\n"
                                     << format_draw_text(d);
                ASSERT_EQ(got, test::oracle_gs_trace(d)) << gs.name << "\n" << format_draw_text(d);
                // One thread per invocation the reference ran.
                ASSERT_EQ(gen7_stats.counters[gen7::COUNTER_THREADS],
                          ref_stats.counters[FetchShade::COUNTER_GS_INVOCATIONS]);
                ++draws;
                nonempty += !got.empty();
                split_draws += gen7_stats.front.segments > 1;
            }
        }
    }
    EXPECT_GT(nonempty, draws / 2);
    EXPECT_GT(split_draws, draws / 4);
}

TEST(Gen7MiddleEnd, ProbeFindsEndPrimitive) {
    // From the library's definitions: which shaders contain EndPrimitive().
    const std::map<std::string, bool> cuts = {
        {"passthrough_tri", true},      {"amplify3_layer", true}, {"strip_cut_middle", true},
        {"endprim_before_emit", true},  {"cull_odd", true},       {"many_cuts64", true},
        {"points_out", false},          {"line_strip_out", true}, {"lines_in", false},
        {"lines_adj_in", false},        {"tris_adj_in", true},    {"points_in_quad", false},
        {"invocations4", false},        {"streams2", false},      {"color_tri", true},
        {"color_swizzle_lines", false}, {"streams4", false},      {"viewport_select", true},
        {"color_pair_tri", true},
    };
    for (const GeometryShader& gs : gs_library()) {
        EXPECT_EQ(gen7::probe_uses_end_primitive(gs), cuts.at(gs.name)) << gs.name;
        EXPECT_EQ(gs.uses_end_primitive, cuts.at(gs.name)) << gs.name << " declares it wrongly";
    }
}

TEST(Gen7MiddleEnd, HeaderFormatPerLibraryShader) {
    const VertexLayout layout = gs_output_layout(find_gs("passthrough_tri"));
    auto program = [&](const char* name) { return gen7::compile_for(find_gs(name), layout, true); };
    EXPECT_EQ(program("passthrough_tri").header_bits, 3u);
    EXPECT_EQ(program("many_cuts64").header_bits, 64u);
    EXPECT_EQ(program("lines_in").header_bits, 0u);     // strip shader, never cuts
    EXPECT_EQ(program("invocations4").header_bits, 0u); // ditto
    EXPECT_EQ(program("points_out").header_bits, 0u);   // points, one stream
    EXPECT_EQ(program("streams2").header_bits, 4u);     // points, two streams: 2 × 2
    EXPECT_EQ(program("streams2").format, gen7::ControlDataFormat::sid);
    // Header and position: 8 dwords, one 32-byte hword per vertex.
    EXPECT_EQ(program("many_cuts64").vertex_hwords, 1u);
    EXPECT_EQ(program("many_cuts64").urb_entry_bytes, 32u + 64u * 32u);
    // A colour varying makes 12 dwords: two hwords, every output in the VUE.
    const VertexLayout color = gs_output_layout(find_gs("color_tri"));
    EXPECT_EQ(gen7::compile_for(find_gs("color_tri"), color, true).vertex_hwords, 2u);
}

// Header DWORDs and header writes of every thread of a one-primitive draw.
struct ThreadLog {
    std::vector<std::vector<uint32_t>> headers;
    std::vector<uint32_t> header_writes, vertex_counts;
};

ThreadLog run_logged(const char* gs_name, const char* draw_text, bool stream_output = true) {
    DrawDesc d = parse_draw_text(draw_text);
    d.gs = gs_name;
    ThreadLog log;
    const Gen7MiddleEnd gen7(4096, stream_output, [&](const gen7::ThreadReport& r) {
        std::vector<uint32_t> h;
        for (uint32_t i = 0; i < r.program->header_dwords(); ++i) h.push_back(r.entry->dword(i));
        log.headers.push_back(h);
        uint32_t n = 0;
        for (const auto& w : r.entry->writes()) n += w.kind == gen7::UrbWriteKind::header;
        log.header_writes.push_back(n);
        log.vertex_counts.push_back(r.entry->vertex_count());
    });
    gs_trace_with(d, gen7);
    return log;
}

TEST(Gen7MiddleEnd, LibraryHeadersByHand) {
    // endprim_before_emit: two cuts before vertex 0 set bit 31 (max 5 < 32, harmless), cuts
    // after vertex 4 set bit 4.
    ThreadLog log = run_logged("endprim_before_emit", "prim triangles\ncount 3\n");
    ASSERT_EQ(log.headers.size(), 1u);
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x80000010}));
    EXPECT_EQ(log.header_writes[0], 1u);

    // many_cuts64: 43 vertices, cut after n = 4, 9, ..., 39. DWORD 0: bits 4 9 14 19 24 29;
    // DWORD 1 (vertices 32-42): 34 and 39 are bits 2 and 7. A batch write before vertex 32,
    // the rest at thread end.
    log = run_logged("many_cuts64", "prim triangles\ncount 3\n");
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x21084210, 0x00000084}));
    EXPECT_EQ(log.header_writes[0], 2u);
    EXPECT_EQ(log.vertex_counts[0], 43u);

    // strip_cut_middle: cuts after vertices 3 and 5 (max 9).
    log = run_logged("strip_cut_middle", "prim triangles\ncount 3\n");
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x00000028}));

    // cull_odd: primitive 1 emits nothing, so its thread writes no header at all.
    log = run_logged("cull_odd", "prim triangles\ncount 6\n");
    ASSERT_EQ(log.headers.size(), 2u);
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x4}));
    EXPECT_EQ(log.header_writes[1], 0u);
    EXPECT_EQ(log.headers[1][0], gen7::UrbEntry::kUnwritten);

    // streams2: vertex 1 goes to stream 1: bits 3:2 = 01. Without stream output it is
    // dropped in the thread, and the all-zero header holds stream 0 only.
    log = run_logged("streams2", "prim points\ncount 1\n");
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x4}));
    EXPECT_EQ(log.vertex_counts[0], 2u);
    log = run_logged("streams2", "prim points\ncount 1\n", false);
    EXPECT_EQ(log.headers[0], std::vector<uint32_t>({0x0}));
    EXPECT_EQ(log.vertex_counts[0], 1u);

    // invocations4: four threads per primitive, no header.
    log = run_logged("invocations4", "prim triangles\ncount 3\n");
    EXPECT_EQ(log.headers.size(), 4u);
    EXPECT_TRUE(log.headers[0].empty());
}

TEST(Gen7MiddleEnd, Counters) {
    DrawDesc d = parse_draw_text("prim triangles\ncount 9\ninstances 2\n");
    d.gs = "many_cuts64";
    Gen7MiddleEnd gen7;
    DrawStats s;
    gs_trace_with(d, gen7, 0, {}, &s);
    ASSERT_EQ(gen7.counters().size(), size_t(gen7::COUNTER_COUNT));
    EXPECT_EQ(s.counters[gen7::COUNTER_THREADS], 6u);
    EXPECT_EQ(s.counters[gen7::COUNTER_VERTEX_WRITES], 6u * 43u);
    EXPECT_EQ(s.counters[gen7::COUNTER_HEADER_WRITES], 6u * 2u);
    EXPECT_EQ(s.counters[gen7::COUNTER_HEADER_BYTES], 6u * 32u);
    EXPECT_EQ(s.counters[gen7::COUNTER_URB_BYTES], 6u * (32u + 64u * 32u));
    EXPECT_EQ(s.counters[gen7::COUNTER_VERTICES_OUT], 6u * 43u); // strips of 5, 5, ..., 5 and 3
}

TEST(Gen7MiddleEnd, RejectsWhatGen7CannotCompile) {
    GeometryShader big = find_gs("many_cuts64");
    big.max_vertices = 300; // legal in the model, above gen7's 256
    DrawDesc d = parse_draw_text("prim triangles\ncount 3\n");
    const auto bound = bind_draw(d);
    DrawState state{bound->info, bound->input(), nullptr, &big};
    Gen7MiddleEnd gen7;
    try {
        gen7.prepare(state);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::unsupported);
        EXPECT_NE(std::string(e.what()).find("max_vertices"), std::string::npos);
    }

    // A shader the probe never sees cutting (only primitive 100 does) is caught at run time.
    GeometryShader sneaky = find_gs("lines_in");
    sneaky.main = [](GsContext& ctx) {
        ctx.emit_vertex({.id = 1});
        if (ctx.primitive_id_in() == 100) ctx.end_primitive();
    };
    DrawDesc lines = parse_draw_text("prim lines\ncount 202\n");
    const auto bound_lines = bind_draw(lines);
    DrawState lstate{bound_lines->info, bound_lines->input(), nullptr, &sneaky};
    TraceBackend trace;
    try {
        draw_serial(lstate, gen7, trace);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::middle_end_failure);
    }
}

TEST(Gen7MiddleEnd, WithoutGeometryShaderIsTheReference) {
    std::mt19937 rng(77);
    for (int iter = 0; iter < 40; ++iter) {
        const DrawDesc d = test::random_draw(rng, Prim(rng() % test::kPrimsWithoutTess));
        Gen7MiddleEnd gen7;
        FetchShade reference;
        ASSERT_EQ(gs_trace_with(d, gen7, 0), gs_trace_with(d, reference, 0));
    }
}

} // namespace
} // namespace drawpipe
