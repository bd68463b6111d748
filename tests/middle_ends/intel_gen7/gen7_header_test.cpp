// Golden gen7 control-data headers, computed by hand from middle_ends/intel_gen7/README.md: the
// DWORDs bit by bit, the URB writes that carry them (DWORD index, channel mask, slot offset) and
// the strips the fixed-function side reads back.
#include "support/gen7_urb_script.hpp"

#include "drawpipe/error.hpp"

#include <gtest/gtest.h>

namespace drawpipe::test {
namespace {

using gen7::ControlDataFormat;
using gen7::GsDesc;
using gen7::GsProgram;
using gen7::UrbEntry;
using gen7::UrbWrite;

GsProgram cut_program(uint32_t max_vertices, Prim output = Prim::line_strip) {
    GsDesc d;
    d.output = output;
    d.max_vertices = max_vertices;
    d.uses_end_primitive = true;
    d.vue_slots = 1;
    return gen7::compile_gs(d);
}

GsProgram sid_program(uint32_t max_vertices, uint32_t stream_mask, bool stream_output = true) {
    GsDesc d;
    d.output = Prim::points;
    d.max_vertices = max_vertices;
    d.stream_mask = stream_mask;
    d.stream_output = stream_output;
    d.vue_slots = 1;
    return gen7::compile_gs(d);
}

struct ExpectedWrite {
    uint32_t data;
    uint32_t dword_index;
    bool masked;
    uint8_t mask;
    bool slot;
    uint32_t slot_offset;
    uint32_t byte_offset;
};

void expect_header_writes(const UrbEntry& entry, const std::vector<ExpectedWrite>& want) {
    const auto got = header_writes(entry);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE("header write " + std::to_string(i));
        EXPECT_EQ(got[i].data, want[i].data);
        EXPECT_EQ(got[i].channel_masked, want[i].masked);
        if (want[i].masked) {
            EXPECT_EQ(got[i].dword_index, want[i].dword_index);
            EXPECT_EQ(got[i].channel_mask, want[i].mask);
        }
        EXPECT_EQ(got[i].per_slot_offset, want[i].slot);
        if (want[i].slot) {
            EXPECT_EQ(got[i].slot_offset, want[i].slot_offset);
        }
        EXPECT_EQ(got[i].byte_offset, want[i].byte_offset);
        EXPECT_EQ(got[i].byte_count, want[i].masked ? 4u : 16u);
    }
}

// Strips as the fixed-function side reads them: per run, the VUE dword 0 of each vertex.
std::vector<std::vector<uint32_t>> strips(const GsProgram& p, const UrbEntry& entry,
                                          uint32_t stream = 0) {
    std::vector<gen7::OutputRun> runs;
    gen7::read_output_runs(p, entry, runs);
    std::vector<std::vector<uint32_t>> out;
    std::vector<uint32_t> vue(p.desc.vue_slots * 4);
    for (const auto& r : runs) {
        if (r.stream != stream) continue;
        out.emplace_back();
        for (uint32_t n = r.first; n < r.first + r.count; ++n) {
            gen7::read_vertex(p, entry, n, vue);
            out.back().push_back(vue[0]);
        }
    }
    return out;
}

std::vector<uint32_t> range(uint32_t first, uint32_t last) { // inclusive
    std::vector<uint32_t> v;
    for (uint32_t i = first; i <= last; ++i) v.push_back(i);
    return v;
}

TEST(Gen7Compile, WorkedSizesTable) {
    // README.md, "Worked sizes": vertices_out, format, bits, header hwords, batching, masks, slot
    // offsets.
    struct Row {
        GsProgram p;
        ControlDataFormat format;
        uint32_t bits, hwords;
        bool batched, slots;
    };
    const Row rows[] = {
        {cut_program(1), ControlDataFormat::cut, 1, 1, false, false},
        {cut_program(32), ControlDataFormat::cut, 32, 1, false, false},
        {cut_program(33), ControlDataFormat::cut, 33, 1, true, false},
        {cut_program(128), ControlDataFormat::cut, 128, 1, true, false},
        {cut_program(129), ControlDataFormat::cut, 129, 1, true, true},
        {cut_program(256), ControlDataFormat::cut, 256, 1, true, true},
        {sid_program(16, 3), ControlDataFormat::sid, 32, 1, false, false},
        {sid_program(17, 3), ControlDataFormat::sid, 34, 1, true, false},
        {sid_program(256, 3), ControlDataFormat::sid, 512, 2, true, true},
        {sid_program(256, 1), ControlDataFormat::sid, 0, 0, false, false},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE("max_vertices " + std::to_string(r.p.desc.max_vertices));
        EXPECT_EQ(r.p.format, r.format);
        EXPECT_EQ(r.p.header_bits, r.bits);
        EXPECT_EQ(r.p.header_hwords, r.hwords);
        EXPECT_EQ(r.p.batched(), r.batched);
        EXPECT_EQ(r.p.channel_masks(), r.batched);
        EXPECT_EQ(r.p.slot_offsets(), r.slots);
    }
}

TEST(Gen7Compile, VertexAndEntrySizes) {
    GsDesc d;
    d.output = Prim::triangle_strip;
    d.max_vertices = 256;
    d.uses_end_primitive = true;
    d.vue_slots = 3; // drawpipe's GS output record: 12 dwords
    GsProgram p = gen7::compile_gs(d);
    EXPECT_EQ(p.vertex_hwords, 2u); // 48 bytes round up to 64
    EXPECT_EQ(p.urb_entry_bytes, 32u + 256u * 64u);
    EXPECT_EQ(p.urb_entry_size, 257u); // 16416 / 64 rounded up
    EXPECT_EQ(p.vertex_offset(0), 32u);
    EXPECT_EQ(p.vertex_offset(5), 32u + 5u * 64u);

    // Seven slots are four hwords: 256 of them fill 32 KiB exactly, legal without a header
    // and 32 bytes too many with one.
    d.vue_slots = 7;
    d.uses_end_primitive = false;
    EXPECT_EQ(gen7::compile_gs(d).urb_entry_bytes, 32768u);
    d.uses_end_primitive = true;
    EXPECT_THROW(gen7::compile_gs(d), Error);

    d.vue_slots = 63;
    EXPECT_THROW(gen7::compile_gs(d), Error);
    d.vue_slots = 1;
    d.max_vertices = 257;
    EXPECT_THROW(gen7::compile_gs(d), Error);
    d.max_vertices = 0; // legal in GL: the entry is bumped to one byte
    EXPECT_EQ(gen7::compile_gs(d).urb_entry_bytes, 1u);
    d.max_vertices = 4;
    d.stream_mask = 3; // several streams need points output
    EXPECT_THROW(gen7::compile_gs(d), Error);
}

TEST(Gen7Compile, NoHeaderWhereNotNeeded) {
    GsDesc d;
    d.output = Prim::triangle_strip;
    d.max_vertices = 64;
    d.uses_end_primitive = false;
    EXPECT_EQ(gen7::compile_gs(d).header_bits, 0u);
    EXPECT_EQ(gen7::compile_gs(d).header_hwords, 0u);
    d.output = Prim::points;
    d.uses_end_primitive = true; // EndPrimitive is a no-op for points
    EXPECT_EQ(gen7::compile_gs(d).header_bits, 0u);
    d.stream_mask = 0b101;
    EXPECT_EQ(gen7::compile_gs(d).header_bits, 128u);
}

TEST(Gen7Header, MaxVertices1) {
    const GsProgram p = cut_program(1);
    UrbEntry e;
    run_script(p, Script().emits(1).cut().events, e);
    // Cut after vertex 0: bit 0; the single DWORD is replicated across OWORD 0.
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x00000001}));
    expect_header_writes(e, {{0x1, 0, false, 0xF, false, 0, 0}});
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(e.dword(i), 1u);
    EXPECT_EQ(vertex_write_count(e), 1u);
    EXPECT_EQ(e.vertex_count(), 1u);

    // EndPrimitive before the first vertex sets bit 31: harmless, vertex 31 never exists.
    run_script(p, Script().cut().emits(1).events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x80000000}));
    EXPECT_TRUE(strips(p, e).empty()); // one vertex is no line
}

