// Stream output (drawpipe/stream_output.hpp): GL's declaration rules, whole-primitive
// overflow, separate and interleaved buffers, sessions that append across draws and
// survive pause/resume, rasterizer discard, and the same bytes for every thread count.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/stream_output.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "support/expect_error.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace drawpipe;

namespace {

using test::expect_error;

// Vertex id and instance id of each vertex, interleaved in buffer 0 (8 bytes a vertex).
StreamOutputState ids_state(std::vector<uint32_t>& mem, size_t bytes, size_t offset = 0) {
    StreamOutputState so;
    so.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0, 0},
                  {CaptureSource::instance_id, 0, 0, 1, 0, 1, 0}};
    mem.assign((offset + bytes) / 4 + 1, 0xDEADBEEF);
    so.buffers[0] = {mem.data(), offset, bytes, 8};
    return so;
}

// The serial path through stream output; returns the draw's counts.
StreamOutputCounts capture_serial(std::string_view text, StreamOutput& so,
                                  uint32_t max_vertices = 0, bool discard = false,
                                  Backend* backend = nullptr) {
    const auto bound = bind_draw(parse_draw_text(text));
    const DrawState state{bound->info, bound->input(), nullptr, nullptr};
    FetchShade middle(65536);
    TraceBackend trace;
    return draw_serial(state, middle, backend ? *backend : trace, {{}, max_vertices},
                       {&so, discard})
        .primitives;
}

const char* kTris = "prim triangles\nindex none\ncount 12\n"; // 4 triangles, ids 0..11

TEST(StreamOutput, GlDeclarationRules) {
    std::vector<uint32_t> mem(64);
    auto base = [&] {
        StreamOutputState so;
        so.outputs = {{CaptureSource::position, 0, 0, 4, 0, 0, 0}};
        so.buffers[0] = {mem.data(), 0, 256, 16};
        return so;
    };
    EXPECT_NO_THROW(validate_stream_output(base()));
    auto bad = [&](auto edit, std::string_view needle) {
        StreamOutputState so = base();
        edit(so);
        expect_error([&] { validate_stream_output(so); }, ErrorCode::invalid_value, needle);
    };
    bad([](StreamOutputState& s) { s.outputs.clear(); }, "none declared");
    bad([](StreamOutputState& s) { s.outputs[0].buffer = 4; }, "buffer: 4");
    bad([](StreamOutputState& s) { s.outputs[0].components = 5; }, "components");
    bad([](StreamOutputState& s) { s.outputs[0].first_component = 2; }, "components");
    bad([](StreamOutputState& s) { s.outputs[0].components = 0; }, "components");
    bad([](StreamOutputState& s) { s.buffers[0].stride = 18; }, "stride");
    bad([](StreamOutputState& s) { s.buffers[0].offset = 2; }, "offset: 2");
    bad([](StreamOutputState& s) { s.buffers[0].stride = 12; }, "pass the stride");
    bad([](StreamOutputState& s) { s.buffers[0].data = nullptr; }, "data");
    bad(
        [](StreamOutputState& s) {
            s.buffers[0].stride = 32;
            s.outputs.push_back({CaptureSource::varying, 0, 0, 4, 0, 3, 0});
        },
        "overlaps");
    bad(
        [&](StreamOutputState& s) {
            s.buffers[1] = {mem.data(), 0, 64, 16};
            s.outputs.push_back({CaptureSource::position, 0, 0, 4, 1, 0, 1});
            s.outputs.push_back({CaptureSource::varying, 0, 0, 4, 0, 4, 0});
            s.buffers[0].stride = 32;
            s.outputs.push_back({CaptureSource::varying, 1, 0, 4, 1, 0, 1});
        },
        "overlaps");
    bad(
        [&](StreamOutputState& s) {
            s.buffers[0].stride = 32;
            s.outputs.push_back({CaptureSource::varying, 0, 0, 4, 0, 4, 1});
        },
        "already captures stream 0");
    bad(
        [&](StreamOutputState& s) {
            s.mode = CaptureMode::separate;
            s.buffers[0].stride = 32;
            s.outputs.push_back({CaptureSource::varying, 0, 0, 4, 0, 4, 0});
        },
        "own buffer");
    bad(
        [&](StreamOutputState& s) {
            s.mode = CaptureMode::separate;
            s.outputs.clear();
            for (uint32_t i = 0; i < 5; ++i) {
                s.buffers[i % 4] = {mem.data(), 0, 64, 16};
                s.outputs.push_back({CaptureSource::varying, i, 0, 1, i % 4, i / 4, 0});
            }
        },
        "own buffer");
    bad(
        [&](StreamOutputState& s) {
            s.outputs.clear();
            s.buffers[0].stride = 4 * 68;
            for (uint32_t i = 0; i < 17; ++i)
                s.outputs.push_back({CaptureSource::varying, i, 0, 4, 0, 4 * i, 0});
        },
        "68 interleaved components, at most 64");
}

