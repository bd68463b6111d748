// The Mesa adapter's front end (integrations/mesa/src/drawpipe_split.cpp) hands Mesa's middle
// ends segments that draw the draw: each segment decomposed as Mesa's middle end decomposes
// it (the draw's primitive, a line-loop piece as a strip, listed fetch elements as final
// vertex ids) gives, in order, exactly the primitives of the whole draw, for every primitive
// type, index size, restart, base vertex and segment limit. And every indexed segment is
// listed (Mesa gives gl_BaseVertex only to listed fetches) and fetches only vertices it draws.
#include "integrations/mesa/src/drawpipe_split.h"

#include "drawpipe/decompose.hpp"
#include "support/random_draw.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

using Prims = std::vector<std::vector<uint32_t>>;

void add(Prims& out, Prim prim, const std::vector<uint32_t>& ids) {
    decompose_elements(prim, Provoking::last, ids,
                       [&](uint32_t n, const uint32_t* v) { out.emplace_back(v, v + n); });
}

// The whole draw: its restart runs, each decomposed on its own.
Prims expected(const DrawInfo& d) {
    Prims out;
    std::vector<uint32_t> run;
    for (uint32_t i = 0; i < d.count; ++i) {
        if (d.index_type == IndexType::none) {
            run.push_back(d.start + i);
            continue;
        }
        const uint32_t at = d.start + i;
        const uint32_t v =
            d.index_type == IndexType::u8    ? static_cast<const uint8_t*>(d.indices)[at]
            : d.index_type == IndexType::u16 ? static_cast<const uint16_t*>(d.indices)[at]
                                             : static_cast<const uint32_t*>(d.indices)[at];
        if (d.primitive_restart && v == d.restart_index) {
            add(out, d.prim, run);
            run.clear();
        } else {
            run.push_back(uint32_t(int64_t(v) + d.base_vertex));
        }
    }
    add(out, d.prim, run);
    return out;
}

} // namespace

TEST(MesaSplit, SegmentsDrawnAsMesaDrawsThemAreTheDraw) {
    std::mt19937 rng(39);
    std::unique_ptr<dp_split, void (*)(dp_split*)> split(dp_split_create(), dp_split_destroy);
    int split_draws = 0, loops_split = 0;
    for (int p = 0; p < int(Prim::patches); ++p) {
        for (int iter = 0; iter < 60; ++iter) {
            const DrawDesc desc = test::random_draw(rng, Prim(p));
            const auto bound = bind_draw(desc);
            const DrawInfo& d = bound->info;
            const dp_split_draw in{unsigned(p),
                                   index_size(d.index_type),
                                   d.indices,
                                   d.index_buffer_count,
                                   d.start,
                                   d.count,
                                   d.base_vertex,
                                   d.primitive_restart,
                                   d.restart_index,
                                   3,
                                   min_segment_vertices(Prim(p)) + uint32_t(rng() % 24),
                                   0};
            const char* refusal = dp_split_begin(split.get(), &in);
            ASSERT_EQ(refusal, nullptr) << format_draw_text(desc);
            Prims got;
            dp_segment seg;
            int segments = 0;
            while (dp_split_next(split.get(), &seg)) {
                ++segments;
                std::vector<uint32_t> ids;
                if (!seg.fetch_elts) {
                    EXPECT_EQ(d.index_type, IndexType::none) << "an indexed segment not listed";
                    for (uint32_t i = 0; i < seg.fetch_count; ++i)
                        ids.push_back(seg.fetch_start + i);
                } else {
                    ASSERT_LE(seg.fetch_count, in.max_vertices);
                    std::vector<bool> used(seg.fetch_count);
                    for (uint32_t i = 0; i < seg.draw_count; ++i) {
                        ASSERT_LT(seg.draw_elts[i], seg.fetch_count);
                        ids.push_back(seg.fetch_elts[seg.draw_elts[i]]);
                        used[seg.draw_elts[i]] = true;
                    }
                    // A vertex fetched but not drawn would still vote in Mesa's clip test.
                    if (d.index_type != IndexType::none) {
                        EXPECT_EQ(std::count(used.begin(), used.end(), false), 0)
                            << format_draw_text(desc);
                    }
                }
                loops_split += seg.line_loop_piece;
                add(got, seg.line_loop_piece ? Prim::line_strip : Prim(p), ids);
            }
            split_draws += segments > 1;
            EXPECT_EQ(got, expected(d)) << format_draw_text(desc);
        }
    }
    EXPECT_GT(split_draws, 100); // the limits split most draws
    EXPECT_GT(loops_split, 0);
}

