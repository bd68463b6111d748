// The chunked front end (draw/front_end/chunks.hpp, kChunkPositions, lowered here through
// the chunk size option so that small draws make many chunks): draws of several chunks, split by
// one front end in order or chunk by chunk on any thread, give the same segments; split flags and
// primitive ids stay right across chunk cuts; the split cache replays exactly those segments; the
// trace equals the GL oracle's; and the pipeline at 1, 2, 3 and 8 threads hands the backend the
// bytes draw_serial does.
#include "draw/context/validate.hpp"
#include "draw/front_end/chunks.hpp"
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/split_replay.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/prim.hpp"
#include "support/gl_oracle.hpp"
#include "support/tess_util.hpp"
#include "support/trace_util.hpp"
#include "tools/common/draw_text.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

const tbb::global_control g_threads(tbb::global_control::max_allowed_parallelism, 8);

constexpr uint32_t C = 4096; // the chunk size the tests split with

uint32_t type_max(IndexType type) {
    return type == IndexType::u8 ? 0xFF : type == IndexType::u16 ? 0xFFFF : 0xFFFFFFFFu;
}

// A draw of several chunks. With restart: restarts now and then in chunk 0's first third,
// then one run over chunks 0 to 4 ending just before chunk 5, chunk 5 made of restarts only,
// and a restart just after chunk 6 begins.
DrawDesc chunked_draw(Prim prim, IndexType type, bool restart, uint32_t seed) {
    std::mt19937 rng(seed);
    DrawDesc d;
    d.prim = prim;
    d.index_type = type;
    d.provoking = seed % 2 ? Provoking::first : Provoking::last;
    d.attrib_divisors = {0};
    d.count = restart ? 6 * C + 1000 : 4 * C + 777 + seed % 5;
    d.count_given = true;
    if (type == IndexType::none) {
        d.start = seed % 7;
        return d;
    }
    // Patches ignore restart (GL): a u32 restart value is then a vertex base vertex overflows.
    d.base_vertex = prim == Prim::patches && restart ? 0 : int32_t(seed % 9);
    const uint32_t span = type == IndexType::u8 ? 255 : 3000; // reuse within segments
    // An odd start or run start puts chunk cuts at odd primitives of a run (strip parity).
    d.start = seed % 3;
    d.indices.resize(d.start + d.count);
    for (uint32_t& v : d.indices) v = rng() % span;
    if (restart) {
        d.restart = true;
        d.restart_index = type_max(type);
        for (uint32_t i = 0; i < C / 3; ++i)
            if (rng() % 97 == 0) d.indices[i] = d.restart_index;
        d.indices[C / 3 + 1 + seed % 4] = d.restart_index;
        d.indices[d.start + 5 * C - 1] = d.restart_index;
        for (uint32_t i = d.start + 5 * C; i < d.start + 6 * C; ++i) d.indices[i] = d.restart_index;
        d.indices[d.start + 6 * C + 1] = d.restart_index;
    }
    return d;
}

struct Rec {
    Prim prim;
    uint8_t flags;
    uint32_t instance_first, instance_count, prim_id_first;
    uint64_t sequence;
    std::vector<uint32_t> ids, elts; // resolved vertex ids, draw elements
    bool operator==(const Rec&) const = default;
};

Rec record(const Segment& s) {
    Rec r{s.prim, s.flags, s.instance_first, s.instance_count, s.prim_id_first, s.sequence, {}, {}};
    for (uint32_t i = 0; i < s.fetch_count; ++i) r.ids.push_back(s.vertex_id(i));
    for (uint32_t i = 0; i < s.draw_count; ++i) r.elts.push_back(s.draw_elt(i));
    return r;
}

FrontEndOptions options_for(uint32_t limit, const char* strategy, bool instancing) {
    MiddleEndLimits lim;
    lim.max_vertices = limit;
    lim.handles_instancing = instancing;
    return {lim, *Strategy::parse(strategy), C};
}

// The whole draw through one front end, in order, with next() or drain().
std::vector<Rec> split_serial(const DrawInfo& info, const FrontEndOptions& o, bool drain) {
    validate_draw(info);
    check_split(info, o);
    check_indices(info, std::nullopt);
    FrontEnd fe;
    fe.begin(info, o);
    std::vector<Rec> out;
    SegmentStorage st;
    Segment seg;
    if (drain)
        fe.drain(st, seg, [&](const Segment& s) { out.push_back(record(s)); });
    else
        while (fe.next(st, seg)) out.push_back(record(seg));
    return out;
}

