// Draws prepared like the previous one (draw/context/prepare_reuse.hpp): a queue of draws
// that differ only in where they start prepares the middle end once, still checks every
// draw at draw(), draws exactly what draw_serial draws, and prepares again after any state
// change or for a draw that differs in anything else.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "support/expect_error.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

using namespace drawpipe;

namespace {

// fetch_shade, counting its prepare() calls.
class CountingPrepare final : public MiddleEnd {
  public:
    std::string_view name() const override { return "counting_prepare"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        ++prepares;
        return inner.prepare(state);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override { return inner.make_scratch(); }
    std::span<const std::string_view> counters() const override { return inner.counters(); }

    FetchShade inner{4096};
    mutable std::atomic<int> prepares{0};
};

// Four triangles; the first has no index 0, so base vertex -1 is good for it alone.
const char* kTris = "prim triangles\nindex u16\nindices 1 2 3 0 1 2 2 3 4 4 5 0\nattrib 0\n";

struct Bound {
    std::unique_ptr<BoundDraw> draw = bind_draw(parse_draw_text(kTris));
    std::shared_ptr<CountingPrepare> middle = std::make_shared<CountingPrepare>();
    TraceBackend trace;
    Context ctx;
    explicit Bound(ContextOptions options = {}) : ctx(options) {
        ctx.bind_middle_end(middle);
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(draw->buffers);
        ctx.set_vertex_attribs(draw->attribs);
    }
    DrawInfo at(uint32_t start, uint32_t count = 3) const {
        DrawInfo d = draw->info;
        d.start = start;
        d.count = count;
        return d;
    }
    // What draw_serial gives for the same draws, one after the other.
    std::string serial(const std::vector<DrawInfo>& draws) const {
        TraceBackend t;
        for (const DrawInfo& d : draws)
            draw_serial({d, draw->input(), nullptr, nullptr}, middle->inner, t, {});
        return t.take();
    }
};

using test::expect_error;

TEST(ContextReuse, DrawsDifferingOnlyInStartPrepareOnce) {
    for (const uint32_t threads : {1u, 2u}) {
        ContextOptions o;
        o.threads = threads;
        o.inline_below = 0; // through the pipeline, whatever the thread count
        Bound b(o);
        const std::vector<DrawInfo> draws = {b.at(0), b.at(3), b.at(6), b.at(9)};
        for (const DrawInfo& d : draws) b.ctx.draw(d);
        b.ctx.flush();
        EXPECT_EQ(b.middle->prepares, 1) << threads << " threads";
        EXPECT_EQ(b.trace.text(), b.serial(draws)) << threads << " threads";
        // Reused across flushes while nothing is bound anew.
        b.ctx.draw(b.at(3));
        b.ctx.flush();
        EXPECT_EQ(b.middle->prepares, 1);
    }
}

TEST(ContextReuse, AnyOtherDifferencePreparesAgain) {
    Bound b;
    b.ctx.draw(b.at(0));
    b.ctx.draw(b.at(0, 6)); // another count
    EXPECT_EQ(b.middle->prepares, 2);
    DrawInfo d = b.at(3, 6);
    d.provoking = Provoking::first;
    b.ctx.draw(d);
    EXPECT_EQ(b.middle->prepares, 3);
    b.ctx.draw(b.at(6, 6)); // like the second, but the last full prepare was the third's
    EXPECT_EQ(b.middle->prepares, 4);
    b.ctx.flush();
    EXPECT_EQ(b.trace.text(), b.serial({b.at(0), b.at(0, 6), d, b.at(6, 6)}));
}

TEST(ContextReuse, EveryStateChangePreparesAgain) {
    Bound b;
    int expected = 0;
    auto check = [&](const char* what) {
        b.ctx.draw(b.at(0));
        b.ctx.draw(b.at(3));
        EXPECT_EQ(b.middle->prepares, ++expected) << what;
    };
    check("first");
    b.ctx.set_vertex_buffers(b.draw->buffers);
    check("set_vertex_buffers");
    b.ctx.set_vertex_attribs(b.draw->attribs);
    check("set_vertex_attribs");
    b.ctx.bind_vertex_shader({});
    check("bind_vertex_shader");
    b.ctx.bind_geometry_shader(nullptr);
    check("bind_geometry_shader");
    b.ctx.bind_backend(b.trace);
    check("bind_backend");
    RasterState r;
    r.viewport = {0, 0, 64, 64, 0, 1};
    b.ctx.set_raster_state(r);
    check("set_raster_state");
    b.ctx.clear_raster_state();
    check("clear_raster_state");
    b.ctx.set_rasterizer_discard(false);
    check("set_rasterizer_discard");
    b.ctx.clear_stages();
    check("clear_stages");
    b.ctx.bind_middle_end(b.middle);
    check("bind_middle_end");
    b.ctx.flush();
}

TEST(ContextReuse, ARasterStateChangeTakesEffect) {
    Bound b;
    RasterState r1, r2;
    r1.viewport = {0, 0, 64, 64, 0, 1};
    r2.viewport = {0, 0, 128, 32, 0, 1};
    b.ctx.set_raster_state(r1);
    b.ctx.draw(b.at(0));
    b.ctx.set_raster_state(r2);
    b.ctx.draw(b.at(3));
    b.ctx.flush();
    EXPECT_EQ(b.middle->prepares, 2);

    TraceBackend t;
    draw_serial({b.at(0), b.draw->input(), nullptr, nullptr}, b.middle->inner, t, {},
                OutputOptions{nullptr, false, &r1, {}});
    draw_serial({b.at(3), b.draw->input(), nullptr, nullptr}, b.middle->inner, t, {},
                OutputOptions{nullptr, false, &r2, {}});
    EXPECT_EQ(b.trace.text(), t.text());
}

TEST(ContextReuse, ReusedDrawsAreStillCheckedAtDraw) {
    Bound b;
    b.ctx.draw(b.at(0));
    expect_error([&] { b.ctx.draw(b.at(10)); }, ErrorCode::index_buffer_overrun, "start + count");
    DrawInfo far = b.at(0);
    far.start = UINT32_MAX - 1;
    expect_error([&] { b.ctx.draw(far); }, ErrorCode::count_overflow, "start + count");
    // Base vertex -1 is good for indices 1 2 3 and takes index 0 below 0 in the next draw.
    DrawInfo first = b.at(0);
    first.base_vertex = -1;
    b.ctx.draw(first);
    DrawInfo second = first;
    second.start = 3;
    expect_error([&] { b.ctx.draw(second); }, ErrorCode::base_vertex_overflow, "base_vertex");
    b.ctx.draw(b.at(3));
    b.ctx.flush();
    EXPECT_EQ(b.ctx.counters().draws, 3u) << "only the good draws arrived";
    EXPECT_EQ(b.trace.text(), b.serial({b.at(0), first, b.at(3)}));
}

TEST(ContextReuse, CachedSplitsAreLookedUpPerDraw) {
    Bound b;
    const uint64_t id = b.ctx.register_index_buffer();
    std::vector<DrawInfo> draws;
    for (uint32_t start : {0u, 3u, 0u, 6u, 3u}) {
        DrawInfo d = b.at(start);
        d.index_buffer_id = id;
        draws.push_back(d);
        b.ctx.draw(d);
    }
    b.ctx.flush();
    EXPECT_EQ(b.middle->prepares, 1);
    EXPECT_EQ(b.trace.text(), b.serial(draws));
    DrawInfo unknown = draws[0];
    unknown.index_buffer_id = id + 100;
    expect_error([&] { b.ctx.draw(unknown); }, ErrorCode::not_found, "index_buffer_id");
}

} // namespace