// A draw drawpipe refuses comes back with its reason, and nothing is left to hand out.
TEST(MesaSplit, ARefusedDrawSaysWhy) {
    std::unique_ptr<dp_split, void (*)(dp_split*)> split(dp_split_create(), dp_split_destroy);
    const uint16_t indices[6] = {0, 1, 2, 2, 1, 3};
    dp_split_draw in{4 /* triangles */, 2, indices, 6, 0, 6, 0, false, 0, 3, 4096, 0};
    ASSERT_EQ(dp_split_begin(split.get(), &in), nullptr);
    in.count = 9; // three index positions past the buffer's six
    const char* why = dp_split_begin(split.get(), &in);
    ASSERT_NE(why, nullptr);
    EXPECT_NE(std::string(why).find("index"), std::string::npos) << why;
    dp_segment seg;
    EXPECT_FALSE(dp_split_next(split.get(), &seg));
}

namespace {

// A segment as Mesa's middle end gets it, in one line: flags, the vertex ids drawn in order.
std::string describe(const dp_segment& s) {
    std::string out = std::to_string(s.flags) + (s.line_loop_piece ? " loop" : "") + ":";
    for (uint32_t i = 0; i < (s.fetch_elts ? s.draw_count : s.fetch_count); ++i)
        out +=
            ' ' + std::to_string(s.fetch_elts ? s.fetch_elts[s.draw_elts[i]] : s.fetch_start + i);
    return out;
}

std::vector<std::string> rest_of(dp_split* split) {
    std::vector<std::string> out;
    dp_segment seg;
    while (dp_split_next(split, &seg)) out.push_back(describe(seg));
    return out;
}

} // namespace

// drawpipe's threads split a large draw chunk by chunk (dp_split_chunks, dp_split_begin_chunk):
// the chunks' segments, each split on a part of its own in any order, side by side in chunk
// order, are exactly the draw's own segments, for every primitive, index size and restart,
// with drawpipe's chunks and with a medium draw cut into 16 (dp_split_draw::chunk_split).
TEST(MesaSplit, ChunksSplitApartAreTheDrawsSegments) {
    std::mt19937 rng(43);
    std::unique_ptr<dp_split, void (*)(dp_split*)> split(dp_split_create(), dp_split_destroy);
    std::unique_ptr<dp_split, void (*)(dp_split*)> part(dp_split_create(), dp_split_destroy);
    int restarted = 0;
    for (int p = 0; p < int(Prim::patches); ++p) {
        for (int iter = 0; iter < 4; ++iter) {
            const unsigned size = iter % 2 ? 2 : 4;
            const uint32_t count = 70000 + rng() % 70000, span = 200 + rng() % 5000;
            const bool restart = iter >= 2;
            const uint32_t restart_index = size == 2 ? 0xffff : 0xffffffff;
            std::vector<uint32_t> i32(count);
            std::vector<uint16_t> i16(count);
            for (uint32_t i = 0; i < count; ++i) {
                // Runs of a few hundred indices walking a window of the vertices (reuse).
                i32[i] = restart && rng() % 300 == 0 ? restart_index : (i / 3 + rng() % 16) % span;
                i16[i] = uint16_t(i32[i]);
            }
            const dp_split_draw in{unsigned(p),
                                   size,
                                   size == 2 ? static_cast<const void*>(i16.data()) : i32.data(),
                                   count,
                                   uint32_t(rng() % 100),
                                   count - 100,
                                   int(rng() % 3),
                                   restart,
                                   restart_index,
                                   3,
                                   iter % 2 ? 1024u : 4096u,
                                   iter % 3 ? 16u : 0u};
            ASSERT_EQ(dp_split_begin(split.get(), &in), nullptr);
            const std::vector<std::string> expected = rest_of(split.get());
            ASSERT_EQ(dp_split_begin(split.get(), &in), nullptr);
            const unsigned chunks = dp_split_chunks(split.get());
            ASSERT_GT(chunks, 1u) << "prim " << p;
            if (in.chunk_split) {
                EXPECT_GE(chunks, in.chunk_split - 1); // count / 16, rounded up to 12 indices
                EXPECT_LE(chunks, in.chunk_split) << "prim " << p << " count " << in.count;
            }
            restarted += restart;
            std::vector<std::vector<std::string>> parts(chunks);
            std::vector<unsigned> order(chunks);
            for (unsigned c = 0; c < chunks; ++c) order[c] = c;
            std::shuffle(order.begin(), order.end(), rng);
            for (unsigned c : order) {
                ASSERT_EQ(dp_split_begin_chunk(part.get(), split.get(), c), nullptr);
                parts[c] = rest_of(part.get());
            }
            std::vector<std::string> got;
            for (const auto& v : parts) got.insert(got.end(), v.begin(), v.end());
            EXPECT_EQ(got, expected) << "prim " << p << " size " << size << " restart " << restart;
            const char* why = dp_split_begin_chunk(part.get(), split.get(), chunks);
            ASSERT_NE(why, nullptr);
            EXPECT_NE(std::string(why).find("chunk"), std::string::npos) << why;
        }
    }
    EXPECT_GT(restarted, 0);
}