// Chunk by chunk, last chunk first, each through a front end that split other draws before.
std::vector<Rec> split_by_chunks(const DrawInfo& info, const FrontEndOptions& o) {
    const uint32_t chunks = chunk_count(info, o);
    const uint32_t passes = chunk_passes(info, o);
    RestartChunks table, serial_table;
    const bool restart = info.primitive_restart && info.index_type != IndexType::none;
    if (restart) {
        find_restart_chunks(info, o, chunks, table, true);
        find_restart_chunks(info, o, chunks, serial_table, false);
        EXPECT_EQ(table.run_begin, serial_table.run_begin);
        EXPECT_EQ(table.prim_base, serial_table.prim_base);
        EXPECT_EQ(table.next_restart, serial_table.next_restart);
    }
    std::vector<std::vector<Rec>> per(size_t(chunks) * passes);
    FrontEnd fe;
    SegmentStorage st;
    Segment seg;
    for (size_t u = per.size(); u-- > 0;) {
        begin_chunk(fe, info, o, restart ? &table : nullptr, uint32_t(u / chunks),
                    uint32_t(u % chunks));
        while (fe.next(st, seg)) per[u].push_back(record(seg));
    }
    std::vector<Rec> out;
    for (auto& v : per) out.insert(out.end(), v.begin(), v.end());
    return out;
}

// Chunk by chunk in order through one front end and no restart table, as the pipeline splits
// on one thread: each chunk carries the run left open by the one before it.
std::vector<Rec> split_chunks_in_order(const DrawInfo& info, const FrontEndOptions& o) {
    const uint32_t chunks = chunk_count(info, o);
    const uint32_t passes = chunk_passes(info, o);
    FrontEnd fe;
    SegmentStorage st;
    Segment seg;
    std::vector<Rec> out;
    for (uint32_t pass = 0; pass < passes; ++pass)
        for (uint32_t c = 0; c < chunks; ++c) {
            begin_chunk(fe, info, o, nullptr, pass, c);
            while (fe.next(st, seg)) out.push_back(record(seg));
        }
    return out;
}

// Split flags and primitive ids against the runs found independently, pass by pass.
void check_runs(const DrawInfo& info, const std::vector<Rec>& segs) {
    std::vector<uint32_t> run_prims; // GL primitives of each run that draws any
    {
        uint32_t b = info.start;
        const uint32_t end = info.start + info.count;
        for (uint32_t i = info.start; i <= end; ++i) {
            bool cut = i == end;
            if (!cut && info.primitive_restart && info.index_type != IndexType::none) {
                uint32_t v = 0;
                if (info.index_type == IndexType::u8)
                    v = static_cast<const uint8_t*>(info.indices)[i];
                if (info.index_type == IndexType::u16)
                    v = static_cast<const uint16_t*>(info.indices)[i];
                if (info.index_type == IndexType::u32)
                    v = static_cast<const uint32_t*>(info.indices)[i];
                cut = v == info.restart_index;
            }
            if (!cut) continue;
            const uint32_t gl = gl_prim_count(
                info.prim, trim_count(info.prim, i - b, info.patch_vertices), info.patch_vertices);
            run_prims.push_back(gl);
            b = i + 1;
        }
    }
    size_t s = 0;
    uint64_t last_seq = 0;
    while (s < segs.size()) { // one pass
        const uint32_t instance = segs[s].instance_first;
        uint32_t base = 0;
        for (uint32_t gl : run_prims) {
            if (gl == 0) continue;
            ASSERT_LT(s, segs.size());
            ASSERT_EQ(segs[s].flags & SPLIT_BEFORE, 0) << "segment " << s;
            ASSERT_EQ(segs[s].prim_id_first, base) << "segment " << s;
            uint32_t id = base;
            for (;; ++s) {
                const Rec& r = segs[s];
                ASSERT_EQ(r.instance_first, instance);
                if (s > 0) {
                    ASSERT_GT(r.sequence, last_seq) << "segment " << s;
                }
                last_seq = r.sequence;
                if (info.prim != Prim::polygon) { // a polygon's pieces count triangles
                    ASSERT_EQ(r.prim_id_first, id) << "segment " << s;
                    id += gl_prim_count(r.prim, r.elts.size(), info.patch_vertices);
                }
                if (!(r.flags & SPLIT_AFTER)) break;
                ASSERT_LT(s + 1, segs.size());
                ASSERT_NE(segs[s + 1].flags & SPLIT_BEFORE, 0) << "segment " << s + 1;
            }
            ++s;
            if (info.prim != Prim::polygon) {
                ASSERT_EQ(id, base + gl);
            }
            base += gl;
        }
        if (run_prims.empty() ||
            std::all_of(run_prims.begin(), run_prims.end(), [](uint32_t g) { return g == 0; }))
            break;
    }
    EXPECT_EQ(s, segs.size());
}

