// What a C driver can get wrong is refused, never a corrupt draw: a call on a context from
// inside its own callbacks (INVALID_OPERATION naming both, nothing queued lost or repeated), a
// handle destroyed already or never made (INVALID_VALUE, nothing read through it, a second
// destroy harmless), and with robust index access an index position past the buffer reads 0.
#include <drawpipe/drawpipe.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::string last_error() {
    return drawpipe_last_error();
}

const float kPositions[] = {-0.5f, -0.5f, 0, 1, 0.5f,  -0.5f, 0, 1, 0, 0.5f, 0, 1,
                            0.5f,  0.5f,  0, 1, -0.5f, 0.5f,  0, 1, 0, 0,    0, 1};

// What the backend saw; `reenter` names what it calls back into from draw_elements.
struct Seen {
    drawpipe_context* ctx = nullptr;
    const drawpipe_draw_info* draw = nullptr;
    bool reenter = false;
    int begins = 0, element_calls = 0;
    std::vector<uint32_t> vertex_ids;
    std::vector<std::pair<drawpipe_status, std::string>> refused;
};

drawpipe_backend seen_backend(Seen& s) {
    drawpipe_backend b{};
    b.user = &s;
    b.begin_draw = [](void* user, const drawpipe_draw_info*, const drawpipe_vertex_layout*) {
        static_cast<Seen*>(user)->begins++;
    };
    b.draw_elements = [](void* user, drawpipe_prim, uint8_t, const drawpipe_vertex_view* v,
                         const uint32_t* elts, uint32_t count) {
        auto* s = static_cast<Seen*>(user);
        s->element_calls++;
        for (uint32_t i = 0; i < count; ++i)
            s->vertex_ids.push_back(v->data[size_t(elts[i]) * v->stride + DRAWPIPE_SLOT_VERTEX_ID]);
        if (!s->reenter) return;
        auto note = [&](drawpipe_status st) { s->refused.emplace_back(st, last_error()); };
        note(drawpipe_draw(s->ctx, s->draw));
        note(drawpipe_flush(s->ctx, nullptr));
        note(drawpipe_set_raster_state(s->ctx, nullptr));
        note(drawpipe_context_destroy(s->ctx));
    };
    return b;
}

// A context drawing kPositions into `seen`.
drawpipe_context* make_context(Seen& seen, bool robust = false, uint32_t threads = 2) {
    drawpipe_context_options o{};
    o.threads = threads;
    o.robust_indices = robust;
    drawpipe_context* ctx = nullptr;
    EXPECT_EQ(drawpipe_context_create(&o, &ctx), DRAWPIPE_OK) << last_error();
    const drawpipe_vertex_buffer buffer{kPositions, sizeof kPositions, 16, 0};
    drawpipe_vertex_attrib attrib{};
    attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
    EXPECT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
    EXPECT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
    const drawpipe_backend b = seen_backend(seen);
    EXPECT_EQ(drawpipe_bind_backend(ctx, &b), DRAWPIPE_OK);
    seen.ctx = ctx;
    return ctx;
}

drawpipe_draw_info triangle() {
    drawpipe_draw_info d;
    drawpipe_draw_info_init(&d);
    d.count = 3;
    return d;
}

TEST(CapiRobust, BackendCallbacksCannotCallBackIntoTheirContext) {
    for (uint32_t threads : {1u, 2u}) {
        Seen seen;
        drawpipe_context* ctx = make_context(seen, false, threads);
        const drawpipe_draw_info d = triangle();
        seen.draw = &d;
        seen.reenter = true;
        for (int i = 0; i < 5; ++i) ASSERT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_OK);
        ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
        // Five draws delivered once each: the callbacks' draws and flushes queued nothing.
        EXPECT_EQ(seen.begins, 5);
        EXPECT_EQ(seen.element_calls, 5);
        ASSERT_EQ(seen.refused.size(), 20u);
        const char* calls[4] = {"drawpipe_draw: ", "drawpipe_flush: ",
                                "drawpipe_set_raster_state: ", "drawpipe_context_destroy: "};
        for (size_t i = 0; i < seen.refused.size(); ++i) {
            const auto& [status, text] = seen.refused[i];
            EXPECT_EQ(status, DRAWPIPE_ERROR_INVALID_OPERATION) << text;
            EXPECT_EQ(text.rfind(calls[i % 4], 0), 0u) << text;
            EXPECT_NE(text.find("backend draw_elements"), std::string::npos) << text;
        }
        // The context survived the destroy from its callback and draws on.
        seen.reenter = false;
        ASSERT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_OK) << last_error();
        ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
        EXPECT_EQ(seen.begins, 6);
        EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
    }
}

