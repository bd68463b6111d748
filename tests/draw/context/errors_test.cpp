// Every bad input gets a clear error with a code and a message naming the field.
#include "draw/context/validate.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "support/expect_error.hpp"
#include "support/trace_util.hpp"
#include "tools/common/draw_text.hpp"

#include <gtest/gtest.h>

using namespace drawpipe;

namespace {

using test::expect_error;

} // namespace

TEST(Errors, IndexBufferShorterThanStartPlusCount) {
    expect_error([] { test::trace_of_text("prim triangles\nindex u16\nindices 0 1 2\ncount 6\n"); },
                 ErrorCode::index_buffer_overrun, "start + count");
    expect_error(
        [] { test::trace_of_text("prim triangles\nindex u16\nindices 0 1 2\nstart 2\ncount 3\n"); },
        ErrorCode::index_buffer_overrun, "start + count");
}

TEST(Errors, CountOverflow) {
    expect_error(
        [] { test::trace_of_text("prim points\nindex none\nstart 4294967295\ncount 2\n"); },
        ErrorCode::count_overflow, "start + count");
    expect_error(
        [] {
            test::trace_of_text(
                "prim points\nindex none\ncount 1\ninstances 10\nbase_instance 4294967295\n");
        },
        ErrorCode::count_overflow, "base_instance");
}

TEST(Errors, UnknownPrimitive) {
    DrawInfo info;
    info.prim = Prim(77);
    info.count = 3;
    expect_error([&] { validate_draw(info); }, ErrorCode::invalid_value, "prim");
    expect_error([] { parse_draw_text("prim hexagons\n"); }, ErrorCode::parse_error,
                 "line 1: prim");
}

TEST(Errors, MalformedDescriptionNamesTheLine) {
    expect_error([] { parse_draw_text("prim points\n\ncount x12\n"); }, ErrorCode::parse_error,
                 "line 3: count");
    expect_error([] { parse_draw_text("prim points\nfrobnicate 1\n"); }, ErrorCode::parse_error,
                 "line 2: frobnicate");
    expect_error([] { parse_draw_text("prim points\nindex u8\nindices 1 2\nindices 1 256\n"); },
                 ErrorCode::parse_error, "line 4: indices: value 256");
    expect_error([] { parse_draw_text("prim points\nindices 1 2\ncount 2\n"); },
                 ErrorCode::parse_error, "line 2: indices");
    std::string many = "prim points\ncount 1\n";
    for (int i = 0; i < 17; ++i) many += "attrib 0\n";
    expect_error([&] { parse_draw_text(many); }, ErrorCode::parse_error, "line 19: attrib");
    expect_error([] { parse_draw_text("count 3\n"); }, ErrorCode::parse_error, "prim");
    // A key given twice names both lines; indices and attrib accumulate instead.
    expect_error([] { parse_draw_text("prim points\ncount 2\n\ncount 3\n"); },
                 ErrorCode::parse_error, "line 4: count: given twice (first on line 2)");
    EXPECT_EQ(parse_draw_text("prim points\nindex u8\nindices 1\nindices 2\n").indices.size(), 2u);
}

TEST(Errors, LimitBelowPrimitiveMinimum) {
    expect_error([] { test::trace_of_text("prim quad_strip\nindex none\ncount 8\n", 5); },
                 ErrorCode::limit_too_small, "max_vertices");
    expect_error([] { test::trace_of_text("prim triangles\nindex none\ncount 8\n", 2); },
                 ErrorCode::limit_too_small, "max_vertices");
}

// A forced limit can lower the middle end's but not raise it: the error names both numbers
// and the middle end.
TEST(Errors, ForcedLimitAboveTheMiddleEnds) {
    const DrawDesc desc = parse_draw_text("prim triangles\nindex none\ncount 6\n");
    FetchShade middle(4096);
    EXPECT_NO_THROW(test::trace_with(desc, middle, 4096));
    expect_error([&] { test::trace_with(desc, middle, 4097); }, ErrorCode::invalid_value,
                 "4097 is above the 4096 vertices per segment middle end 'fetch_shade'");
}

TEST(Errors, MiddleEndReportingZeroVertices) {
    class ZeroLimit final : public MiddleEnd {
      public:
        struct Draw final : MiddleEndDraw {
            Draw() : MiddleEndDraw({0, false, std::nullopt}, {}) {}
            void shade(const Segment&, MiddleEndScratch*, ShadedBatch&) const override {}
        };
        std::string_view name() const override { return "zero"; }
        std::shared_ptr<const MiddleEndDraw> prepare(const DrawState&) const override {
            return std::make_shared<Draw>();
        }
    };
    ZeroLimit zero;
    expect_error(
        [&] { test::trace_with(parse_draw_text("prim points\nindex none\ncount 3\n"), zero); },
        ErrorCode::middle_end_failure, "0 vertices");
}

TEST(Errors, BaseVertexOverflowIsAnErrorNotAWrap) {
    expect_error(
        [] { test::trace_of_text("prim points\nindex u32\nindices 4294967295\nbase_vertex 1\n"); },
        ErrorCode::base_vertex_overflow, "base_vertex");
    expect_error(
        [] { test::trace_of_text("prim points\nindex u16\nindices 3 1\nbase_vertex -2\n"); },
        ErrorCode::base_vertex_overflow, "base_vertex");
    // A restart index is not a vertex: it cannot overflow.
    EXPECT_EQ(
        test::trace_of_text(
            "prim points\nindex u32\nindices 4294967295 7\nrestart 4294967295\nbase_vertex 1\n"),
        "point 8/0\n");
}

