// Multi-draw and indirect draws (Context::draw(span), Context::draw_indirect,
// resolve_indirect): a multi-draw draws exactly what its draws issued one by one with the same
// draw ids draw, for every primitive type, limit, middle end and thread count; the draw id
// reaches the vertex shader, the records and the capture; indirect records follow GL's rules
// and bad ones are an Error naming them, never a read outside the buffers.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/indirect.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/shader.hpp"
#include "support/expect_error.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;
using test::expect_error;

namespace {

// A vertex shader writing (vertex id, instance, draw id, 7) as an integer varying.
VertexShader draw_id_shader() {
    ShaderOutputs o;
    o.add_varying({ValueType::uint32, Interp::flat, 4});
    return per_vertex_shader(
        o, [](const float*, float* out, uint32_t vertex, uint32_t instance, uint32_t draw_id) {
            const uint32_t v[4] = {vertex, instance, draw_id, 7};
            std::memcpy(out + 4, v, sizeof v); // after the position
        });
}

// 64 indices over vertices 0..39 with a restart index here and there.
std::vector<uint32_t> some_indices(std::mt19937& rng) {
    std::vector<uint32_t> out(64);
    for (uint32_t& i : out) i = rng() % 9 == 0 ? 0xFFFF : rng() % 40;
    return out;
}

struct Scene {
    Prim prim = Prim::triangles;
    bool indexed = false;
    std::vector<uint16_t> indices;
    std::vector<uint32_t> attrib = std::vector<uint32_t>(256);
    VertexBuffer buffer;
    VertexAttrib attr{0, 0, Format::uint32x1, 0};
    Scene() {
        for (uint32_t k = 0; k < attrib.size(); ++k) attrib[k] = k * 3;
        buffer = {attrib.data(), attrib.size() * 4, 4, 0};
    }
    DrawInfo base() const {
        DrawInfo d;
        d.prim = prim;
        if (indexed) {
            d.index_type = IndexType::u16;
            d.indices = indices.data();
            d.index_buffer_count = uint32_t(indices.size());
            d.primitive_restart = true;
            d.restart_index = 0xFFFF;
        }
        return d;
    }
};

struct Options {
    std::string middle = "fetch_shade";
    uint32_t threads = 1;
    uint32_t max_vertices = 0;
    const VertexShader* vs = nullptr;
    const GeometryShader* gs = nullptr;
    bool through_pipeline = true;
};

// The trace of `draws` drawn one by one (draw ids as given), or as one multi-draw.
std::string trace(const Scene& s, const std::vector<DrawInfo>& draws, const Options& o,
                  bool multi) {
    ContextOptions co;
    co.threads = o.threads;
    co.draw.max_vertices = o.max_vertices;
    if (o.through_pipeline) co.inline_below = 0;
    Context ctx(co);
    TraceBackend t;
    t.print_draw_ids(true);
    ctx.bind_middle_end(o.middle);
    ctx.bind_backend(t);
    ctx.set_vertex_buffers({&s.buffer, 1});
    ctx.set_vertex_attribs({&s.attr, 1});
    if (o.vs) ctx.bind_vertex_shader(*o.vs);
    ctx.bind_geometry_shader(o.gs);
    if (multi)
        ctx.draw(std::span<const DrawInfo>(draws));
    else
        for (const DrawInfo& d : draws) ctx.draw(d);
    ctx.flush();
    return t.take();
}

std::vector<DrawInfo> random_draws(const Scene& s, std::mt19937& rng, uint32_t n) {
    std::vector<DrawInfo> out;
    for (uint32_t i = 0; i < n; ++i) {
        DrawInfo d = s.base();
        d.start = rng() % 20;
        d.count = rng() % 4 == 0 ? 0 : rng() % 40; // some empty sub-draws
        if (s.indexed) d.base_vertex = int32_t(rng() % 5);
        d.instance_count = 1 + rng() % 2;
        d.base_instance = rng() % 3;
        d.draw_id = i;
        out.push_back(d);
    }
    return out;
}

TEST(MultiDraw, EqualsTheDrawsOneByOneForEveryPrimLimitAndThreadCount) {
    register_builtin_middle_ends();
    const VertexShader vs = draw_id_shader();
    std::mt19937 rng(30);
    for (int p = 0; p < int(Prim::patches); ++p) { // patches need tessellation: tess_stages_test
        for (const bool indexed : {false, true}) {
            Scene s;
            s.prim = Prim(p);
            s.indexed = indexed;
            for (uint32_t i : some_indices(rng)) s.indices.push_back(uint16_t(i));
            const std::vector<DrawInfo> draws = random_draws(s, rng, 6);
            for (const uint32_t threads : {1u, 2u, 4u}) {
                for (const uint32_t limit : {0u, 8u}) { // 8: what every type needs
                    for (const VertexShader* v : {(const VertexShader*)nullptr, &vs}) {
                        Options o;
                        o.threads = threads;
                        o.max_vertices = limit;
                        o.vs = v;
                        const std::string one = trace(s, draws, o, false);
                        EXPECT_EQ(trace(s, draws, o, true), one)
                            << prim_name(s.prim) << (indexed ? " indexed" : "") << ", " << threads
                            << " threads, limit " << limit;
                        o.middle = "fetch_shade_simd";
                        EXPECT_EQ(trace(s, draws, o, true), one)
                            << "simd " << prim_name(s.prim) << ", " << threads << " threads";
                    }
                }
            }
        }
    }
}

TEST(MultiDraw, EveryMiddleEndCarriesTheDrawId) {
    register_builtin_middle_ends();
    const VertexShader vs = draw_id_shader();
    Scene s;
    s.prim = Prim::triangle_strip;
    std::mt19937 rng(7);
    std::vector<DrawInfo> draws = random_draws(s, rng, 5);
    draws[4].count = 5;
    Options o;
    o.vs = &vs;
    const std::string reference = trace(s, draws, o, false);
    // The draw ids are in the trace: 3rd field of the vertex and 3rd component of the varying.
    EXPECT_NE(reference.find("/4["), std::string::npos) << reference;
    for (const MiddleEndRegistry::Entry& e : MiddleEndRegistry::global().entries()) {
        for (const uint32_t threads : {1u, 3u}) {
            o.middle = e.name;
            o.threads = threads;
            EXPECT_EQ(trace(s, draws, o, true), reference) << e.name << ", " << threads;
        }
    }
}

TEST(MultiDraw, PrimitiveIdsRestartPerSubDrawWithAGeometryShader) {
    register_builtin_middle_ends();
    Scene s;
    s.prim = Prim::triangles;
    std::vector<DrawInfo> draws;
    for (uint32_t i = 0; i < 3; ++i) {
        DrawInfo d = s.base();
        d.start = 3 * i;
        d.count = 6;
        d.draw_id = i;
        draws.push_back(d);
    }
    for (const char* middle : {"fetch_shade", "gen7", "a4xx"}) {
        Options o;
        o.middle = middle;
        o.gs = &find_gs("passthrough_tri");
        const std::string multi = trace(s, draws, o, true);
        EXPECT_EQ(multi, trace(s, draws, o, false)) << middle;
        // tag = 1000 * primitive id + vertex id: the third sub-draw's triangles (vertices
        // 6 7 8, 9 10 11) have primitive ids 0 and 1 again, not 4 and 5.
        EXPECT_NE(multi.find("tri 6 7 8\n"), std::string::npos) << multi;
        EXPECT_NE(multi.find("tri 1009 1010 1011\n"), std::string::npos) << multi;
        EXPECT_EQ(multi.find("5009"), std::string::npos) << multi;
    }
}

TEST(MultiDraw, DrawSerialDrawsWhatTheContextDraws) {
    register_builtin_middle_ends();
    const VertexShader vs = draw_id_shader();
    Scene s;
    s.prim = Prim::line_strip;
    s.indexed = true;
    std::mt19937 rng(11);
    for (uint32_t i : some_indices(rng)) s.indices.push_back(uint16_t(i));
    const std::vector<DrawInfo> draws = random_draws(s, rng, 7);
    Options o;
    o.vs = &vs;
    const std::string reference = trace(s, draws, o, true);
    TraceBackend t;
    t.print_draw_ids(true);
    const DrawState state{s.base(), {{&s.buffer, 1}, {&s.attr, 1}}, &vs, nullptr};
    const DrawStats stats =
        draw_serial(state, draws, *MiddleEndRegistry::global().find("fetch_shade"), t);
    EXPECT_EQ(t.text(), reference);
    EXPECT_GT(stats.front.segments, 0u);
    std::vector<DrawInfo> bad = draws;
    bad[5].start = 60;
    bad[5].count = 10; // past the 64 indices
    TraceBackend none;
    expect_error(
        [&] { draw_serial(state, bad, *MiddleEndRegistry::global().find("fetch_shade"), none); },
        ErrorCode::index_buffer_overrun, "draw 5: ");
    EXPECT_EQ(none.text(), "");
}

// fetch_shade, counting its prepare() calls.
class CountingPrepare final : public MiddleEnd {
  public:
    std::string_view name() const override { return "counting_prepare"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        ++prepares;
        return inner->prepare(state);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner->make_scratch();
    }
    std::span<const std::string_view> counters() const override { return inner->counters(); }

