// What a Gallium driver sets, through C as through C++: viewport arrays, clip control, depth
// clamp and two-sided colour reach a C backend exactly as the C++ Context hands them to a C++
// one (each setting changing what arrives), the pipeline statistics are C++'s, the draw id
// is in its record slot, and drawpipe_decompose is decompose_elements for every primitive.
#include <drawpipe/decompose.hpp>
#include <drawpipe/drawpipe.h>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/middle_ends.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;

constexpr uint32_t kVertices = 60;

// Positions over and past the clip volume, both windings, w near 1.
std::vector<float> scene_positions() {
    std::vector<float> p;
    uint32_t s = 12345;
    auto next = [&] {
        s = s * 1103515245u + 12345u;
        return float((s >> 8) % 3001) / 1000.0f - 1.5f; // -1.5 .. 1.5
    };
    for (uint32_t v = 0; v < kVertices; ++v) {
        const float x = next(), y = next(), z = next(), w = 1.0f + next() / 8;
        p.insert(p.end(), {x, y, z, w});
    }
    return p;
}

// Position through, varying 0 the front colour, 1 the back one, and the viewport index
// (vertex_id / 3 % 3) after them: one body for the C and the C++ block.
template <class Block> void vs_body(const Block& b) {
    for (uint32_t l = 0; l < b.count; ++l) {
        for (uint32_t c = 0; c < 4; ++c) b.out[c][l] = b.in[c][l];
        const float front[4] = {1, 0, 0, 1}, back[4] = {0, 0, 1, 1};
        for (uint32_t c = 0; c < 4; ++c) b.out[4 + c][l] = front[c], b.out[8 + c][l] = back[c];
        const uint32_t index = b.vertex_id[l] / 3 % 3;
        std::memcpy(&b.out[12][l], &index, 4);
    }
}

// What reached a backend: each call's primitive and its elements' whole records.
struct Drawn {
    std::vector<int> prims;
    std::vector<std::vector<uint32_t>> records;
    bool operator==(const Drawn&) const = default;
};

void record(Drawn& d, int prim, const uint32_t* data, uint32_t stride, const uint32_t* elts,
            uint32_t count) {
    d.prims.push_back(prim);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t* r = data + size_t(elts[i]) * stride;
        d.records.emplace_back(r, r + stride);
    }
}

class CppRecorder final : public Backend {
  public:
    Drawn drawn;
    void begin_draw(const DrawInfo&, const VertexLayout&) override {}
    void draw_elements(Prim prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        record(drawn, int(prim), v.data, v.stride, elts.data(), uint32_t(elts.size()));
    }
};

struct Result {
    Drawn drawn;
    PipelineStatistics statistics;
    uint64_t shaded = 0;
};

// The raster settings a case changes, named once and applied to either interface's state.
struct Settings {
    uint32_t viewport_count = 1;
    bool upper_left = false, zero_to_one = false, depth_clamp = false, two_side = false;
    bool cull_back = false;
    bool offset = false; // polygon offset with a fixed-point r and a clamp
    // A user plane measured against varying 1 (gl_ClipVertex: the back colour, z = 1), which
    // puts every vertex outside though the positions are not.
    bool clip_vertex = false;
};

// The offset case's values: 2^-16 steps and a clamp the slope term reaches.
constexpr float kOffsetFactor = 1, kOffsetUnits = 4, kOffsetR = 1.0f / 65536, kOffsetClamp = 0.01f;

constexpr float kViewports[3][6] = {
    {0, 0, 64, 48, 0, 1}, {64, 0, 32, 32, 0.25f, 0.75f}, {10, 50, 100, 20, 1, 0}};