TEST(Gen7Header, MaxVertices31) {
    const GsProgram p = cut_program(31, Prim::triangle_strip);
    UrbEntry e;
    // cut before vertex 0, then cuts after vertices 2, 5 and 30 (the last).
    run_script(p, Script().cut().emits(3).cut().emits(3).cut().emits(25).cut().events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0xC0000024}));
    expect_header_writes(e, {{0xC0000024, 0, false, 0xF, false, 0, 0}});
    EXPECT_EQ(strips(p, e),
              (std::vector<std::vector<uint32_t>>{range(0, 2), range(3, 5), range(6, 30)}));
}

TEST(Gen7Header, MaxVertices32) {
    const GsProgram p = cut_program(32);
    UrbEntry e;
    // Bit 31 twice over: EndPrimitive before vertex 0 and after vertex 31 (the last).
    run_script(p, Script().cut().emits(1).cut().emits(15).cut().emits(16).cut().events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x80008001}));
    expect_header_writes(e, {{0x80008001, 0, false, 0xF, false, 0, 0}});
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(1, 15), range(16, 31)}));
}

TEST(Gen7Header, MaxVertices33) {
    const GsProgram p = cut_program(33);
    UrbEntry e;
    // A cut before vertex 0 lands in the uninitialised register, zeroed at the first emit.
    run_script(p, Script().cut().emits(1).cut().emits(31).cut().emits(1).cut().events, e);
    // Vertices 0-31 in DWORD 0 (cut after 0 and 31), vertex 32 in DWORD 1 (cut after 32).
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x80000001, 0x00000001}));
    expect_header_writes(e, {{0x80000001, 0, true, 0b0001, false, 0, 0},
                             {0x00000001, 1, true, 0b0010, false, 0, 4}});
    EXPECT_EQ(header_writes(e)[0].vertex_count, 32u); // sent before vertex 32 is written
    EXPECT_EQ(header_writes(e)[1].vertex_count, 33u); // at thread end
    EXPECT_FALSE(e.written(2));                       // channel masks left the rest alone
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(1, 31)}));
}