    std::shared_ptr<const MiddleEnd> inner = MiddleEndRegistry::global().find("fetch_shade_simd");
    mutable std::atomic<int> prepares{0};
};

TEST(MultiDraw, SubDrawsDifferingInStartAndDrawIdShareOnePreparation) {
    Scene s;
    const VertexShader vs = draw_id_shader();
    auto middle = std::make_shared<CountingPrepare>();
    std::vector<DrawInfo> draws;
    for (uint32_t i = 0; i < 100; ++i) {
        DrawInfo d = s.base();
        d.start = i % 50;
        d.count = 6;
        draws.push_back(d);
    }
    ContextOptions co;
    co.threads = 2;
    co.inline_below = 0;
    Context ctx(co);
    TraceBackend t;
    t.print_draw_ids(true);
    ctx.bind_middle_end(middle);
    ctx.bind_backend(t);
    ctx.set_vertex_buffers({&s.buffer, 1});
    ctx.set_vertex_attribs({&s.attr, 1});
    ctx.bind_vertex_shader(vs);
    ctx.draw(std::span<const DrawInfo>(draws));
    ctx.flush();
    EXPECT_EQ(middle->prepares, 1);
    // ... and each keeps its own draw id: sub-draw 99 starts at 49.
    EXPECT_NE(t.text().find("tri 49/0/99[49,0,99,7] 50/0/99"), std::string::npos) << t.text();
}

TEST(MultiDraw, ABadSubDrawIsAnErrorNamingItAndNothingIsDrawn) {
    Scene s;
    s.indexed = true;
    s.indices.assign(12, 1);
    std::vector<DrawInfo> draws(3, s.base());
    for (DrawInfo& d : draws) d.count = 6;
    draws[2].start = 10; // past the 12 indices
    Context ctx;
    TraceBackend t;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(t);
    ctx.set_vertex_buffers({&s.buffer, 1});
    ctx.set_vertex_attribs({&s.attr, 1});
    expect_error([&] { ctx.draw(std::span<const DrawInfo>(draws)); },
                 ErrorCode::index_buffer_overrun, "draw 2: ");
    ctx.flush();
    EXPECT_EQ(t.text(), "");
}

// Records laid out as GL reads them, `stride` bytes apart from `offset`.
std::vector<uint32_t> pack(const std::vector<std::vector<uint32_t>>& records, size_t offset,
                           size_t stride) {
    std::vector<uint32_t> out(offset / 4 + records.size() * stride / 4 + 8, 0xDEAD);
    for (size_t i = 0; i < records.size(); ++i)
        for (size_t k = 0; k < records[i].size(); ++k)
            out[offset / 4 + i * stride / 4 + k] = records[i][k];
    out.resize(offset / 4 + (records.size() - 1) * stride / 4 + records.back().size());
    return out;
}

TEST(Indirect, RecordsDecodeWithOffsetStrideAndSkipEmptyOnes) {
    Scene s;
    s.indexed = true;
    s.indices.assign(40, 0);
    const std::vector<std::vector<uint32_t>> recs = {
        {3, 2, 5, uint32_t(-2), 1}, {0, 1, 0, 0, 0}, {6, 0, 1, 0, 0}, {9, 1, 7, 4, 3}};
    const std::vector<uint32_t> buf = pack(recs, 8, 32);
    IndirectDraws in;
    in.buffer = {buf.data(), buf.size() * 4};
    in.offset = 8;
    in.stride = 32;
    in.draw_count = 4;
    const std::vector<DrawInfo> d = resolve_indirect(s.base(), in);
    ASSERT_EQ(d.size(), 2u); // records 1 (count 0) and 2 (no instance) are skipped
    EXPECT_EQ(d[0].draw_id, 0u);
    EXPECT_EQ(d[0].count, 3u);
    EXPECT_EQ(d[0].instance_count, 2u);
    EXPECT_EQ(d[0].start, 5u);
    EXPECT_EQ(d[0].base_vertex, -2);
    EXPECT_EQ(d[0].base_instance, 1u);
    EXPECT_EQ(d[1].draw_id, 3u); // the record's index, not its place among those drawn
    EXPECT_EQ(d[1].start, 7u);
    EXPECT_EQ(d[1].base_vertex, 4);
    EXPECT_EQ(d[1].base_instance, 3u);
    EXPECT_EQ(d[1].index_type, IndexType::u16);

    // Non-indexed, tightly packed (stride 0): 16-byte records.
    Scene a;
    const std::vector<uint32_t> flat = {4, 1, 2, 0, 5, 3, 9, 2};
    in = {};
    in.buffer = {flat.data(), flat.size() * 4};
    in.draw_count = 2;
    const std::vector<DrawInfo> f = resolve_indirect(a.base(), in);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].count, 5u);
    EXPECT_EQ(f[1].instance_count, 3u);
    EXPECT_EQ(f[1].start, 9u);
    EXPECT_EQ(f[1].base_instance, 2u);
    EXPECT_EQ(f[1].base_vertex, 0);
}