Result draw_cpp(const Settings& s, Prim prim) {
    const std::vector<float> positions = scene_positions();
    ContextOptions options;
    options.threads = 2;
    Context ctx(options);
    register_builtin_middle_ends();
    ctx.bind_middle_end("fetch_shade"); // what drawpipe_context_create binds
    const VertexBuffer buffer{positions.data(), positions.size() * 4, 16, 0};
    VertexAttrib attrib;
    attrib.format = Format::float32x4;
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    VertexShader vs;
    vs.outputs.add_varying();
    vs.outputs.add_varying();
    vs.outputs.viewport_index = true;
    vs.run = [](const ShaderBlock& b) { vs_body(b); };
    ctx.bind_vertex_shader(vs);
    CppRecorder backend;
    ctx.bind_backend(backend);
    RasterState r;
    const auto viewport = [](const float* v) {
        return Viewport{v[0], v[1], v[2], v[3], v[4], v[5]};
    };
    r.viewport = viewport(kViewports[0]);
    r.viewport_count = s.viewport_count;
    for (uint32_t i = 1; i < 3; ++i) r.extra_viewports[i - 1] = viewport(kViewports[i]);
    r.clip_origin = s.upper_left ? ClipOrigin::upper_left : ClipOrigin::lower_left;
    r.clip_depth = s.zero_to_one ? ClipDepth::zero_to_one : ClipDepth::negative_one_to_one;
    r.depth_clamp = s.depth_clamp;
    r.two_side = s.two_side;
    r.two_side_colors[0] = {0, 1};
    r.cull = s.cull_back ? CullFace::back : CullFace::none;
    r.offset_fill = s.offset;
    r.offset_factor = kOffsetFactor, r.offset_units = kOffsetUnits;
    r.offset_units_r = kOffsetR, r.offset_clamp = kOffsetClamp;
    if (s.clip_vertex) {
        r.clip_plane_enable = 1;
        r.clip_planes[0] = {0, 0, -1, 0.5f};
        r.clip_vertex_varying = 1;
    }
    ctx.set_raster_state(r);
    DrawInfo draw;
    draw.prim = prim;
    draw.count = kVertices;
    ctx.draw(draw);
    const DrawStats stats = ctx.flush();
    return {backend.drawn, stats.statistics, stats.front.shaded};
}

Result draw_c(const Settings& s, drawpipe_prim prim) {
    const std::vector<float> positions = scene_positions();
    drawpipe_context_options options{};
    options.threads = 2;
    drawpipe_context* ctx = nullptr;
    EXPECT_EQ(drawpipe_context_create(&options, &ctx), DRAWPIPE_OK) << drawpipe_last_error();
    const drawpipe_vertex_buffer buffer{positions.data(), positions.size() * 4, 16, 0};
    drawpipe_vertex_attrib attrib{};
    attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
    EXPECT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
    EXPECT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
    drawpipe_shader_outputs outputs{};
    outputs.varying_count = 2;
    outputs.viewport_index = true;
    EXPECT_EQ(
        drawpipe_bind_vertex_shader(
            ctx, &outputs, [](void*, const drawpipe_shader_block* b) { vs_body(*b); }, nullptr),
        DRAWPIPE_OK);
    Result result;
    drawpipe_backend backend{};
    backend.user = &result.drawn;
    backend.draw_elements = [](void* user, drawpipe_prim p, uint8_t, const drawpipe_vertex_view* v,
                               const uint32_t* elts, uint32_t count) {
        record(*static_cast<Drawn*>(user), int(p), v->data, v->stride, elts, count);
    };
    EXPECT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
    drawpipe_raster_state r;
    drawpipe_raster_state_init(&r);
    const auto viewport = [](const float* v) {
        return drawpipe_viewport{v[0], v[1], v[2], v[3], v[4], v[5]};
    };
    const drawpipe_viewport v0 = viewport(kViewports[0]);
    r.viewport_x = v0.x, r.viewport_y = v0.y, r.viewport_width = v0.width;
    r.viewport_height = v0.height, r.depth_near = v0.depth_near, r.depth_far = v0.depth_far;
    r.viewport_count = s.viewport_count;
    for (uint32_t i = 1; i < 3; ++i) r.extra_viewports[i - 1] = viewport(kViewports[i]);
    r.clip_origin = s.upper_left ? DRAWPIPE_CLIP_UPPER_LEFT : DRAWPIPE_CLIP_LOWER_LEFT;
    r.clip_depth = s.zero_to_one ? DRAWPIPE_CLIP_ZERO_TO_ONE : DRAWPIPE_CLIP_NEGATIVE_ONE_TO_ONE;
    r.depth_clamp = s.depth_clamp;
    r.two_side = s.two_side;
    r.two_side_colors[0] = {0, 1};
    r.cull = s.cull_back ? DRAWPIPE_CULL_BACK : DRAWPIPE_CULL_NONE;
    r.offset_fill = s.offset;
    r.offset_factor = kOffsetFactor, r.offset_units = kOffsetUnits;
    r.offset_units_r = kOffsetR, r.offset_clamp = kOffsetClamp;
    if (s.clip_vertex) {
        r.clip_plane_enable = 1;
        const float plane[4] = {0, 0, -1, 0.5f};
        std::memcpy(r.clip_planes[0], plane, sizeof plane);
        r.clip_vertex_varying = 1;
    }
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &r), DRAWPIPE_OK) << drawpipe_last_error();
    drawpipe_draw_info draw;
    drawpipe_draw_info_init(&draw);
    draw.prim = prim;
    draw.count = kVertices;
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << drawpipe_last_error();
    drawpipe_draw_stats stats{};
    EXPECT_EQ(drawpipe_flush(ctx, &stats), DRAWPIPE_OK) << drawpipe_last_error();
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
    const drawpipe_pipeline_statistics& p = stats.statistics;
    result.statistics = {p.ia_vertices,   p.ia_primitives,    p.vs_invocations, p.gs_invocations,
                         p.gs_primitives, p.clip_invocations, p.clip_primitives};
    result.shaded = stats.shaded;
    return result;
}