TEST(StreamOutput, OutputsTheStageDoesNotWriteAreErrorsAtDraw) {
    std::vector<uint32_t> mem;
    StreamOutputState so = ids_state(mem, 64);
    so.outputs.push_back({CaptureSource::varying, 3, 0, 1, 0, 2, 0});
    so.buffers[0].stride = 12;
    Context ctx;
    TraceBackend trace;
    const auto bound = bind_draw(parse_draw_text("prim points\nindex none\ncount 2\nattrib 0\n"));
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound->buffers);
    ctx.set_vertex_attribs(bound->attribs);
    ctx.set_stream_output(so);
    expect_error([&] { ctx.draw(bound->info); }, ErrorCode::invalid_value, "varying 3");
    so.outputs[2] = {CaptureSource::gs_id, 0, 0, 1, 0, 2, 0};
    ctx.set_stream_output(so);
    expect_error([&] { ctx.draw(bound->info); }, ErrorCode::invalid_value,
                 "only a geometry shader");
    so.outputs[2] = {CaptureSource::varying, 0, 0, 1, 1, 0, 1};
    so.buffers[1] = {mem.data(), 0, 16, 4};
    ctx.set_stream_output(so);
    expect_error([&] { ctx.draw(bound->info); }, ErrorCode::invalid_value, "stream 1");
    so.outputs[2] = {CaptureSource::varying, 0, 0, 1, 0, 2, 0};
    ctx.set_stream_output(so);
    EXPECT_NO_THROW(ctx.draw(bound->info));
    ctx.flush();
}

TEST(StreamOutput, OverflowStopsAtPrimitiveBoundaries) {
    // 4 triangles of 24 bytes. Every size from 0 to 100 writes floor(size / 24) of them.
    for (size_t bytes = 0; bytes <= 100; bytes += 4) {
        std::vector<uint32_t> mem;
        StreamOutput so(ids_state(mem, bytes));
        so.begin();
        const StreamOutputCounts c = capture_serial(kTris, so, 3);
        const uint64_t fit = std::min<uint64_t>(bytes / 24, 4);
        EXPECT_EQ(c.generated[0], 4u) << bytes;
        EXPECT_EQ(c.written[0], fit) << bytes;
        EXPECT_EQ(so.written_bytes(0), fit * 24) << bytes;
        for (uint32_t v = 0; v < 3 * fit; ++v) {
            EXPECT_EQ(mem[2 * v], v);
            EXPECT_EQ(mem[2 * v + 1], 0u);
        }
        // Nothing of the first primitive that did not fit was written.
        for (size_t w = 6 * fit; w < mem.size(); ++w) EXPECT_EQ(mem[w], 0xDEADBEEFu) << bytes;
    }
}

// begin_at: a capture cut into sessions, each starting where the target says the last one
// stopped, writes the bytes and counts of one session; the room left is what the target does
// not hold yet.
TEST(StreamOutput, SessionsBegunAtATargetsFillAppend) {
    const char* first = "prim triangles\nindex none\nstart 0\ncount 6\n";
    const char* second = "prim triangles\nindex none\nstart 6\ncount 6\n";
    for (size_t bytes : {size_t(96), size_t(60), size_t(48), size_t(40)}) {
        std::vector<uint32_t> whole_mem, cut_mem;
        StreamOutput whole(ids_state(whole_mem, bytes));
        whole.begin();
        const StreamOutputCounts w = capture_serial(kTris, whole, 3);
        whole.end();
        StreamOutput cut(ids_state(cut_mem, bytes));
        cut.begin();
        StreamOutputCounts c = capture_serial(first, cut, 3);
        const size_t held = cut.written_bytes(0);
        cut.end();
        cut.begin_at({held, 0, 0, 0});
        EXPECT_EQ(cut.written_bytes(0), held);
        c += capture_serial(second, cut, 3);
        EXPECT_EQ(cut.counts().generated[0], 2u) << bytes; // the session's own
        EXPECT_EQ(c.generated[0], w.generated[0]) << bytes;
        EXPECT_EQ(c.written[0], w.written[0]) << bytes;
        EXPECT_EQ(cut.written_bytes(0), whole.written_bytes(0)) << bytes;
        EXPECT_EQ(cut_mem, whole_mem) << bytes;
    }
    std::vector<uint32_t> mem;
    StreamOutput so(ids_state(mem, 48));
    expect_error([&] { so.begin_at({52, 0, 0, 0}); }, ErrorCode::invalid_value, "more than");
    so.begin_at({48, 0, 0, 0});
    EXPECT_EQ(capture_serial(first, so, 3).written[0], 0u); // full
    expect_error([&] { so.begin_at({0, 0, 0, 0}); }, ErrorCode::invalid_operation, "begun");
}