const char* kStrategies[] = {"distinct", "direct-16", "exact", "none"};

// The trace through draw_serial, cut into chunks of C.
std::string trace_chunked(const DrawDesc& d, uint32_t limit, const char* strategy) {
    const auto bound = bind_draw(d);
    FetchShade middle(65536);
    TraceBackend trace;
    DrawState state{bound->info, bound->input(), nullptr, nullptr};
    const TessEvalShader tes = test::patch_ids_tes(d.patch_vertices); // shows each patch
    if (d.prim == Prim::patches) state.tes = &tes;
    draw_serial(state, middle, trace, {*Strategy::parse(strategy), limit, nullptr, C});
    return trace.take();
}

class ChunkedSplit : public ::testing::TestWithParam<int> {};

// For every index type, restart, strategy and limit: next(), drain(), the chunks one by one
// and the split cache's replay agree, and flags and primitive ids follow the runs.
TEST_P(ChunkedSplit, ChunksAgreeAndKeepFlagsAndPrimitiveIds) {
    const Prim prim = Prim(GetParam());
    uint32_t seed = 100 * uint32_t(GetParam());
    for (IndexType type : {IndexType::none, IndexType::u8, IndexType::u16, IndexType::u32})
        for (bool restart : {false, true}) {
            if (type == IndexType::none && restart) continue;
            DrawDesc d = chunked_draw(prim, type, restart, ++seed);
            d.instances = seed % 3 == 0 ? 2 : 1;
            const auto bound = bind_draw(d);
            const DrawInfo& info = bound->info;
            const uint32_t min_limit = min_segment_vertices(prim, d.patch_vertices);
            for (const char* strategy : kStrategies)
                for (uint32_t limit : {min_limit + seed % 7, 4096u}) {
                    const bool instancing = seed % 2 == 0;
                    const FrontEndOptions o = options_for(limit, strategy, instancing);
                    SCOPED_TRACE(std::string(prim_name(prim)) + " " +
                                 std::string(index_type_name(type)) +
                                 (restart ? " restart " : " ") + strategy + " limit " +
                                 std::to_string(limit));
                    const std::vector<Rec> serial = split_serial(info, o, false);
                    ASSERT_EQ(split_serial(info, o, true), serial);
                    const uint32_t chunks = chunk_count(info, o);
                    if (type != IndexType::none) {
                        ASSERT_GT(chunks, 1u);
                    }
                    if (chunks > 1) {
                        ASSERT_EQ(split_by_chunks(info, o), serial);
                        ASSERT_EQ(split_chunks_in_order(info, o), serial);
                    }
                    check_runs(info, serial);
                    if (type != IndexType::none && !instancing) {
                        // The split cache records and replays the same segments.
                        auto entry = record_split(info, o);
                        SplitReplay replay(entry, info, o.limits);
                        std::vector<Rec> replayed;
                        Segment seg;
                        while (replay.next(seg)) replayed.push_back(record(seg));
                        ASSERT_EQ(replayed, serial);
                    }
                }
        }
}