TEST(CapiParity, RasterSettingsReachTheBackendAsThroughCpp) {
    const Settings plain;
    const std::pair<const char*, Settings> cases[] = {
        {"viewport array", {.viewport_count = 3}},
        {"upper-left origin", {.upper_left = true}},
        {"0..1 depth", {.zero_to_one = true}},
        {"depth clamp", {.depth_clamp = true}},
        {"two-sided colour", {.two_side = true}},
        {"polygon offset, fixed-point r, clamped", {.offset = true}},
        {"a user plane against the clip vertex", {.clip_vertex = true}},
        {"all, culling back faces", {3, true, true, true, true, true}},
    };
    for (const Prim prim : {Prim::triangles, Prim::triangle_strip}) {
        const Result base = draw_cpp(plain, prim);
        for (const auto& [name, settings] : cases) {
            SCOPED_TRACE(std::string(name) + ", prim " + std::to_string(int(prim)));
            const Result cpp = draw_cpp(settings, prim);
            EXPECT_NE(cpp.drawn, base.drawn) << "the setting must change what arrives";
            const Result c = draw_c(settings, drawpipe_prim(prim));
            EXPECT_EQ(c.drawn, cpp.drawn);
            EXPECT_EQ(c.statistics, cpp.statistics);
            EXPECT_EQ(c.shaded, cpp.shaded);
            EXPECT_GT(c.statistics.clip_invocations, 0u);
            EXPECT_EQ(c.statistics.ia_vertices, kVertices);
        }
    }
}

TEST(CapiParity, RasterStateEnumsAndViewportCountAreChecked) {
    drawpipe_context* ctx = nullptr;
    ASSERT_EQ(drawpipe_context_create(nullptr, &ctx), DRAWPIPE_OK);
    drawpipe_raster_state r;
    drawpipe_raster_state_init(&r);
    EXPECT_EQ(r.viewport_count, 1u);
    EXPECT_EQ(r.two_side_colors[1].front, -1);
    EXPECT_EQ(r.clip_vertex_varying, -1);
    r.viewport_count = DRAWPIPE_MAX_VIEWPORTS + 1;
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &r), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(std::string(drawpipe_last_error()).find("raster.viewport_count: 17 is not 1-16"),
              std::string::npos)
        << drawpipe_last_error();
    r.viewport_count = 0; // a zeroed count reads as one viewport
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &r), DRAWPIPE_OK) << drawpipe_last_error();
    const int bad = 2;
    std::memcpy(&r.clip_origin, &bad, sizeof bad);
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &r), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(std::string(drawpipe_last_error()).find("raster.clip_origin: 2"), std::string::npos)
        << drawpipe_last_error();
    r.clip_origin = DRAWPIPE_CLIP_LOWER_LEFT;
    std::memcpy(&r.clip_depth, &bad, sizeof bad);
    EXPECT_EQ(drawpipe_set_raster_state(ctx, &r), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(std::string(drawpipe_last_error()).find("raster.clip_depth: 2"), std::string::npos)
        << drawpipe_last_error();
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
}