TEST(Gen7Header, WorkedExample40) {
    // README.md, "Worked sizes": 40 vertices, DWORD 0 at index 0 mask 0b0001, then index 1 mask
    // 0b0010.
    const GsProgram p = cut_program(40);
    UrbEntry e;
    run_script(p, Script().emits(40).events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0, 0}));
    expect_header_writes(e, {{0, 0, true, 0b0001, false, 0, 0}, {0, 1, true, 0b0010, false, 0, 4}});
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 39)}));
}

TEST(Gen7Header, MaxVertices64) {
    const GsProgram p = cut_program(64, Prim::triangle_strip);
    UrbEntry e;
    run_script(p, Script().emits(32).cut().emits(1).cut().emits(31).cut().events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x80000000, 0x80000001}));
    expect_header_writes(e, {{0x80000000, 0, true, 0b0001, false, 0, 0},
                             {0x80000001, 1, true, 0b0010, false, 0, 4}});
    // Vertex 32 alone is no triangle.
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 31), range(33, 63)}));

    // Exactly 32 vertices: the batch is only flushed before a 33rd, so one write at the end.
    run_script(p, Script().emits(31).cut().emits(1).cut().events, e);
    expect_header_writes(e, {{0xC0000000, 0, true, 0b0001, false, 0, 0}});
    EXPECT_EQ(header_dwords(p, e)[1], UrbEntry::kUnwritten);
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 30)}));
}

TEST(Gen7Header, MaxVertices128) {
    const GsProgram p = cut_program(128);
    UrbEntry e;
    Script s;
    s.emits(32).cut().emits(32).cut().emits(32).cut().emits(4).cut();
    run_script(p, s.events, e);
    EXPECT_EQ(header_dwords(p, e),
              std::vector<uint32_t>({0x80000000, 0x80000000, 0x80000000, 0x8}));
    expect_header_writes(e, {{0x80000000, 0, true, 0b0001, false, 0, 0},
                             {0x80000000, 1, true, 0b0010, false, 0, 4},
                             {0x80000000, 2, true, 0b0100, false, 0, 8},
                             {0x00000008, 3, true, 0b1000, false, 0, 12}});
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 31), range(32, 63),
                                                                range(64, 95), range(96, 99)}));
}

TEST(Gen7Header, MaxVertices129) {
    const GsProgram p = cut_program(129);
    UrbEntry e;
    run_script(p, Script().emits(1).cut().emits(127).cut().emits(1).cut().events, e);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x1, 0, 0, 0x80000000, 0x1}));
    // Above 128 bits every write carries a slot offset; DWORD 4 is in OWORD 1.
    expect_header_writes(e, {{0x00000001, 0, true, 0b0001, true, 0, 0},
                             {0x00000000, 1, true, 0b0010, true, 0, 4},
                             {0x00000000, 2, true, 0b0100, true, 0, 8},
                             {0x80000000, 3, true, 0b1000, true, 0, 12},
                             {0x00000001, 4, true, 0b0001, true, 1, 16}});
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(1, 127)}));
}