// reserve() in draw order, then write_reserved() in any order and on several threads, gives
// write()'s bytes, counts and positions for the same segments: every primitive type, both
// conventions, one or two buffers, several outputs, overflow mid-segment, sessions begun at a
// fill, paused sessions (counted as drawn).
TEST(StreamOutput, ReservedWritesEqualWritesInDrawOrder) {
    std::mt19937 rng(40);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    constexpr uint32_t kVerts = 64, kDwords = 8;
    std::vector<uint32_t> records(kVerts * kDwords);
    for (uint32_t i = 0; i < records.size(); ++i) records[i] = 1000 * (i / kDwords) + i % kDwords;
    const VertexView view{records.data(), kVerts, kDwords};
    for (int iter = 0; iter < 400; ++iter) {
        StreamOutputState so;
        StreamOutputPlan plan;
        const uint32_t buffers = 1 + pick(2);
        for (uint32_t b = 0; b < buffers; ++b) {
            // One or two outputs per buffer, packed from dword 0, a gap left at the end.
            uint32_t dst = 0;
            for (uint32_t k = 1 + pick(2); k > 0; --k) {
                const uint32_t comps = 1 + pick(4), src = pick(kDwords - comps + 1);
                so.outputs.push_back({CaptureSource::varying, 0, 0, comps, b, dst, 0});
                plan.copies[0].push_back({b, src, dst, comps});
                dst += comps;
            }
            so.buffers[b].stride = 4 * (dst + pick(2));
            plan.buffer_mask[0] |= 1u << b;
        }
        std::vector<uint32_t> mem_a[2], mem_b[2];
        std::array<size_t, kMaxStreamOutputBuffers> fill{};
        for (uint32_t b = 0; b < buffers; ++b) {
            const size_t size = 4 * pick(400);
            mem_a[b].assign(size / 4 + 2, 0xDEADBEEF);
            mem_b[b] = mem_a[b];
            so.buffers[b].offset = 4;
            so.buffers[b].size = size;
            fill[b] = size ? 4 * pick(uint32_t(size / 4) + 1) / 2 : 0;
        }
        StreamOutputState sa = so, sb = so;
        for (uint32_t b = 0; b < buffers; ++b) {
            sa.buffers[b].data = mem_a[b].data();
            sb.buffers[b].data = mem_b[b].data();
        }
        StreamOutput a(sa), b(sb);
        const bool at_fill = pick(2);
        if (at_fill)
            a.begin_at(fill), b.begin_at(fill);
        else
            a.begin(), b.begin();
        if (pick(6) == 0) a.pause(), b.pause();
        const Prim prim = Prim(pick(uint32_t(Prim::patches)));
        const Provoking pv = pick(2) ? Provoking::first : Provoking::last;
        struct Seg {
            std::vector<uint32_t> elts;
            uint8_t flags;
            StreamOutputReservation at;
        };
        std::vector<Seg> segs(1 + pick(6));
        StreamOutputCounts ca, cb;
        for (Seg& g : segs) {
            g.elts.resize(pick(40));
            for (uint32_t& e : g.elts) e = pick(kVerts);
            g.flags = uint8_t(pick(4));
            a.write(plan, 0, prim, g.flags, pv, view, g.elts, ca);
            g.at = b.reserve(plan, 0, prim, g.flags, uint32_t(g.elts.size()), cb);
        }
        std::shuffle(segs.begin(), segs.end(), rng);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < segs.size(); ++i) {
            auto write = [&, i] {
                b.write_reserved(plan, 0, segs[i].at, prim, pv, view, segs[i].elts);
            };
            if (i % 2)
                threads.emplace_back(write);
            else
                write();
        }
        for (std::thread& t : threads) t.join();
        const std::string what =
            "iteration " + std::to_string(iter) + ", prim " + std::to_string(int(prim));
        for (uint32_t k = 0; k < buffers; ++k) {
            EXPECT_EQ(mem_a[k], mem_b[k]) << what << ", buffer " << k;
            EXPECT_EQ(a.written_bytes(k), b.written_bytes(k)) << what;
        }
        EXPECT_EQ(ca.generated, cb.generated) << what;
        EXPECT_EQ(ca.written, cb.written) << what;
        EXPECT_EQ(a.counts().generated, b.counts().generated) << what;
        EXPECT_EQ(a.counts().written, b.counts().written) << what;
        EXPECT_EQ(a.written_vertices(0), b.written_vertices(0)) << what;
    }
}