// Each sub-draw's vertex records carry its draw id in DRAWPIPE_SLOT_DRAW_ID, as in C++; the
// stream-output counts are readable mid-session.
TEST(CapiParity, DrawIdSlotAndStreamOutputCountsSoFar) {
    drawpipe_context* ctx = nullptr;
    ASSERT_EQ(drawpipe_context_create(nullptr, &ctx), DRAWPIPE_OK);
    const std::vector<float> positions = scene_positions();
    const drawpipe_vertex_buffer buffer{positions.data(), positions.size() * 4, 16, 0};
    drawpipe_vertex_attrib attrib{};
    attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
    ASSERT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
    std::vector<uint32_t> ids;
    drawpipe_backend backend{};
    backend.user = &ids;
    backend.draw_elements = [](void* user, drawpipe_prim, uint8_t, const drawpipe_vertex_view* v,
                               const uint32_t* elts, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i)
            static_cast<std::vector<uint32_t>*>(user)->push_back(
                v->data[size_t(elts[i]) * v->stride + DRAWPIPE_SLOT_DRAW_ID]);
    };
    ASSERT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
    static_assert(DRAWPIPE_SLOT_DRAW_ID == SLOT_DRAW_ID);
    float captured[4 * 64] = {};
    const drawpipe_captured_output position{DRAWPIPE_CAPTURE_POSITION, 0, 0, 4, 0, 0, 0};
    drawpipe_stream_output_state so{};
    so.output_count = 1;
    so.outputs = &position;
    so.buffers[0] = {captured, 0, sizeof captured, 16};
    ASSERT_EQ(drawpipe_set_stream_output(ctx, &so), DRAWPIPE_OK);
    ASSERT_EQ(drawpipe_begin_stream_output(ctx), DRAWPIPE_OK);
    drawpipe_draw_info draws[3];
    for (uint32_t i = 0; i < 3; ++i) {
        drawpipe_draw_info_init(&draws[i]);
        draws[i].start = 3 * i;
        draws[i].count = 3;
    }
    ASSERT_EQ(drawpipe_multi_draw(ctx, draws, 3), DRAWPIPE_OK) << drawpipe_last_error();
    drawpipe_stream_output_counts counts{};
    ASSERT_EQ(drawpipe_get_stream_output_counts(ctx, &counts), DRAWPIPE_OK);
    EXPECT_EQ(counts.generated[0], 3u);
    EXPECT_EQ(counts.written[0], 3u);
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
    EXPECT_EQ(drawpipe_get_stream_output_counts(ctx, nullptr), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_STREQ(drawpipe_last_error(), "drawpipe_get_stream_output_counts: counts is NULL");
    ASSERT_EQ(drawpipe_end_stream_output(ctx, nullptr), DRAWPIPE_OK);
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK);
}

using Prims = std::vector<std::vector<uint32_t>>;

void collect(void* user, uint32_t n, const uint32_t* elts) {
    static_cast<Prims*>(user)->emplace_back(elts, elts + n);
}

// Every primitive type (adjacency, quads, quad strips, polygons and patches among them), both
// conventions and counts 0-40: the same primitives in the same order as decompose_elements.
TEST(CapiParity, DecomposeIsDecomposeElements) {
    std::vector<uint32_t> elts;
    for (uint32_t i = 0; i < 40; ++i) elts.push_back(1000 + 7 * i); // not positions
    uint64_t compared = 0;
    for (int p = 0; p <= int(Prim::patches); ++p)
        for (const Provoking pv : {Provoking::first, Provoking::last})
            for (uint32_t count = 0; count <= elts.size(); ++count) {
                SCOPED_TRACE("prim " + std::to_string(p) + ", provoking " +
                             std::to_string(int(pv)) + ", count " + std::to_string(count));
                Prims expected, got;
                decompose_elements(
                    Prim(p), pv, std::span(elts.data(), count),
                    [&](uint32_t n, const uint32_t* v) { collect(&expected, n, v); });
                ASSERT_EQ(drawpipe_decompose(drawpipe_prim(p), drawpipe_provoking(pv), elts.data(),
                                             count, collect, &got),
                          DRAWPIPE_OK)
                    << drawpipe_last_error();
                ASSERT_EQ(got, expected);
                compared += got.size();
            }
    EXPECT_GT(compared, 10000u);
}

TEST(CapiParity, DecomposeChecksItsArguments) {
    const uint32_t elts[3] = {0, 1, 2};
    Prims got;
    int bad = 15;
    drawpipe_prim prim;
    std::memcpy(&prim, &bad, sizeof bad);
    EXPECT_EQ(drawpipe_decompose(prim, DRAWPIPE_PROVOKING_LAST, elts, 3, collect, &got),
              DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_STREQ(drawpipe_last_error(), "drawpipe_decompose: prim: 15 is not a valid value");
    // A provoking value past the two: tests/capi/decompose_provoking_check.c, since C++ cannot
    // hand one over (drawpipe_provoking's values are 0 and 1: loading a 2 is undefined).
    EXPECT_EQ(drawpipe_decompose(DRAWPIPE_PRIM_TRIANGLES, DRAWPIPE_PROVOKING_LAST, nullptr, 3,
                                 collect, &got),
              DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_STREQ(drawpipe_last_error(), "drawpipe_decompose: elts is NULL");
    EXPECT_EQ(drawpipe_decompose(DRAWPIPE_PRIM_TRIANGLES, DRAWPIPE_PROVOKING_LAST, elts, 3, nullptr,
                                 &got),
              DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_STREQ(drawpipe_last_error(), "drawpipe_decompose: emit is NULL");
    EXPECT_TRUE(got.empty());
    EXPECT_EQ(drawpipe_decompose(DRAWPIPE_PRIM_TRIANGLES, DRAWPIPE_PROVOKING_LAST, nullptr, 0,
                                 collect, &got),
              DRAWPIPE_OK); // nothing to read
}

} // namespace