TEST(Gen7Header, MaxVertices256) {
    const GsProgram p = cut_program(256, Prim::triangle_strip);
    UrbEntry e;
    Script s;
    s.emits(32).cut().emits(1).cut().emits(31).cut(); // after 31, 32, 63
    s.emits(137).cut().emits(55).cut();               // after 200, 255
    run_script(p, s.events, e);
    EXPECT_EQ(header_dwords(p, e),
              std::vector<uint32_t>({0x80000000, 0x80000001, 0, 0, 0, 0, 0x100, 0x80000000}));
    std::vector<ExpectedWrite> want;
    const uint32_t data[8] = {0x80000000, 0x80000001, 0, 0, 0, 0, 0x100, 0x80000000};
    for (uint32_t i = 0; i < 8; ++i)
        want.push_back({data[i], i, true, uint8_t(1u << (i % 4)), true, i / 4, 4 * i});
    expect_header_writes(e, want);
    EXPECT_EQ(vertex_write_count(e), 256u);
    EXPECT_EQ(p.vertex_offset(255), 32u + 255u * 32u);
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 31), range(33, 63),
                                                                range(64, 200), range(201, 255)}));
}

TEST(Gen7Header, Cut256PartialLastOword) {
    // 150 of 256: DWORD 4 (vertices 128-149) goes out at thread end in OWORD 1, channel 0.
    const GsProgram p = cut_program(256);
    UrbEntry e;
    run_script(p, Script().emits(130).cut().emits(20).events, e);
    const auto w = header_writes(e);
    ASSERT_EQ(w.size(), 5u);
    EXPECT_EQ(w[4].dword_index, 4u);
    EXPECT_EQ(w[4].slot_offset, 1u);
    EXPECT_EQ(w[4].channel_mask, 0b0001);
    EXPECT_EQ(w[4].data, 0x2u); // cut after vertex 129
    EXPECT_EQ(header_dwords(p, e)[5], UrbEntry::kUnwritten);
}

TEST(Gen7Header, NothingWrittenWithoutVertices) {
    for (uint32_t max : {1u, 32u, 33u, 256u}) {
        const GsProgram p = cut_program(max);
        UrbEntry e;
        run_script(p, Script().cut().cut().events, e);
        EXPECT_TRUE(e.writes().empty()) << max;
        EXPECT_EQ(e.vertex_count(), 0u);
        EXPECT_TRUE(strips(p, e).empty());
    }
}

TEST(Gen7Header, EmitsPastMaxVerticesAreSkipped) {
    const GsProgram p = cut_program(3);
    UrbEntry e;
    run_script(p, Script().emits(2).cut().emits(4).events, e);
    EXPECT_EQ(e.vertex_count(), 3u);
    EXPECT_EQ(vertex_write_count(e), 3u);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x2}));
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 1)}));
}

TEST(Gen7Header, StreamIds16) {
    const GsProgram p = sid_program(16, 0b1111);
    UrbEntry e;
    const uint32_t streams[16] = {1, 0, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    Script s;
    for (uint32_t st : streams) s.emits(1, st).cut(st); // cuts are no-ops for points
    run_script(p, s.events, e);
    // v0: 1 << 0, v2: 3 << 4, v3: 2 << 6, v15: 1 << 30.
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0x400000B1}));
    expect_header_writes(e, {{0x400000B1, 0, false, 0xF, false, 0, 0}});
    EXPECT_EQ(strips(p, e, 0), (std::vector<std::vector<uint32_t>>{{1}, range(4, 14)}));
    EXPECT_EQ(strips(p, e, 1), (std::vector<std::vector<uint32_t>>{{0}, {15}}));
    EXPECT_EQ(strips(p, e, 2), (std::vector<std::vector<uint32_t>>{{3}}));
    EXPECT_EQ(strips(p, e, 3), (std::vector<std::vector<uint32_t>>{{2}}));
}

TEST(Gen7Header, StreamIds17) {
    const GsProgram p = sid_program(17, 0b1101);
    UrbEntry e;
    run_script(p, Script().emits(16, 2).emits(1, 3).events, e);
    // 16 vertices fill DWORD 0 (2 bits each); vertex 16 starts DWORD 1.
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0xAAAAAAAA, 0x3}));
    expect_header_writes(e, {{0xAAAAAAAA, 0, true, 0b0001, false, 0, 0},
                             {0x00000003, 1, true, 0b0010, false, 0, 4}});
    EXPECT_EQ(header_writes(e)[0].vertex_count, 16u);
}