TEST(Indirect, TheCountBufferIsClampedAndMaxRecordsMustFit) {
    Scene a;
    const std::vector<uint32_t> flat = {4, 1, 2, 0, 5, 3, 9, 2, 6, 1, 0, 0};
    uint32_t n = 2;
    IndirectDraws in;
    in.buffer = {flat.data(), flat.size() * 4};
    in.count_buffer = {&n, 4};
    in.draw_count = 3;
    EXPECT_EQ(resolve_indirect(a.base(), in).size(), 2u); // N < MAX
    n = 100;
    EXPECT_EQ(resolve_indirect(a.base(), in).size(), 3u); // clamped to MAX
    n = 0;
    EXPECT_TRUE(resolve_indirect(a.base(), in).empty());
    n = 2;
    in.draw_count = 0;
    EXPECT_TRUE(resolve_indirect(a.base(), in).empty()); // MAX = 0: nothing, no error
    // MAX records past the buffer: GL_INVALID_OPERATION even though N = 2 would fit.
    in.draw_count = 4;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "4 records of 16 bytes");
    // The same without a count buffer; and a stride or offset reaching past the end.
    in.count_buffer = {};
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "record buffer");
    in.draw_count = 2;
    in.stride = 32;
    EXPECT_EQ(resolve_indirect(a.base(), in).size(), 2u); // 32 + 16 = 48 bytes: fits
    in.offset = 4;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "record buffer");
    in.draw_count = 0xFFFFFFFF; // (MAX - 1) * stride near 2^37: no wrap-around
    in.stride = 0xFFFFFFFC;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "record buffer");
    in = {};
    in.buffer = {flat.data(), flat.size() * 4};
    in.offset = 2;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_value, "offset 2");
    in.offset = 0;
    in.stride = 18;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_value, "stride 18");
    in.stride = 0;
    in.count_buffer = {&n, 4};
    in.count_offset = 4; // the count's 4 bytes past the 4-byte buffer
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "count buffer");
    in.count_offset = 1;
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_value,
                 "count offset 1");
    in.count_buffer = {nullptr, 0};
    in.count_offset = 0;
    in.buffer = {nullptr, 0};
    expect_error([&] { resolve_indirect(a.base(), in); }, ErrorCode::invalid_operation,
                 "record buffer");
}