// Ranges of 8 MiB and more are written with streaming stores when aligned: the same bytes as
// the plain path (a range at an unaligned offset), overflowing mid-draw at a size that is not
// a whole number of triangles, with nothing past the last whole triangle touched.
TEST(StreamOutput, LargeCapturesWriteTheSameBytes) {
    constexpr uint32_t kVertices = 5000, kTriangles = 250'000; // 12 MB of positions
    std::vector<float> positions;
    for (uint32_t v = 0; v < kVertices; ++v)
        positions.insert(positions.end(), {float(v), float(2 * v), -float(v), 1.0f + float(v)});
    std::vector<uint32_t> indices(3 * kTriangles);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = uint32_t(i * 7919 % kVertices);
    const VertexBuffer vb{positions.data(), positions.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u32;
    draw.indices = indices.data();
    draw.index_buffer_count = draw.count = uint32_t(indices.size());
    const size_t size = (size_t(10) << 20) + 20; // 218453 whole triangles and 20 bytes
    for (const size_t offset : {size_t(0), size_t(4)}) {
        SCOPED_TRACE("offset " + std::to_string(offset));
        std::vector<uint32_t> mem((offset + size) / 4 + 64, 0xDEADBEEF);
        for (const uint32_t threads : {1u, 2u}) {
            std::fill(mem.begin(), mem.end(), 0xDEADBEEF);
            ContextOptions o;
            o.threads = threads;
            Context ctx(o);
            TraceBackend backend;
            ctx.bind_middle_end("fetch_shade_simd");
            ctx.bind_backend(backend);
            ctx.set_vertex_buffers({&vb, 1});
            ctx.set_vertex_attribs({&attrib, 1});
            ctx.set_rasterizer_discard(true);
            StreamOutputState so;
            so.outputs = {{CaptureSource::position, 0, 0, 4, 0, 0}};
            so.buffers[0] = {mem.data(), offset, size, 16};
            ctx.set_stream_output(so);
            ctx.begin_stream_output();
            ctx.draw(draw);
            const StreamOutputCounts c = ctx.end_stream_output();
            const uint64_t fit = size / 48;
            ASSERT_EQ(c.generated[0], kTriangles);
            ASSERT_EQ(c.written[0], fit);
            const uint32_t* out = mem.data() + offset / 4;
            for (size_t v = 0; v < 3 * fit; ++v)
                ASSERT_EQ(0, std::memcmp(out + 4 * v, &positions[4 * size_t(indices[v])], 16))
                    << "vertex " << v << ", " << threads << " threads";
            for (size_t w = offset / 4 + 12 * fit; w < mem.size(); ++w)
                ASSERT_EQ(mem[w], 0xDEADBEEFu) << "dword " << w;
            for (size_t w = 0; w < offset / 4; ++w) ASSERT_EQ(mem[w], 0xDEADBEEFu);
        }
    }
}

TEST(StreamOutput, WritesFromTheBoundOffset) {
    std::vector<uint32_t> mem;
    StreamOutput so(ids_state(mem, 48, 8));
    so.begin();
    capture_serial(kTris, so);
    EXPECT_EQ(mem[0], 0xDEADBEEFu);
    EXPECT_EQ(mem[1], 0xDEADBEEFu);
    EXPECT_EQ(mem[2], 0u); // vertex 0's id
    EXPECT_EQ(mem[2 + 2 * 5], 5u);
    EXPECT_EQ(mem[2 + 12], 0xDEADBEEFu); // the third triangle did not fit
}

TEST(StreamOutput, SeparateAndInterleavedHoldTheSameValues) {
    const char* text = "prim triangle_strip\nindex u16\nindices 3 1 4 1 5 9 2 6\ninstances 2\n";
    std::vector<uint32_t> inter(64, 0), ids(32, 0), insts(32, 0);
    StreamOutputState a;
    a.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0, 0},
                 {CaptureSource::instance_id, 0, 0, 1, 0, 1, 0}};
    a.buffers[0] = {inter.data(), 0, inter.size() * 4, 8};
    StreamOutputState b;
    b.mode = CaptureMode::separate;
    b.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0, 0},
                 {CaptureSource::instance_id, 0, 0, 1, 1, 0, 0}};
    b.buffers[0] = {ids.data(), 0, ids.size() * 4, 4};
    b.buffers[1] = {insts.data(), 0, insts.size() * 4, 4};
    StreamOutput sa(a), sb(b);
    sa.begin();
    sb.begin();
    const StreamOutputCounts ca = capture_serial(text, sa, 4);
    const StreamOutputCounts cb = capture_serial(text, sb);
    EXPECT_EQ(ca.generated[0], 12u);
    EXPECT_EQ(ca.written[0], 10u); // 64 dwords hold 10 triangles of 6
    EXPECT_EQ(cb.written[0], 10u); // 32 dwords per buffer: also 10 of 3
    for (uint32_t v = 0; v < 30; ++v) {
        EXPECT_EQ(inter[2 * v], ids[v]) << v;
        EXPECT_EQ(inter[2 * v + 1], insts[v]) << v;
    }
    // The strip's second triangle under the last convention: positions 2 1 3 (ids 4 1 1).
    EXPECT_EQ(ids[3], 4u);
    EXPECT_EQ(ids[4], 1u);
    EXPECT_EQ(ids[5], 1u);
    EXPECT_EQ(insts[18], 1u); // instance 1 starts at triangle 6

    // A primitive must fit in every buffer: a smaller instance buffer stops both.
    std::vector<uint32_t> small(9, 0);
    b.buffers[1] = {small.data(), 0, 36, 4};
    StreamOutput sc(b);
    sc.begin();
    EXPECT_EQ(capture_serial(text, sc).written[0], 3u);
    EXPECT_EQ(sc.written_bytes(0), 36u);
}