TEST(Gen7Header, StreamIds256) {
    const GsProgram p = sid_program(256, 0b1111);
    EXPECT_EQ(p.header_hwords, 2u);
    EXPECT_EQ(p.vertex_offset(0), 64u);
    UrbEntry e;
    Script s;
    for (uint32_t n = 0; n < 100; ++n) s.emits(1, n % 4);
    run_script(p, s.events, e);
    // Streams 0,1,2,3 per byte: 0b11100100; DWORD 6 holds vertices 96-99 only.
    const std::vector<uint32_t> want = {0xE4E4E4E4, 0xE4E4E4E4, 0xE4E4E4E4, 0xE4E4E4E4,
                                        0xE4E4E4E4, 0xE4E4E4E4, 0x000000E4};
    const std::vector<uint32_t> header = header_dwords(p, e);
    EXPECT_EQ(std::vector<uint32_t>(header.begin(), header.begin() + 7), want);
    EXPECT_EQ(header[7], UrbEntry::kUnwritten);
    std::vector<ExpectedWrite> writes;
    for (uint32_t i = 0; i < 7; ++i)
        writes.push_back({want[i], i, true, uint8_t(1u << (i % 4)), true, i / 4, 4 * i});
    expect_header_writes(e, writes);
    EXPECT_EQ(strips(p, e, 2).size(), 25u);
}

TEST(Gen7Header, StreamsDroppedWithoutStreamOutput) {
    // Haswell rasterizes every stream when stream output is off, so the compiler drops
    // emits to streams > 0 without counting them; the header stays (all zero).
    const GsProgram p = sid_program(16, 0b111, false);
    UrbEntry e;
    run_script(p, {emit_on(0), emit_on(1), emit_on(0), emit_on(2), emit_on(0)}, e);
    EXPECT_EQ(e.vertex_count(), 3u);
    EXPECT_EQ(header_dwords(p, e), std::vector<uint32_t>({0}));
    EXPECT_EQ(strips(p, e, 0), (std::vector<std::vector<uint32_t>>{{0, 2, 4}}));
}

TEST(Gen7Header, NoHeaderSingleStreamPoints) {
    const GsProgram p = sid_program(8, 1);
    UrbEntry e;
    run_script(p, Script().emits(3).cut().emits(2).events, e);
    EXPECT_TRUE(header_writes(e).empty());
    EXPECT_EQ(p.vertex_offset(0), 0u);
    EXPECT_EQ(strips(p, e), (std::vector<std::vector<uint32_t>>{range(0, 4)}));
}

TEST(Gen7Header, VertexWritesUsePerSlotOffsets) {
    GsDesc d;
    d.output = Prim::triangle_strip;
    d.max_vertices = 10;
    d.uses_end_primitive = true;
    d.vue_slots = 3; // two hwords per vertex
    const GsProgram p = gen7::compile_gs(d);
    UrbEntry e;
    run_script(p, Script().emits(4).events, e);
    uint32_t n = 0;
    for (const UrbWrite& w : e.writes()) {
        if (w.kind != gen7::UrbWriteKind::vertex) continue;
        EXPECT_TRUE(w.per_slot_offset);
        EXPECT_EQ(w.global_offset, 1u);   // past the one-hword header
        EXPECT_EQ(w.slot_offset, 2u * n); // vertex_count × vertex hwords
        EXPECT_EQ(w.byte_offset, 32u + 64u * n);
        EXPECT_EQ(w.byte_count, 48u);
        ++n;
    }
    EXPECT_EQ(n, 4u);
    EXPECT_EQ(e.dword((32 + 64 * 3) / 4), 3u); // vertex 3's first dword holds 3
}

TEST(Gen7Header, ReaderRejectsUnfinishedThreads) {
    const GsProgram p = cut_program(4);
    UrbEntry e;
    {
        gen7::GsThread t(p, e);
        const uint32_t vue[4] = {};
        t.emit_vertex(0, vue);
        std::vector<gen7::OutputRun> runs;
        EXPECT_THROW(gen7::read_output_runs(p, e, runs), Error);
        EXPECT_THROW(t.emit_vertex(4, vue), Error);
    }
}

} // namespace
} // namespace drawpipe::test
