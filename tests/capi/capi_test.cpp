// The C interface (<drawpipe/drawpipe.h>): every failure is a status with this thread's text,
// never an exception; the callbacks see what the C++ backend and shaders would.
#include <drawpipe/drawpipe.h>
#include <drawpipe/error.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string last_error() {
    return drawpipe_last_error();
}

// Stores an int into a C enum field as C code may: in C++ a value outside the enumerators
// cannot be converted to the enum type, so it is written as the int the field holds.
template <class CEnum> void store_int(CEnum& field, int value) {
    static_assert(sizeof(CEnum) == sizeof(int));
    std::memcpy(&field, &value, sizeof value);
}

// Records what the backend table was handed.
struct Recorder {
    int begins = 0, ends = 0;
    std::vector<drawpipe_prim> prims;
    std::vector<uint32_t> vertex_ids; // SLOT_VERTEX_ID of each element's vertex
    std::vector<float> varying0_x;    // the first dword after the header, as a float
    uint32_t stride = 0;
};

drawpipe_backend recorder_backend(Recorder& r) {
    drawpipe_backend b{};
    b.user = &r;
    b.begin_draw = [](void* user, const drawpipe_draw_info*, const drawpipe_vertex_layout* l) {
        static_cast<Recorder*>(user)->begins++;
        static_cast<Recorder*>(user)->stride = l->stride;
    };
    b.draw_elements = [](void* user, drawpipe_prim prim, uint8_t, const drawpipe_vertex_view* v,
                         const uint32_t* elts, uint32_t count) {
        auto* r = static_cast<Recorder*>(user);
        r->prims.push_back(prim);
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t* vertex = v->data + size_t(elts[i]) * v->stride;
            r->vertex_ids.push_back(vertex[DRAWPIPE_SLOT_VERTEX_ID]);
            float x;
            std::memcpy(&x, &vertex[DRAWPIPE_VERTEX_HEADER_DWORDS], 4);
            r->varying0_x.push_back(x);
        }
    };
    b.end_draw = [](void* user) { static_cast<Recorder*>(user)->ends++; };
    return b;
}

// A context with one float32x4 position buffer of `n` vertices and the recorder bound.
class CapiTest : public testing::Test {
  protected:
    void SetUp() override {
        drawpipe_context_options options{};
        options.threads = 2;
        ASSERT_EQ(drawpipe_context_create(&options, &ctx), DRAWPIPE_OK) << last_error();
        for (uint32_t i = 0; i < 4 * kVertices; ++i) positions.push_back(float(i % 7) * 0.1f);
        const drawpipe_vertex_buffer buffer{positions.data(), positions.size() * sizeof(float), 16,
                                            0};
        drawpipe_vertex_attrib attrib{};
        attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
        ASSERT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
        ASSERT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
        backend = recorder_backend(recorder);
        ASSERT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
        drawpipe_draw_info_init(&draw);
        draw.count = kVertices;
    }
    void TearDown() override { EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK); }

    static constexpr uint32_t kVertices = 12;
    drawpipe_context* ctx = nullptr;
    std::vector<float> positions;
    Recorder recorder;
    drawpipe_backend backend{};
    drawpipe_draw_info draw{};
};