// A context over one description's buffers with stream output bound.
struct Capturing {
    std::unique_ptr<BoundDraw> draw;
    TraceBackend trace;
    Context ctx;
    Capturing(std::string_view text, const StreamOutputState& so, ContextOptions options = {})
        : draw(bind_draw(parse_draw_text(text))), ctx(options) {
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(draw->buffers);
        ctx.set_vertex_attribs(draw->attribs);
        ctx.set_stream_output(so);
    }
};

TEST(StreamOutput, SessionAppendsAcrossDrawsAndPauses) {
    std::vector<uint32_t> mem;
    Capturing c("prim points\nindex none\nstart 0\ncount 3\n", ids_state(mem, 64));
    DrawInfo a = c.draw->info, b = a, d = a;
    b.start = 10;
    d.start = 20;
    c.ctx.begin_stream_output();
    c.ctx.draw(a); // 0 1 2
    c.ctx.pause_stream_output();
    c.ctx.draw(b); // not captured, still generated
    c.ctx.resume_stream_output();
    c.ctx.draw(d); // 20 21 22, after 0 1 2
    c.ctx.draw(a); // 0 1 2 again: only two fit in 64 bytes (8 points)
    const DrawStats s = c.ctx.flush();
    EXPECT_EQ(s.primitives.generated[0], 12u);
    EXPECT_EQ(s.primitives.written[0], 8u);
    const StreamOutputCounts session = c.ctx.end_stream_output();
    EXPECT_EQ(session.generated[0], 9u); // the paused draw is not the session's
    EXPECT_EQ(session.written[0], 8u);
    const uint32_t want[] = {0, 1, 2, 20, 21, 22, 0, 1};
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(mem[2 * i], want[i]) << i;
    // A new session starts again at the bound offset.
    c.ctx.begin_stream_output();
    c.ctx.draw(b);
    EXPECT_EQ(c.ctx.stream_output_written_bytes(0), 24u);
    EXPECT_EQ(c.ctx.end_stream_output().written[0], 3u);
    EXPECT_EQ(mem[0], 10u);
    EXPECT_EQ(mem[6], 20u);
    // The trace backend saw every draw: stream output does not replace rasterization.
    EXPECT_EQ(std::count(c.trace.text().begin(), c.trace.text().end(), '\n'), 15);
}