TEST(Indirect, DrawsWhatTheSameMultiDrawDrawsAndNamesABadRecord) {
    register_builtin_middle_ends();
    const VertexShader vs = draw_id_shader();
    Scene s;
    s.indexed = true;
    s.prim = Prim::triangle_strip;
    std::mt19937 rng(3);
    for (uint32_t i : some_indices(rng)) s.indices.push_back(uint16_t(i));
    std::vector<uint32_t> recs;
    std::vector<DrawInfo> direct;
    for (uint32_t i = 0; i < 12; ++i) {
        DrawInfo d = s.base();
        d.count = i % 5 == 3 ? 0 : rng() % 30;
        d.instance_count = i % 7 == 5 ? 0 : 1 + rng() % 3;
        d.start = rng() % 30;
        d.base_vertex = int32_t(rng() % 9);
        d.base_instance = rng() % 4;
        d.draw_id = i;
        recs.insert(recs.end(),
                    {d.count, d.instance_count, d.start, uint32_t(d.base_vertex), d.base_instance});
        if (d.count && d.instance_count) direct.push_back(d);
    }
    IndirectDraws in;
    in.buffer = {recs.data(), recs.size() * 4};
    in.draw_count = 12;
    for (const uint32_t threads : {1u, 2u}) {
        for (const char* middle : {"fetch_shade", "fetch_shade_simd", "mali"}) {
            ContextOptions co;
            co.threads = threads;
            co.inline_below = 0;
            Context ctx(co);
            TraceBackend t;
            t.print_draw_ids(true);
            ctx.bind_middle_end(middle);
            ctx.bind_backend(t);
            ctx.set_vertex_buffers({&s.buffer, 1});
            ctx.set_vertex_attribs({&s.attr, 1});
            ctx.bind_vertex_shader(vs);
            ctx.draw_indirect(s.base(), in);
            ctx.flush();
            Options o;
            o.middle = middle;
            o.threads = threads;
            o.vs = &vs;
            EXPECT_EQ(t.text(), trace(s, direct, o, false)) << middle << ", " << threads;
        }
    }
    // A record reaching past the index buffer: an Error naming it, nothing drawn.
    recs[5 * 4 + 2] = 60; // record 4 starts at index 60 of 64
    recs[5 * 4 + 0] = 9;
    recs[5 * 4 + 1] = 1;
    Context ctx;
    TraceBackend t;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(t);
    ctx.set_vertex_buffers({&s.buffer, 1});
    ctx.set_vertex_attribs({&s.attr, 1});
    expect_error([&] { ctx.draw_indirect(s.base(), in); }, ErrorCode::index_buffer_overrun,
                 "indirect record 4: ");
    ctx.flush();
    EXPECT_EQ(t.text(), "");
}