TEST_F(CapiTest, DrawReachesTheBackendInOrderWithStatistics) {
    uint32_t threads = 0;
    ASSERT_EQ(drawpipe_context_threads(ctx, &threads), DRAWPIPE_OK);
    EXPECT_EQ(threads, 2u);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << last_error();
    drawpipe_draw_stats stats{};
    ASSERT_EQ(drawpipe_flush(ctx, &stats), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(recorder.begins, 1);
    EXPECT_EQ(recorder.ends, 1);
    ASSERT_EQ(recorder.vertex_ids.size(), kVertices);
    for (uint32_t i = 0; i < kVertices; ++i) EXPECT_EQ(recorder.vertex_ids[i], i);
    // Without a vertex shader each attribute passes through as a varying too.
    EXPECT_EQ(recorder.stride, uint32_t(DRAWPIPE_VERTEX_HEADER_DWORDS) + 4);
    EXPECT_EQ(stats.indices, kVertices);
    EXPECT_EQ(stats.segments, 1u);
    EXPECT_EQ(stats.primitives.generated[0], kVertices / 3);
}

TEST_F(CapiTest, NullHandlesAndPointersAreInvalidValues) {
    EXPECT_EQ(drawpipe_draw(nullptr, &draw), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_EQ(last_error(), "drawpipe_draw: ctx is NULL");
    EXPECT_EQ(drawpipe_draw(ctx, nullptr), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_EQ(last_error(), "drawpipe_draw: draw is NULL");
    drawpipe_backend empty{};
    EXPECT_EQ(drawpipe_bind_backend(ctx, &empty), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(last_error().find("backend->draw_elements"), std::string::npos) << last_error();
    EXPECT_EQ(drawpipe_context_destroy(nullptr), DRAWPIPE_OK); // as free(NULL)
}

TEST_F(CapiTest, BadDrawFailsAtDrawWithTheCoreReasonAndQueuesNothing) {
    const uint16_t indices[3] = {0, 1, 2};
    draw.index_type = DRAWPIPE_INDEX_U16;
    draw.indices = indices;
    draw.index_buffer_count = 3;
    draw.count = 6;
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN);
    EXPECT_EQ(last_error().rfind("drawpipe_draw: ", 0), 0u) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(recorder.begins, 0);
}

TEST_F(CapiTest, OutOfRangeEnumsAreRejectedNotWrapped) {
    // 260 would wrap to 4 (triangles) in the C++ enum's uint8_t.
    store_int(draw.prim, 260);
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(last_error().find("draw.prim: 260"), std::string::npos) << last_error();
    drawpipe_vertex_attrib attrib{};
    store_int(attrib.format, DRAWPIPE_FORMAT_BGRA_SNORM10_10_10_2 + 1);
    EXPECT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_ERROR_INVALID_VALUE);
    drawpipe_raster_state raster;
    drawpipe_raster_state_init(&raster);
    store_int(raster.cull, -1);
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &raster), DRAWPIPE_ERROR_INVALID_VALUE);
}

TEST_F(CapiTest, MiddleEndsByNameWithTheirCounterNames) {
    EXPECT_EQ(drawpipe_bind_middle_end(ctx, "no_such_hardware"), DRAWPIPE_ERROR_NOT_FOUND);
    EXPECT_NE(last_error().find("no_such_hardware"), std::string::npos) << last_error();
    ASSERT_EQ(drawpipe_bind_middle_end(ctx, "a4xx"), DRAWPIPE_OK) << last_error();
    ASSERT_NE(drawpipe_counter_name(ctx, 0), nullptr);
    EXPECT_STREQ(drawpipe_counter_name(ctx, 0), "invocations");
    EXPECT_EQ(drawpipe_counter_name(ctx, 8), nullptr);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(recorder.vertex_ids.size(), kVertices);
}

TEST(Capi, UnknownStrategyFailsCreationAndLeavesNoContext) {
    drawpipe_context_options options{};
    options.strategy = "zigzag";
    drawpipe_context* ctx = reinterpret_cast<drawpipe_context*>(&options); // must be cleared
    EXPECT_EQ(drawpipe_context_create(&options, &ctx), DRAWPIPE_ERROR_NOT_FOUND);
    EXPECT_EQ(ctx, nullptr);
    EXPECT_NE(last_error().find("zigzag"), std::string::npos) << last_error();
}