TEST(StreamOutput, SessionCallsOutOfOrderAreErrors) {
    std::vector<uint32_t> mem;
    Capturing c(kTris, ids_state(mem, 64));
    expect_error([&] { c.ctx.pause_stream_output(); }, ErrorCode::invalid_operation, "pause");
    expect_error([&] { c.ctx.end_stream_output(); }, ErrorCode::invalid_operation, "end");
    c.ctx.begin_stream_output();
    expect_error([&] { c.ctx.begin_stream_output(); }, ErrorCode::invalid_operation, "begin");
    expect_error([&] { c.ctx.resume_stream_output(); }, ErrorCode::invalid_operation, "resume");
    expect_error([&] { c.ctx.set_stream_output(ids_state(mem, 64)); }, ErrorCode::invalid_operation,
                 "session");
    c.ctx.end_stream_output();
    Context bare;
    expect_error([&] { bare.begin_stream_output(); }, ErrorCode::invalid_operation, "none bound");
}

// Counts what reaches it.
struct CountingBackend final : Backend {
    int begins = 0, prims = 0, ends = 0;
    void begin_draw(const DrawInfo&, const VertexLayout&) override { ++begins; }
    void draw_elements(Prim, uint8_t, const VertexView&, std::span<const uint32_t>) override {
        ++prims;
    }
    void end_draw() override { ++ends; }
};

TEST(StreamOutput, RasterizerDiscardStopsEverythingAfterCapture) {
    std::vector<uint32_t> mem;
    StreamOutput so(ids_state(mem, 1024));
    so.begin();
    CountingBackend counting;
    const StreamOutputCounts n = capture_serial(kTris, so, 3, true, &counting);
    EXPECT_EQ(counting.begins + counting.prims + counting.ends, 0);
    EXPECT_EQ(n.written[0], 4u);
    EXPECT_EQ(mem[2 * 11], 11u);

    Capturing c(kTris, ids_state(mem, 1024));
    c.ctx.set_rasterizer_discard(true);
    c.ctx.begin_stream_output();
    c.ctx.draw(c.draw->info);
    EXPECT_EQ(c.ctx.end_stream_output().written[0], 4u);
    EXPECT_TRUE(c.trace.text().empty());
    c.ctx.set_rasterizer_discard(false);
    c.ctx.draw(c.draw->info);
    c.ctx.flush();
    EXPECT_FALSE(c.trace.text().empty());
}

// Many draws, split small, through the pipeline on 1 and 2 threads and through draw_serial:
// the buffer and the counts are the same bytes.
TEST(StreamOutput, SameBytesForEveryThreadCount) {
    const char* text = "prim triangle_fan\nindex u16\n"
                       "indices 7 1 2 3 4 5 6 7 8 9 10 65535 11 12 13 14 15 16 17 18 19 20\n"
                       "restart 65535\ninstances 3\nattrib 0\nattrib 1\n";
    auto state = [](std::vector<uint32_t>& mem) {
        StreamOutputState so;
        so.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0, 0},
                      {CaptureSource::instance_id, 0, 0, 1, 0, 1, 0},
                      {CaptureSource::varying, 1, 0, 1, 0, 2, 0},
                      {CaptureSource::varying, 0, 0, 1, 1, 0, 0}};
        mem.assign(4000, 0);
        so.buffers[0] = {mem.data(), 0, 3000 * 4, 12};
        so.buffers[1] = {mem.data() + 3000, 0, 1000 * 4, 4};
        return so;
    };
    std::vector<uint32_t> serial_mem;
    StreamOutput serial(state(serial_mem));
    serial.begin();
    uint64_t serial_written = 0;
    for (int i = 0; i < 40; ++i) serial_written += capture_serial(text, serial).written[0];
    EXPECT_EQ(serial_written, 333u); // buffer 0 holds 333 triangles of 36 bytes
    for (uint32_t threads : {1u, 2u}) {
        for (uint32_t limit : {4u, 5u, 9u, 0u}) {
            ContextOptions o;
            o.threads = threads;
            o.inline_below = 0; // the pipeline even for small flushes
            o.draw.max_vertices = limit;
            std::vector<uint32_t> mem;
            Capturing c(text, state(mem), o);
            c.ctx.begin_stream_output();
            for (int i = 0; i < 40; ++i) c.ctx.draw(c.draw->info);
            const StreamOutputCounts n = c.ctx.end_stream_output();
            EXPECT_EQ(n.generated[0], 40u * 51u);
            EXPECT_EQ(n.written[0], serial_written);
            EXPECT_EQ(mem, serial_mem) << threads << " threads, limit " << limit;
        }
    }
}