TEST(MultiDraw, TheDrawIdCanBeCaptured) {
    Scene s;
    std::vector<DrawInfo> draws(3, s.base());
    for (uint32_t i = 0; i < 3; ++i) draws[i].start = i, draws[i].count = 1;
    draws[0].prim = draws[1].prim = draws[2].prim = Prim::points;
    std::vector<uint32_t> captured(9, 0xFFFFFFFF);
    StreamOutputState so;
    so.outputs = {{CaptureSource::vertex_id, 0, 0, 1, 0, 0},
                  {CaptureSource::draw_id, 0, 0, 1, 0, 1},
                  {CaptureSource::varying, 0, 0, 1, 0, 2}};
    so.buffers[0] = {captured.data(), 0, captured.size() * 4, 12};
    Context ctx;
    TraceBackend t;
    ctx.bind_middle_end("fetch_shade_simd");
    ctx.bind_backend(t);
    ctx.set_vertex_buffers({&s.buffer, 1});
    ctx.set_vertex_attribs({&s.attr, 1});
    ctx.set_stream_output(so);
    ctx.begin_stream_output();
    ctx.draw(std::span<const DrawInfo>(draws));
    ctx.end_stream_output();
    EXPECT_EQ(captured, (std::vector<uint32_t>{0, 0, 0, 1, 1, 3, 2, 2, 6}));
}

TEST(MultiDraw, DescriptionsRoundTripAndKeysConflict) {
    const DrawDesc d = parse_draw_text("prim triangles\nindex u8\nindices 0 1 2 3\n"
                                       "multi_draw 0 3\nmulti_draw 1 3 -1\n");
    ASSERT_EQ(d.multi.draws.size(), 2u);
    EXPECT_EQ(d.multi.draws[1].base_vertex, -1);
    EXPECT_TRUE(d.multi.draw_ids());
    const DrawDesc again = parse_draw_text(format_draw_text(d));
    EXPECT_EQ(again.multi.draws.size(), 2u);
    const DrawDesc in = parse_draw_text("prim points\nindirect 3 1 0 0\nindirect 2 2 1 0\n"
                                        "indirect_count 5 2\n");
    EXPECT_EQ(parse_draw_text(format_draw_text(in)).multi.records.size(), 2u);
    expect_error([] { parse_draw_text("prim points\ncount 3\nmulti_draw 0 3\n"); },
                 ErrorCode::parse_error, "line 2: count: given with multi_draw");
    expect_error([] { parse_draw_text("prim points\nindirect 3 1 0 0 0\n"); },
                 ErrorCode::parse_error, "line 2: indirect: a non-indexed");
    expect_error([] { parse_draw_text("prim points\ninstances 2\nindirect 3 1 0 0\n"); },
                 ErrorCode::parse_error, "instances: given with indirect");
    expect_error([] { parse_draw_text("prim points\nindirect_count 3\n"); }, ErrorCode::parse_error,
                 "indirect_count: expects N MAX");
}

} // namespace