TEST_F(CapiTest, StreamOutputSessionsFollowGlRules) {
    EXPECT_EQ(drawpipe_begin_stream_output(ctx), DRAWPIPE_ERROR_INVALID_OPERATION);
    float captured[4 * 6] = {};
    const drawpipe_captured_output position{DRAWPIPE_CAPTURE_POSITION, 0, 0, 4, 0, 0, 0};
    drawpipe_stream_output_state so{};
    so.output_count = 1;
    so.outputs = &position;
    so.buffers[0] = {captured, 0, sizeof captured, 16};
    ASSERT_EQ(drawpipe_set_stream_output(ctx, &so), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(drawpipe_end_stream_output(ctx, nullptr), DRAWPIPE_ERROR_INVALID_OPERATION);
    ASSERT_EQ(drawpipe_begin_stream_output(ctx), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK);
    drawpipe_stream_output_counts counts{};
    ASSERT_EQ(drawpipe_end_stream_output(ctx, &counts), DRAWPIPE_OK);
    EXPECT_EQ(counts.generated[0], 4u);
    EXPECT_EQ(counts.written[0], 2u); // room for two triangles only
    size_t bytes = 0;
    ASSERT_EQ(drawpipe_stream_output_written_bytes(ctx, 0, &bytes), DRAWPIPE_OK);
    EXPECT_EQ(bytes, sizeof captured);
    for (int i = 0; i < 4 * 6; ++i) EXPECT_EQ(captured[i], positions[i]);
}

TEST_F(CapiTest, RasterizerDiscardStillCounts) {
    ASSERT_EQ(drawpipe_set_rasterizer_discard(ctx, true), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK);
    drawpipe_draw_stats stats{};
    ASSERT_EQ(drawpipe_flush(ctx, &stats), DRAWPIPE_OK);
    EXPECT_EQ(recorder.begins, 0);
    EXPECT_EQ(stats.primitives.generated[0], kVertices / 3);
}

TEST_F(CapiTest, VertexShaderGetsBlocksAndWritesOutputs) {
    drawpipe_shader_outputs outputs{};
    outputs.varying_count = 2;
    // out[4] is varying 0's x: the vertex id, read back by the backend below.
    const drawpipe_vs_fn vs = [](void* user, const drawpipe_shader_block* b) {
        EXPECT_LE(b->count, uint32_t(DRAWPIPE_SHADER_LANES));
        *static_cast<uint32_t*>(user) += b->count;
        for (uint32_t l = 0; l < b->count; ++l) {
            for (int c = 0; c < 4; ++c) b->out[c][l] = b->in[c][l];
            b->out[4][l] = float(b->vertex_id[l]);
        }
    };
    uint32_t shaded = 0;
    ASSERT_EQ(drawpipe_bind_vertex_shader(ctx, &outputs, vs, &shaded), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(shaded, kVertices);
    EXPECT_EQ(recorder.stride, uint32_t(DRAWPIPE_VERTEX_HEADER_DWORDS) + 2 * 4);
    ASSERT_EQ(recorder.varying0_x.size(), kVertices);
    for (uint32_t i = 0; i < kVertices; ++i) EXPECT_EQ(recorder.varying0_x[i], float(i));
    outputs.varying_count = DRAWPIPE_MAX_VARYINGS + 1;
    EXPECT_EQ(drawpipe_bind_vertex_shader(ctx, &outputs, vs, &shaded),
              DRAWPIPE_ERROR_INVALID_VALUE);
}

TEST_F(CapiTest, GeometryShaderCallbacksEmitWhatTheBackendReceives) {
    drawpipe_geometry_shader gs{};
    gs.input = DRAWPIPE_PRIM_TRIANGLES;
    gs.output = DRAWPIPE_PRIM_POINTS;
    gs.max_vertices = 1;
    gs.streams = 1;
    gs.uses_end_primitive = true;
    // One point per triangle, at its first vertex, tagged with the primitive id.
    gs.main = [](void*, drawpipe_gs_context* g) {
        drawpipe_gs_output out{};
        out.id = 100 + drawpipe_gs_primitive_id(g);
        for (uint32_t c = 0; c < 4; ++c) {
            const uint32_t bits = drawpipe_gs_load(g, 0, DRAWPIPE_SLOT_POSITION + c);
            std::memcpy(&out.position[c], &bits, 4);
        }
        drawpipe_gs_emit(g, 0, &out);
    };
    EXPECT_EQ(drawpipe_bind_geometry_shader(ctx, &gs), DRAWPIPE_ERROR_INVALID_VALUE)
        << "0 invocations must be refused";
    EXPECT_NE(last_error().find("invocations"), std::string::npos) << last_error();
    gs.invocations = 1;
    ASSERT_EQ(drawpipe_bind_geometry_shader(ctx, &gs), DRAWPIPE_OK) << last_error();
    std::vector<uint32_t> ids;
    backend.user = &ids;
    backend.begin_draw = nullptr;
    backend.end_draw = nullptr;
    backend.draw_elements = [](void* user, drawpipe_prim prim, uint8_t,
                               const drawpipe_vertex_view* v, const uint32_t* elts,
                               uint32_t count) {
        EXPECT_EQ(prim, DRAWPIPE_PRIM_POINTS);
        for (uint32_t i = 0; i < count; ++i)
            static_cast<std::vector<uint32_t>*>(user)->push_back(
                v->data[size_t(elts[i]) * v->stride + DRAWPIPE_SLOT_GS_ID]);
    };
    ASSERT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << last_error();
    EXPECT_EQ(ids, (std::vector<uint32_t>{100, 101, 102, 103}));
}

TEST_F(CapiTest, DestroyDeliversWhatIsQueued) {
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK);
    EXPECT_EQ(recorder.begins, 0) << "a small draw stays queued until a flush";
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
    ctx = nullptr; // TearDown's destroy(NULL) is then a no-op
    EXPECT_EQ(recorder.begins, 1);
    EXPECT_EQ(recorder.vertex_ids.size(), kVertices);
}

TEST_F(CapiTest, DrawStreamOutputDrawsWhatWasCaptured) {
    EXPECT_EQ(drawpipe_draw_stream_output(ctx, &draw, 0), DRAWPIPE_ERROR_INVALID_OPERATION);
    float captured[4 * 9] = {};
    const drawpipe_captured_output position{DRAWPIPE_CAPTURE_POSITION, 0, 0, 4, 0, 0, 0};
    drawpipe_stream_output_state so{};
    so.output_count = 1;
    so.outputs = &position;
    so.buffers[0] = {captured, 0, sizeof captured, 16};
    ASSERT_EQ(drawpipe_set_stream_output(ctx, &so), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_begin_stream_output(ctx), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_end_stream_output(ctx, nullptr), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    recorder = Recorder{};
    // The captured vertices' count (three triangles fit: 9) replaces the draw's.
    ASSERT_EQ(drawpipe_draw_stream_output(ctx, &draw, 0), DRAWPIPE_OK) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(recorder.vertex_ids.size(), 9u);
    EXPECT_EQ(drawpipe_draw_stream_output(ctx, &draw, 4), DRAWPIPE_ERROR_INVALID_VALUE);
}

TEST(Capi, LastErrorIsPerThread) {
    EXPECT_EQ(drawpipe_flush(nullptr, nullptr), DRAWPIPE_ERROR_INVALID_VALUE);
    std::string other = "unset";
    std::thread([&] { other = drawpipe_last_error(); }).join();
    EXPECT_EQ(other, "");
    EXPECT_EQ(last_error(), "drawpipe_flush: ctx is NULL");
}

TEST(Capi, StatusNamesAreTheCoreErrorNames) {
    EXPECT_STREQ(drawpipe_status_name(DRAWPIPE_OK), "ok");
    for (int code = 0; code <= int(drawpipe::ErrorCode::io_error); ++code)
        EXPECT_STREQ(drawpipe_status_name(drawpipe_status(code + 1)),
                     drawpipe::error_code_name(drawpipe::ErrorCode(code)));
    EXPECT_STREQ(drawpipe_status_name(DRAWPIPE_ERROR_OUT_OF_MEMORY), "out_of_memory");
}

} // namespace

namespace {

// Multi-draws and indirect draws through C: each sub-draw reaches the backend as its own
// draw with its draw id, the same as drawpipe_draw with those ids; bad records fail whole.
TEST_F(CapiTest, MultiDrawAndIndirectDrawCarryDrawIds) {
    drawpipe_draw_info draws[2] = {draw, draw};
    draws[0].count = 3;
    draws[1].start = 6;
    draws[1].count = 6;
    ASSERT_EQ(drawpipe_multi_draw(ctx, draws, 2), DRAWPIPE_OK) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(recorder.begins, 2);
    EXPECT_EQ(recorder.vertex_ids, (std::vector<uint32_t>{0, 1, 2, 6, 7, 8, 9, 10, 11}));

    // The same draws as 16-byte records {count, instances, first, base instance}; the
    // vertex shader sees draw ids 0 and 1 (it writes them as varying 0's x).
    const uint32_t records[8] = {3, 1, 0, 0, 6, 1, 6, 0};
    drawpipe_indirect in{};
    in.buffer = records;
    in.size = sizeof records;
    in.draw_count = 2;
    drawpipe_shader_outputs outputs{};
    outputs.varying_count = 1;
    outputs.varyings[0].components = 4;
    ASSERT_EQ(drawpipe_bind_vertex_shader(
                  ctx, &outputs,
                  [](void*, const drawpipe_shader_block* b) {
                      for (uint32_t l = 0; l < b->count; ++l) b->out[4][l] = float(b->draw_id);
                  },
                  nullptr),
              DRAWPIPE_OK);
    recorder = {};
    ASSERT_EQ(drawpipe_draw_indirect(ctx, &draw, &in), DRAWPIPE_OK) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(recorder.vertex_ids, (std::vector<uint32_t>{0, 1, 2, 6, 7, 8, 9, 10, 11}));
    EXPECT_EQ(recorder.varying0_x, (std::vector<float>{0, 0, 0, 1, 1, 1, 1, 1, 1}));

    in.draw_count = 3; // past the 32-byte buffer: GL_INVALID_OPERATION, nothing drawn
    recorder = {};
    EXPECT_EQ(drawpipe_draw_indirect(ctx, &draw, &in), DRAWPIPE_ERROR_INVALID_OPERATION);
    EXPECT_NE(last_error().find("record buffer"), std::string::npos) << last_error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(recorder.begins, 0);
}

} // namespace