TEST(StreamOutput, GeometryShaderOutputs) {
    const GeometryShader& gs = find_gs("amplify3_layer");
    const auto bound = bind_draw(parse_draw_text("prim triangles\nindex none\ncount 6\n"));
    const DrawState ds{bound->info, bound->input(), nullptr, &gs};
    std::vector<uint32_t> mem(64, 0);
    StreamOutputState st;
    st.outputs = {{CaptureSource::gs_id, 0, 0, 1, 0, 0, 0},
                  {CaptureSource::layer, 0, 0, 1, 0, 1, 0}};
    st.buffers[0] = {mem.data(), 0, 5 * 24 + 20, 8}; // 5 triangles and part of a sixth
    StreamOutput so(st);
    so.begin();
    FetchShade middle(65536);
    TraceBackend trace;
    const DrawStats s = draw_serial(ds, middle, trace, {}, {&so, false});
    EXPECT_EQ(s.primitives.generated[0], 6u);
    EXPECT_EQ(s.primitives.written[0], 5u);
    EXPECT_EQ(mem[1], 0u);
    EXPECT_EQ(mem[2 * 3 + 1], 1u); // the second strip is layer 1
    StreamOutputState bad = st;
    bad.outputs[0].source = CaptureSource::vertex_id;
    StreamOutput so2(bad);
    expect_error(
        [&] {
            draw_serial(ds, middle, trace, {}, {&so2, false});
        },
        ErrorCode::invalid_value, "not an output of a geometry shader");
}

} // namespace

namespace {

// Per input point p: stream 0 draws the points p and p+1, stream 1 the points p+1000 and
// p+1001, their emits interleaved (GL allows several streams only with points output).
GeometryShader two_streams() {
    GeometryShader gs;
    gs.name = "two_streams";
    gs.input = Prim::points;
    gs.output = Prim::points;
    gs.max_vertices = 4;
    gs.streams = 2;
    gs.main = [](GsContext& c) {
        const uint32_t p = c.vertex_id(0);
        c.emit_stream_vertex(0, {.id = p});
        c.emit_stream_vertex(1, {.id = p + 1000});
        c.emit_stream_vertex(0, {.id = p + 1});
        c.emit_stream_vertex(1, {.id = p + 1001});
    };
    return gs;
}

// Every middle end that runs geometry shaders delivers every stream: the reference, the A4xx
// (prim_info's stream bits) in both forms and gen7 (its stream-id control data).
TEST(StreamOutput, VertexStreamsWriteTheirOwnBuffers) {
    register_builtin_middle_ends();
    const GeometryShader gs = two_streams();
    const auto bound = bind_draw(parse_draw_text("prim points\nindex none\ncount 5\n"));
    std::vector<uint32_t> b0(32, 0), b1(32, 0);
    StreamOutputState st;
    st.mode = CaptureMode::separate;
    st.outputs = {{CaptureSource::gs_id, 0, 0, 1, 0, 0, 0},
                  {CaptureSource::gs_id, 0, 0, 1, 1, 0, 1}};
    st.buffers[0] = {b0.data(), 0, b0.size() * 4, 4};
    st.buffers[1] = {b1.data(), 0, 6 * 4, 4}; // 6 points of stream 1
    for (const char* name : {"fetch_shade", "a4xx", "a4xx_naive", "gen7"})
        for (uint32_t threads : {1u, 2u}) {
            SCOPED_TRACE(std::string(name) + ", " + std::to_string(threads) + " threads");
            ContextOptions o;
            o.threads = threads;
            o.inline_below = 0;
            o.draw.max_vertices = 2;
            std::fill(b0.begin(), b0.end(), 0u);
            std::fill(b1.begin(), b1.end(), 0u);
            Context ctx(o);
            TraceBackend trace;
            ctx.bind_middle_end(name);
            ctx.bind_backend(trace);
            ctx.set_vertex_buffers(bound->buffers);
            ctx.set_vertex_attribs(bound->attribs);
            ctx.bind_geometry_shader(&gs);
            ctx.set_stream_output(st);
            ctx.begin_stream_output();
            ctx.draw(bound->info);
            const StreamOutputCounts n = ctx.end_stream_output();
            EXPECT_EQ(n.generated[0], 10u);
            EXPECT_EQ(n.written[0], 10u);
            EXPECT_EQ(n.generated[1], 10u);
            EXPECT_EQ(n.written[1], 6u);
            for (uint32_t p = 0; p < 5; ++p) {
                EXPECT_EQ(b0[2 * p], p);
                EXPECT_EQ(b0[2 * p + 1], p + 1);
            }
            for (uint32_t p = 0; p < 3; ++p) {
                EXPECT_EQ(b1[2 * p], p + 1000);
                EXPECT_EQ(b1[2 * p + 1], p + 1001);
            }
            EXPECT_EQ(b1[6], 0u);
            // Only stream 0 reaches the backend.
            EXPECT_EQ(trace.text(), "point 0\npoint 1\npoint 1\npoint 2\npoint 2\npoint 3\npoint "
                                    "3\npoint 4\npoint 4\npoint 5\n");
        }
}

// A middle end that drops streams past 0 (gen7 compiled without stream output drops them in
// the thread, as Haswell's compiler does) refuses a capture of them rather than leave their
// buffers empty; stream 0 alone it captures.
TEST(StreamOutput, MiddleEndsThatDropStreamsRefuseToCaptureThem) {
    const GeometryShader gs = two_streams();
    const auto bound = bind_draw(parse_draw_text("prim points\nindex none\ncount 5\n"));
    std::vector<uint32_t> b0(32, 0), b1(32, 0);
    StreamOutputState st;
    st.mode = CaptureMode::separate;
    st.outputs = {{CaptureSource::gs_id, 0, 0, 1, 0, 0, 0},
                  {CaptureSource::gs_id, 0, 0, 1, 1, 0, 1}};
    st.buffers[0] = {b0.data(), 0, b0.size() * 4, 4};
    st.buffers[1] = {b1.data(), 0, b1.size() * 4, 4};
    Context ctx;
    TraceBackend trace;
    ctx.bind_middle_end(std::make_shared<gen7::Gen7MiddleEnd>(4096, false));
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound->buffers);
    ctx.set_vertex_attribs(bound->attribs);
    ctx.bind_geometry_shader(&gs);
    ctx.set_stream_output(st);
    expect_error([&] { ctx.draw(bound->info); }, ErrorCode::unsupported, "vertex stream");
    StreamOutputState zero = st;
    zero.outputs.pop_back();
    ctx.set_stream_output(zero);
    ctx.begin_stream_output();
    ctx.draw(bound->info);
    EXPECT_EQ(ctx.end_stream_output().written[0], 10u);
    EXPECT_EQ(b0[9], 5u);
}

} // namespace

