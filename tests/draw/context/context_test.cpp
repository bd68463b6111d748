// The embedding API: binding rules, errors before anything is queued, draws delivered on
// destruction, thread counts checked once, middle ends swapped between flushes, and the
// prepared draw a queue holds unaffected by later state changes.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "support/expect_error.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>

using namespace drawpipe;

namespace {

const char* kStrip = "prim triangle_strip\nindex u16\nindices 0 1 2 3 4 5\nattrib 0\n";

// A context bound to `trace` with the description's buffers.
struct Bound {
    std::unique_ptr<BoundDraw> draw;
    TraceBackend trace;
    Context ctx;
    explicit Bound(std::string_view text, ContextOptions options = {})
        : draw(bind_draw(parse_draw_text(text))), ctx(options) {
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(draw->buffers);
        ctx.set_vertex_attribs(draw->attribs);
    }
};

using test::expect_error;

TEST(Context, DrawsTraceLikeTheSerialPath) {
    Bound b(kStrip);
    b.ctx.draw(b.draw->info);
    const DrawStats s = b.ctx.flush();
    EXPECT_EQ(b.trace.text(), test::trace_of_text(kStrip));
    EXPECT_EQ(s.front.indices, 6u);
    EXPECT_EQ(b.ctx.counters().draws, 1u);
}

TEST(Context, NothingBoundIsAnError) {
    Context ctx;
    DrawInfo d;
    expect_error([&] { ctx.draw(d); }, ErrorCode::invalid_value, "middle end");
    ctx.bind_middle_end("fetch_shade");
    expect_error([&] { ctx.draw(d); }, ErrorCode::invalid_value, "backend");
    expect_error([&] { ctx.bind_middle_end("no_such_middle_end"); }, ErrorCode::not_found,
                 "no_such_middle_end");
    expect_error([&] { ctx.bind_middle_end(std::shared_ptr<const MiddleEnd>()); },
                 ErrorCode::invalid_value, "null");
}

TEST(Context, BadDrawThrowsAtDrawAndQueuesNothing) {
    Bound b(kStrip);
    DrawInfo bad = b.draw->info;
    bad.count = 7; // past the 6 indices
    expect_error([&] { b.ctx.draw(bad); }, ErrorCode::index_buffer_overrun, "start + count");
    b.ctx.draw(b.draw->info);
    b.ctx.flush();
    EXPECT_EQ(b.trace.text(), test::trace_of_text(kStrip)) << "only the good draw arrived";
    EXPECT_EQ(b.ctx.counters().draws, 1u);
}

TEST(Context, DestructionDeliversQueuedDraws) {
    const auto draw = bind_draw(parse_draw_text(kStrip));
    TraceBackend trace;
    {
        Context ctx;
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(draw->buffers);
        ctx.set_vertex_attribs(draw->attribs);
        ctx.draw(draw->info);
        ctx.draw(draw->info);
    } // no flush(): the draws handed over must still be drawn
    const std::string one = test::trace_of_text(kStrip);
    EXPECT_EQ(trace.text(), one + one);
}

TEST(Context, ThreadCountIsCheckedOnce) {
    ContextOptions o;
    o.threads = kMaxThreads + 1;
    expect_error([&] { Context ctx(o); }, ErrorCode::invalid_value, "threads");
    o.threads = 99999;
    expect_error([&] { Context ctx(o); }, ErrorCode::invalid_value, "threads");
    o.threads = 3;
    EXPECT_EQ(Context(o).threads(), 3u);
}

TEST(Context, StateChangesFlushFirstSoQueuedDrawsKeepTheirState) {
    // A queued draw keeps the shader it was queued with: binding another flushes first.
    Bound b(kStrip);
    ShaderOutputs outputs;
    outputs.add_varying({ValueType::uint32, Interp::flat, 1});
    b.ctx.bind_vertex_shader(
        per_vertex_shader(outputs, [](const float* in, float* out, uint32_t, uint32_t) {
            // The varying the trace prints: attribute 0's integer + 100.
            out[4] = std::bit_cast<float>(std::bit_cast<uint32_t>(in[0]) + 100);
        }));
    b.ctx.draw(b.draw->info);
    b.ctx.bind_vertex_shader({});
    b.ctx.draw(b.draw->info);
    b.ctx.flush();
    EXPECT_EQ(b.trace.text(), "tri 0/0[100] 1/0[101] 2/0[102]\n"
                              "tri 2/0[102] 1/0[101] 3/0[103]\n"
                              "tri 2/0[102] 3/0[103] 4/0[104]\n"
                              "tri 4/0[104] 3/0[103] 5/0[105]\n" +
                                  test::trace_of_text(kStrip));
}

TEST(Context, OneMiddleEndServesEveryDrawInFlight) {
    // Many small draws in one pipeline launch, one bound instance.
    ContextOptions o;
    o.threads = 2;
    o.inline_below = 0;
    Bound b(kStrip, o);
    const auto middle = std::make_shared<FetchShade>(4);
    b.ctx.bind_middle_end(middle);
    for (int i = 0; i < 200; ++i) b.ctx.draw(b.draw->info);
    const DrawStats s = b.ctx.flush();
    std::string expected;
    for (int i = 0; i < 200; ++i) expected += test::trace_of_text(kStrip);
    EXPECT_EQ(b.trace.text(), expected);
    EXPECT_EQ(b.ctx.counters().pipeline_launches, 1u);
    TraceBackend one;
    const DrawStats serial =
        draw_serial({b.draw->info, b.draw->input(), nullptr, nullptr}, *middle, one);
    ASSERT_GT(serial.front.segments, 1u) << "limit 4 splits the strip";
    EXPECT_EQ(s.front.segments, 200 * serial.front.segments);
}

TEST(Context, UnregisteredIndexBufferIsAnError) {
    Bound b(kStrip);
    DrawInfo d = b.draw->info;
    d.index_buffer_id = 12345;
    expect_error([&] { b.ctx.draw(d); }, ErrorCode::not_found, "index_buffer_id");
    expect_error([&] { b.ctx.bump_index_buffer(12345); }, ErrorCode::not_found, "");
}

} // namespace
