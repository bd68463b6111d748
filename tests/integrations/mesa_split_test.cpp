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
                                   min_segment_vertices(Prim(p)) + uint32_t(rng() % 24)};
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
    dp_split_draw in{4 /* triangles */, 2, indices, 6, 0, 6, 0, false, 0, 3, 4096};
    ASSERT_EQ(dp_split_begin(split.get(), &in), nullptr);
    in.count = 9; // three index positions past the buffer's six
    const char* why = dp_split_begin(split.get(), &in);
    ASSERT_NE(why, nullptr);
    EXPECT_NE(std::string(why).find("index"), std::string::npos) << why;
    dp_segment seg;
    EXPECT_FALSE(dp_split_next(split.get(), &seg));
}