namespace {

// glDrawTransformFeedback: capture a draw, then draw exactly the vertices written.
TEST(StreamOutput, DrawWhatWasCaptured) {
    std::vector<uint32_t> mem;
    Capturing c("prim triangle_strip\nindex none\ncount 7\n", ids_state(mem, 4 * 24 + 8));
    expect_error([&] { c.ctx.draw_stream_output(c.draw->info); }, ErrorCode::invalid_operation,
                 "no capture session has ended");
    c.ctx.begin_stream_output();
    c.ctx.draw(c.draw->info); // 5 triangles generated, 4 written: 12 vertices
    c.ctx.end_stream_output();
    c.ctx.flush();
    c.trace.clear();
    DrawInfo points = c.draw->info;
    points.prim = Prim::points;
    points.start = 100;
    c.ctx.draw_stream_output(points);
    c.ctx.flush();
    EXPECT_EQ(std::count(c.trace.text().begin(), c.trace.text().end(), '\n'), 12);
    EXPECT_EQ(c.trace.text().substr(0, 10), "point 100/");
    DrawInfo indexed = points;
    indexed.index_type = IndexType::u16;
    expect_error([&] { c.ctx.draw_stream_output(indexed); }, ErrorCode::invalid_value,
                 "not indexed");
}

} // namespace

namespace {

// GL_PRIMITIVES_GENERATED counts primitives as stream output writes them while it writes
// (triangles), and as drawn otherwise: a polygon once, even split into pieces, a quad once.
TEST(StreamOutput, GeneratedCountsAsCapturedOrAsDrawn) {
    for (uint32_t limit : {0u, 6u, 7u}) {
        std::vector<uint32_t> mem;
        StreamOutput so(ids_state(mem, 4096));
        EXPECT_EQ(capture_serial("prim polygon\nindex none\ncount 10\n", so, limit).generated[0],
                  1u);
        EXPECT_EQ(capture_serial("prim quads\nindex none\ncount 10\n", so, limit).generated[0], 2u);
        so.begin();
        EXPECT_EQ(capture_serial("prim polygon\nindex none\ncount 10\n", so, limit).generated[0],
                  8u);
        EXPECT_EQ(capture_serial("prim quads\nindex none\ncount 10\n", so, limit).generated[0], 4u);
        so.pause();
        EXPECT_EQ(capture_serial("prim quad_strip\nindex none\ncount 10\n", so, limit).generated[0],
                  4u);
    }
}

} // namespace