struct ShaderCall {
    drawpipe_context* ctx = nullptr;
    const drawpipe_draw_info* draw = nullptr;
    std::atomic<int> accepted{0}, refused{0};
    std::mutex mutex;
    std::string said;
};

TEST(CapiRobust, ShaderCallbacksCannotCallBackIntoTheirContext) {
    Seen seen;
    drawpipe_context* ctx = make_context(seen);
    const drawpipe_draw_info d = triangle();
    ShaderCall call;
    call.ctx = ctx;
    call.draw = &d;
    drawpipe_shader_outputs outputs{};
    auto vs = [](void* user, const drawpipe_shader_block* b) {
        auto* c = static_cast<ShaderCall*>(user);
        for (uint32_t r = 0; r < 4; ++r)
            for (uint32_t l = 0; l < b->count; ++l) b->out[r][l] = b->in[r][l];
        if (drawpipe_draw(c->ctx, c->draw) == DRAWPIPE_ERROR_INVALID_OPERATION) {
            const std::lock_guard lock(c->mutex);
            if (c->refused++ == 0) c->said = last_error();
        } else {
            ++c->accepted;
        }
    };
    ASSERT_EQ(drawpipe_bind_vertex_shader(ctx, &outputs, vs, &call), DRAWPIPE_OK) << last_error();
    for (int i = 0; i < 3; ++i) ASSERT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(call.accepted.load(), 0);
    EXPECT_GE(call.refused.load(), 3);
    EXPECT_EQ(call.said.rfind("drawpipe_draw: ", 0), 0u) << call.said;
    EXPECT_NE(call.said.find("vertex shader"), std::string::npos) << call.said;
    EXPECT_EQ(seen.begins, 3);
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
}

TEST(CapiRobust, DestroyedAndMadeUpHandlesAreInvalidValues) {
    Seen seen;
    drawpipe_context* ctx = make_context(seen);
    const drawpipe_draw_info d = triangle();
    ASSERT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK); // delivers the draw
    EXPECT_EQ(seen.begins, 1);
    // Another context, which may take the freed memory and the table's slot.
    Seen other;
    drawpipe_context* next = make_context(other);
    int not_a_context = 0;
    for (drawpipe_context* stale : {ctx, reinterpret_cast<drawpipe_context*>(uintptr_t(0x1234)),
                                    reinterpret_cast<drawpipe_context*>(&not_a_context),
                                    reinterpret_cast<drawpipe_context*>(~uintptr_t(0))}) {
        EXPECT_EQ(drawpipe_draw(stale, &d), DRAWPIPE_ERROR_INVALID_VALUE);
        EXPECT_EQ(last_error(), "drawpipe_draw: ctx: not a live context (destroyed already, or "
                                "never made by drawpipe_context_create)");
        EXPECT_EQ(drawpipe_flush(stale, nullptr), DRAWPIPE_ERROR_INVALID_VALUE);
        EXPECT_EQ(drawpipe_context_destroy(stale), DRAWPIPE_ERROR_INVALID_VALUE); // harmless
        EXPECT_EQ(drawpipe_counter_name(stale, 0), nullptr);
    }
    // None of that reached the live context.
    EXPECT_EQ(drawpipe_flush(next, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(other.begins, 0);
    EXPECT_EQ(seen.begins, 1);
    EXPECT_EQ(drawpipe_context_destroy(next), DRAWPIPE_OK);
    EXPECT_EQ(drawpipe_context_destroy(next), DRAWPIPE_ERROR_INVALID_VALUE);
}

TEST(CapiRobust, RobustIndicesReadZeroPastTheIndexBuffer) {
    const uint16_t indices[8] = {1, 2, 3, 4, 5, 3, 5, 5}; // positions 5-7 are past the buffer
    drawpipe_draw_info d = triangle();
    d.index_type = DRAWPIPE_INDEX_U16;
    d.indices = indices;
    d.index_buffer_count = 5;
    d.start = 2;
    d.count = 6;
    for (bool robust : {false, true}) {
        Seen seen;
        drawpipe_context* ctx = make_context(seen, robust);
        if (!robust) {
            EXPECT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN);
        } else {
            ASSERT_EQ(drawpipe_draw(ctx, &d), DRAWPIPE_OK) << last_error();
            ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
            EXPECT_EQ(seen.vertex_ids, (std::vector<uint32_t>{3, 4, 5, 0, 0, 0}));
        }
        EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
    }
}

} // namespace
