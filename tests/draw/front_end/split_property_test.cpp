// The invariant: splitting never changes what is drawn. For random draws of every kind and
// random limits from the smallest legal one upward, the trace through the splitter equals
// the unsplit trace and the independent GL oracle, for every strategy.
#include "drawpipe/error.hpp"
#include "support/gl_oracle.hpp"
#include "support/random_draw.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>

using namespace drawpipe;

namespace {

const char* kStrategies[] = {"distinct", "vsplit", "direct-16", "exact", "none"};

class SplitInvariant : public ::testing::TestWithParam<int> {};

TEST_P(SplitInvariant, SplitTraceEqualsUnsplitAndOracle) {
    const Prim prim = Prim(GetParam());
    std::mt19937 rng(1234 + GetParam());
    for (int iter = 0; iter < 150; ++iter) {
        const DrawDesc d = test::random_draw(rng, prim);
        const std::string expected = test::oracle_trace(d);
        ASSERT_EQ(test::trace_of(d), expected) << format_draw_text(d);
        const uint32_t min_limit = min_segment_vertices(prim, d.patch_vertices);
        for (const char* name : kStrategies) {
            const uint32_t limit =
                std::uniform_int_distribution<uint32_t>(min_limit, min_limit + 40)(rng);
            const std::string got = test::trace_of(d, limit, *Strategy::parse(name));
            ASSERT_EQ(got, expected) << "strategy " << name << " limit " << limit << "\n"
                                     << format_draw_text(d);
        }
        // The smallest legal limit is the hardest case.
        ASSERT_EQ(test::trace_of(d, min_limit), expected) << "limit " << min_limit << "\n"
                                                          << format_draw_text(d);
    }
}

INSTANTIATE_TEST_SUITE_P(AllPrims, SplitInvariant, ::testing::Range(0, kPrimCount),
                         [](const auto& info) { return std::string(prim_name(Prim(info.param))); });

constexpr uint32_t kHardwareLimits[] = {1024, 4096, 65536};

// The draw of `d`'s indices split by every strategy at hardware-sized limits traces as the GL
// oracle does. A mismatch names the first line that differs (the traces run to 100,000 lines,
// too long for a readable, or quick, diff).
void expect_oracle_at_hardware_limits(DrawDesc& d,
                                      std::span<const char* const> strategies = kStrategies,
                                      std::span<const uint32_t> limits = kHardwareLimits) {
    d.count = uint32_t(d.indices.size());
    d.count_given = true;
    const std::string expected = test::oracle_trace(d);
    for (const char* name : strategies)
        for (uint32_t limit : limits) {
            const std::string got = test::trace_of(d, limit, *Strategy::parse(name));
            if (got == expected) continue;
            const auto at = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
            const auto line_start = [](const std::string& t, auto it) {
                return t.substr(t.rfind('\n', size_t(it - t.begin())) + 1, 120);
            };
            FAIL() << "strategy " << name << " limit " << limit << " type "
                   << index_type_name(d.index_type) << ": first difference at\n  got  "
                   << line_start(got, at.first) << "\n  want " << line_start(expected, at.second);
        }
}

// Hardware-sized limits on large triangle lists: segments of thousands of indices, where the
// default strategy's triangle loops, packed stores and lookup bypass (low reuse turns the
// table off for a few segments, reuse turns it back on) all run.
TEST(SplitInvariant, LargeTriangleListsAtHardwareLimits) {
    std::mt19937 rng(77);
    for (IndexType type : {IndexType::u16, IndexType::u32}) {
        DrawDesc d;
        d.prim = Prim::triangles;
        d.index_type = type;
        d.provoking = type == IndexType::u16 ? Provoking::first : Provoking::last;
        d.attrib_divisors = {0};
        d.base_vertex = type == IndexType::u16 ? 3 : 11; // u32 lists are handed on uncopied
        const uint32_t span = type == IndexType::u16 ? 65535 : 1u << 20;
        for (int block = 0; block < 6; ++block) {
            if (block % 3 == 0) { // random triangles: almost no reuse
                for (int i = 0; i < 30000; ++i) d.indices.push_back(rng() % span);
                continue;
            }
            // A grid's triangles: each vertex reused about six times, in row order (hits
            // and misses in a pattern) or shuffled (about half miss, in no pattern: the
            // branchless keyed loop).
            const uint32_t w = 300;
            std::vector<std::array<uint32_t, 3>> tris;
            for (uint32_t y = 0; y < 25; ++y)
                for (uint32_t x = 0; x + 1 < w; ++x) {
                    const uint32_t v = y * w + x;
                    tris.push_back({v, v + 1, v + w});
                    tris.push_back({v + 1, v + w + 1, v + w});
                }
            if (block % 3 == 2) std::shuffle(tris.begin(), tris.end(), rng);
            for (const auto& t : tris) d.indices.insert(d.indices.end(), t.begin(), t.end());
        }
        expect_oracle_at_hardware_limits(d);
    }
}

// Random triangles in segments of 16384 vertices and more: the default strategy times its
// packed loop against the seen-bit filtered one (triangles_filtered), so several mostly-missing
// segments in a row run both. Ids below 2^20 have a seen-bit each at 65536; ids up to 2^26
// share bits, so set bits that are not repeats fall through to the table.
TEST(SplitInvariant, MostlyMissingListsAtLargeLimits) {
    std::mt19937 rng(79);
    DrawDesc d;
    d.prim = Prim::triangles;
    d.index_type = IndexType::u32;
    d.provoking = Provoking::first;
    d.attrib_divisors = {0};
    d.base_vertex = 5;
    for (const uint32_t span : {1u << 20, 1u << 20, 1u << 20, 1u << 26, 1u << 26})
        for (int i = 0; i < 69999; ++i) d.indices.push_back(rng() % span);
    const char* strategies[] = {"distinct"};
    const uint32_t limits[] = {16384, 65536};
    expect_oracle_at_hardware_limits(d, strategies, limits);
}

// Long triangle strips between restart indices (a grid drawn a row per strip, as W7) and
// random strips: the default strategy stops looking up indices in strips that repeat none
// and hands their indices on as the fetch list (u32 buffers uncopied, with the base vertex).
TEST(SplitInvariant, LongRestartStripsAtHardwareLimits) {
    std::mt19937 rng(78);
    for (IndexType type : {IndexType::u16, IndexType::u32}) {
        DrawDesc d;
        d.prim = Prim::triangle_strip;
        d.index_type = type;
        d.provoking = type == IndexType::u16 ? Provoking::last : Provoking::first;
        d.attrib_divisors = {0};
        d.base_vertex = type == IndexType::u16 ? 7 : 13;
        d.restart = true;
        d.restart_index = type == IndexType::u16 ? 0xFFFF : 0xFFFFFFFF;
        const uint32_t w = 1500;
        for (uint32_t y = 0; y < 40; ++y) {
            if (y % 8 == 5) { // a strip of random indices, some repeated
                for (int i = 0; i < 2500; ++i) d.indices.push_back(rng() % 60000);
            } else {
                for (uint32_t x = 0; x < w; ++x)
                    for (uint32_t v : {y * w + x, (y + 1) * w + x}) d.indices.push_back(v % 60000);
            }
            d.indices.push_back(d.restart_index);
        }
        expect_oracle_at_hardware_limits(d);
    }
}

TEST(SplitInvariant, LimitBelowMinimumIsAnError) {
    DrawDesc d;
    d.prim = Prim::triangle_strip;
    d.count = 10;
    d.count_given = true;
    try {
        test::trace_of(d, 3);
        FAIL() << "expected limit_too_small";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::limit_too_small);
        EXPECT_NE(std::string(e.what()).find("max_vertices"), std::string::npos);
    }
}

} // namespace