TEST(Errors, OutOfRangeVerticesReadZeros) {
    // Attribute buffers hold what the draw reads; a vertex past a real buffer reads zeros.
    const uint32_t data[2] = {11, 12};
    const VertexBuffer vb{data, sizeof data, 4, 0};
    const VertexAttrib a{0, 0, Format::uint32x1, 0};
    const uint32_t idx[3] = {0, 1, 1000000};
    DrawInfo info;
    info.prim = Prim::triangles;
    info.index_type = IndexType::u32;
    info.indices = idx;
    info.index_buffer_count = 3;
    info.count = 3;
    DrawState state{info, {{&vb, 1}, {&a, 1}}, nullptr, nullptr};
    FetchShade middle;
    TraceBackend trace;
    draw_serial(state, middle, trace);
    EXPECT_EQ(trace.text(), "tri 0/0[11] 1/0[12] 1000000/0[0]\n");
}

TEST(Errors, ExtremeStridesAndOffsetsNeverReadOutside) {
    // Offsets and strides near 2^32 with element ids near 2^33: byte positions past 2^64
    // must read zeros, not wrap into the buffer (or before it).
    const uint32_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    uint32_t out[4] = {9, 9, 9, 9};
    const VertexAttrib far{0, 0xFFFFFFF6u, Format::uint32x4, 0};
    const VertexBuffer huge{data, sizeof data, 0xFFFFFFFFu, 0xFFFFFFFFu};
    for (uint64_t element : {uint64_t(0), uint64_t(0xFFFFFFFF), (uint64_t(1) << 33) - 1}) {
        fetch_attrib(huge, far, element, out);
        EXPECT_EQ(out[0] | out[1] | out[2] | out[3], 0u) << element;
    }
    const VertexAttrib near{0, 0, Format::uint32x4, 0};
    const VertexBuffer wide{data, sizeof data, 0xFFFFFFFFu, 0};
    fetch_attrib(wide, near, 0, out);
    EXPECT_EQ(out[0], 1u);
    fetch_attrib(wide, near, (uint64_t(1) << 33) - 1, out); // 2^33 * (2^32 - 1) > 2^64
    EXPECT_EQ(out[0] | out[1] | out[2] | out[3], 0u);
    // The last element that fits is read; one byte further is not.
    const VertexBuffer tight{data, sizeof data, 16, 0};
    fetch_attrib(tight, near, 3, out);
    EXPECT_EQ(out[0], 13u);
    fetch_attrib(tight, near, 4, out);
    EXPECT_EQ(out[0] | out[1] | out[2] | out[3], 0u);
    const VertexAttrib skew{0, 1, Format::uint32x4, 0};
    fetch_attrib(tight, skew, 3, out);
    EXPECT_EQ(out[0] | out[1] | out[2] | out[3], 0u);
}

TEST(Errors, DrawEndingAt2Pow32IsAnError) {
    // start + count = 2^32 would wrap the end position to 0 and draw nothing, silently.
    expect_error(
        [] { test::trace_of_text("prim points\nindex none\nstart 4294967295\ncount 1\n"); },
        ErrorCode::count_overflow, "start + count");
    EXPECT_EQ(test::trace_of_text("prim points\nindex none\nstart 4294967294\ncount 1\n"),
              "point 4294967294/0\n");
}

TEST(Errors, GivenIndexRangeIsTrustedAndCheckedInDebug) {
    auto draw = [](IndexRange range, int32_t base_vertex) {
        DrawDesc d = parse_draw_text("prim triangles\nindex u16\nindices 5 6 7\n");
        d.base_vertex = base_vertex;
        auto bound = bind_draw(d);
        bound->info.index_range = range;
        FetchShade middle;
        TraceBackend trace;
        draw_serial({bound->info, bound->input(), nullptr, nullptr}, middle, trace);
        return trace.take();
    };
    EXPECT_EQ(draw({5, 7}, 0), "tri 5/0 6/0 7/0\n");
    // Trusted instead of scanned: a range wider than the indices decides base vertex overflow.
    expect_error(
        [&] {
            draw({0, 0xFFFFFFF0u}, 100);
        },
        ErrorCode::base_vertex_overflow, "base_vertex");
    // A range that does not bound the indices: debug builds say so, whatever the base vertex.
#ifndef NDEBUG
    expect_error([&] { draw({6, 20}, 0); }, ErrorCode::index_range_mismatch, "index_range");
    expect_error([&] { draw({6, 20}, -5); }, ErrorCode::index_range_mismatch, "index_range");
#else
    EXPECT_EQ(draw({6, 20}, 0), "tri 5/0 6/0 7/0\n"); // trusted, and harmless here
#endif
}

TEST(Errors, UnknownStrategyName) {
    EXPECT_FALSE(Strategy::parse("direct-100")); // not a power of two
    EXPECT_FALSE(Strategy::parse("fastest"));
    EXPECT_TRUE(Strategy::parse("direct-256"));
}