// The trace through draw_serial (every chunk cut) equals the GL oracle's.
TEST_P(ChunkedSplit, TraceEqualsOracle) {
    const Prim prim = Prim(GetParam());
    uint32_t seed = 1000 + 100 * uint32_t(GetParam());
    for (IndexType type : {IndexType::none, IndexType::u8, IndexType::u16, IndexType::u32}) {
        const bool restart = type != IndexType::none;
        DrawDesc d = chunked_draw(prim, type, restart, ++seed);
        d.instances = type == IndexType::u16 ? 2 : 1;
        const std::string expected = test::oracle_trace(d);
        const uint32_t min_limit = min_segment_vertices(prim, d.patch_vertices);
        const char* strategy = kStrategies[seed % 4];
        for (uint32_t limit : {min_limit + seed % 5, 4096u}) {
            const std::string got = trace_chunked(d, limit, strategy);
            if (got == expected) continue;
            const auto at = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
            FAIL() << prim_name(prim) << " " << index_type_name(type) << " " << strategy
                   << " limit " << limit << ": first difference at byte "
                   << (at.first - got.begin()) << "\n  got  "
                   << std::string(at.first,
                                  at.first + std::min<ptrdiff_t>(100, got.end() - at.first))
                   << "\n  want "
                   << std::string(at.second,
                                  at.second + std::min<ptrdiff_t>(100, expected.end() - at.second));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllPrims, ChunkedSplit, ::testing::Range(0, kPrimCount),
                         [](const auto& info) { return std::string(prim_name(Prim(info.param))); });

// Everything an ordered backend receives, hashed: the draw, then every call's primitive,
// flags and records.
class HashBackend final : public Backend {
  public:
    void begin_draw(const DrawInfo& draw, const VertexLayout&) override {
        mix(0xB0 + uint32_t(draw.prim));
    }
    void draw_elements(Prim prim, uint8_t flags, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        mix(uint32_t(prim) << 8 | flags);
        mix(uint32_t(elts.size()));
        for (uint32_t e : elts)
            for (uint32_t i = 0; i < v.stride; ++i) mix(v.vertex(e)[i]);
        ++calls;
    }
    void end_draw() override { mix(0xE0); }
    uint64_t hash = 0xcbf29ce484222325ull;
    uint64_t calls = 0;

  private:
    void mix(uint32_t x) { hash = (hash ^ x) * 0x100000001b3ull; }
};

TEST(ChunkedPipeline, EveryThreadCountGivesDrawSerialBytes) {
    std::vector<DrawDesc> descs;
    descs.push_back(chunked_draw(Prim::triangles, IndexType::u32, true, 1));
    descs.push_back(chunked_draw(Prim::triangle_strip, IndexType::u16, true, 2));
    descs.push_back(chunked_draw(Prim::triangle_fan, IndexType::u32, false, 3));
    descs.push_back(chunked_draw(Prim::line_loop, IndexType::u8, true, 4));
    descs.push_back(chunked_draw(Prim::lines_adjacency, IndexType::u16, false, 5));
    descs.push_back(chunked_draw(Prim::polygon, IndexType::none, false, 6));
    descs.push_back(chunked_draw(Prim::triangles, IndexType::u32, false, 7));
    descs.back().instances = 3;
    std::vector<std::unique_ptr<BoundDraw>> bound;
    for (const DrawDesc& d : descs) bound.push_back(bind_draw(d));
    for (const char* strategy : {"distinct", "exact"})
        for (uint32_t limit : {64u, 4096u}) {
            SCOPED_TRACE(std::string(strategy) + " limit " + std::to_string(limit));
            FetchShade middle(limit);
            HashBackend expected;
            for (const auto& b : bound)
                draw_serial({b->info, b->input(), nullptr, nullptr}, middle, expected,
                            {*Strategy::parse(strategy), 0, nullptr, C});
            ASSERT_GT(expected.calls, bound.size());
            for (uint32_t threads : {1u, 2u, 3u, 8u}) {
                ContextOptions o;
                o.threads = threads;
                o.draw.strategy = *Strategy::parse(strategy);
                o.draw.chunk_positions = C;
                o.inline_below = 0;
                Context ctx(o);
                ctx.bind_middle_end(std::make_shared<FetchShade>(limit));
                HashBackend got;
                ctx.bind_backend(got);
                for (const auto& b : bound) {
                    ctx.set_vertex_buffers(b->buffers);
                    ctx.set_vertex_attribs(b->attribs);
                    ctx.draw(b->info);
                }
                ctx.flush();
                EXPECT_EQ(got.hash, expected.hash) << threads << " threads";
                EXPECT_EQ(got.calls, expected.calls) << threads << " threads";
            }
        }
}

} // namespace
