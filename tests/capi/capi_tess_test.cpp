// Tessellation through the C interface: a tessellated draw reaches a C backend exactly as the
// same shaders drawn through the C++ Context reach a C++ backend, over modes, spacings, levels
// (culling ones too), point mode, instancing and with or without a control shader; the
// primitive count is the tessellator's; bad input is a status with the core's words.
#include <drawpipe/drawpipe.h>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/middle_ends.hpp>
#include <drawpipe/tess.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;

constexpr uint32_t kPatchVertices = 4;
constexpr uint32_t kPatches = 5;
constexpr uint32_t kInstances = 2;
constexpr uint32_t kVertices = kPatchVertices * kPatches;
constexpr uint32_t kControlPoints = 3; // the control shader's output patch
constexpr uint32_t kPatchOutputs = 1;

float as_float(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// The shaders, written once for both interfaces: the C blocks name their fields as the C++
// blocks do, so one template reads either, and any field the C interface hands over wrong
// shows up as a difference between the two draws.

// Copies control point i % in_vertices of each patch through, writes varying 0 from the
// patch and point, one per-patch output, and raises every level by gl_PrimitiveID % 2.
template <class Block> void control_body(const Block& b) {
    for (uint32_t p = 0; p < b.count; ++p) {
        for (uint32_t i = 0; i < b.out_vertices; ++i) {
            uint32_t* out = b.out + size_t(p * b.out_vertices + i) * b.out_stride;
            const uint32_t* in = b.in[p * b.in_vertices + i % b.in_vertices];
            std::memcpy(out + SLOT_POSITION, in + SLOT_POSITION, 16);
            const float tag = float(100 * b.primitive_id[p] + 10 * b.instance + i);
            std::memcpy(out + kVertexHeaderDwords, &tag, 4);
        }
        b.patch_out[p * 4 * b.patch_outputs] = 7 * b.primitive_id[p] + b.in_stride;
        for (uint32_t k = 0; k < 4; ++k) b.levels[p].outer[k] += float(b.primitive_id[p] % 2);
        for (uint32_t k = 0; k < 2; ++k) b.levels[p].inner[k] += float(b.primitive_id[p] % 2);
    }
}

// The position: u P0 + v P1 + w P2 over the control points; varying 0: the coordinates and
// the patch; varying 1: a level, the per-patch output, the control points' count and stride;
// varying 2: the first control point's varying 0 (or its position x without a control shader).
template <class Block> void eval_body(const Block& b) {
    for (uint32_t l = 0; l < b.count; ++l) {
        const float u = b.u[l], v = b.v[l], w = b.w[l];
        for (uint32_t c = 0; c < 4; ++c) {
            const auto at = [&](uint32_t k) {
                return as_float(b.control_points[k % b.patch_vertices][SLOT_POSITION + c]);
            };
            b.out[c][l] = u * at(0) + v * at(1) + w * at(2);
        }
        b.out[4][l] = u, b.out[5][l] = v, b.out[6][l] = w;
        b.out[7][l] = float(b.primitive_id * 10 + b.instance);
        b.out[8][l] = b.levels.outer[1] + 100 * b.levels.inner[0];
        b.out[9][l] = b.patch_in ? float(b.patch_in[0]) : -1.0f;
        b.out[10][l] = float(b.patch_vertices);
        b.out[11][l] = float(b.cp_stride);
        b.out[12][l] = as_float(b.control_points[0][kVertexHeaderDwords]);
    }
}

ShaderOutputs outputs(uint32_t varyings) {
    ShaderOutputs o;
    for (uint32_t i = 0; i < varyings; ++i) o.add_varying();
    return o;
}

drawpipe_shader_outputs c_outputs(uint32_t varyings) {
    drawpipe_shader_outputs o{};
    o.varying_count = varyings;
    for (uint32_t i = 0; i < varyings; ++i) o.varyings[i].components = 4;
    return o;
}

// What reached a backend: each call's primitive and its elements' whole records.
struct Drawn {
    std::vector<int> prims;
    std::vector<std::vector<uint32_t>> records;
    uint32_t primitives = 0;
    bool tess_layout = false;
    bool operator==(const Drawn&) const = default;
};

uint32_t per_prim(int prim) {
    return prim == int(Prim::points) ? 1 : prim == int(Prim::lines) ? 2 : 3;
}

void record(Drawn& d, int prim, const uint32_t* data, uint32_t stride, const uint32_t* elts,
            uint32_t count) {
    d.prims.push_back(prim);
    d.primitives += count / per_prim(prim);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t* r = data + size_t(elts[i]) * stride;
        d.records.emplace_back(r, r + stride);
    }
}

class CppRecorder final : public Backend {
  public:
    Drawn drawn;
    void begin_draw(const DrawInfo&, const VertexLayout& layout) override {
        drawn.tess_layout = layout.tess_output;
    }
    void draw_elements(Prim prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        record(drawn, int(prim), v.data, v.stride, elts.data(), uint32_t(elts.size()));
    }
};

drawpipe_backend c_recorder(Drawn& d) {
    drawpipe_backend b{};
    b.user = &d;
    b.begin_draw = [](void* user, const drawpipe_draw_info*, const drawpipe_vertex_layout* l) {
        static_cast<Drawn*>(user)->tess_layout = l->tess_output;
    };
    b.draw_elements = [](void* user, drawpipe_prim prim, uint8_t, const drawpipe_vertex_view* v,
                         const uint32_t* elts, uint32_t count) {
        record(*static_cast<Drawn*>(user), int(prim), v->data, v->stride, elts, count);
    };
    return b;
}

struct Case {
    TessState state;
    TessLevels levels;
    bool tcs = false;
};

// Patch p's corners spread over a row; every vertex distinct.
std::vector<float> patch_positions() {
    std::vector<float> pos;
    for (uint32_t i = 0; i < kVertices; ++i)
        pos.insert(pos.end(), {float(i % kPatchVertices), float(i / kPatchVertices) * 0.5f,
                               float(i) * 0.125f, 1.0f});
    return pos;
}

const std::vector<float>& positions() {
    static const std::vector<float> pos = patch_positions();
    return pos;
}

// Through the C++ Context; `threads` alike on both sides.
Drawn draw_cpp(const Case& c) {
    register_builtin_middle_ends();
    ContextOptions options;
    options.threads = 2;
    Context ctx(options);
    ctx.bind_middle_end("fetch_shade");
    CppRecorder backend;
    ctx.bind_backend(backend);
    const VertexBuffer buffer{positions().data(), positions().size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    ctx.set_vertex_buffers(std::span(&buffer, 1));
    ctx.set_vertex_attribs(std::span(&attrib, 1));
    if (c.tcs) {
        TessControlShader tcs;
        tcs.vertices = kControlPoints;
        tcs.outputs = outputs(1);
        tcs.patch_outputs = kPatchOutputs;
        tcs.run = [](const TessControlBlock& b) { control_body(b); };
        ctx.bind_tess_control(tcs);
    }
    TessEvalShader tes;
    tes.state = c.state;
    tes.outputs = outputs(3);
    tes.run = [](const TessEvalBlock& b) { eval_body(b); };
    ctx.bind_tess_eval(tes);
    ctx.set_patch_default_levels(c.levels);
    DrawInfo draw;
    draw.prim = Prim::patches;
    draw.patch_vertices = kPatchVertices;
    draw.count = kVertices;
    draw.instance_count = kInstances;
    ctx.draw(draw);
    ctx.flush();
    return backend.drawn;
}

// Through the C interface.
Drawn draw_c(const Case& c) {
    Drawn drawn;
    drawpipe_context_options options{};
    options.threads = 2;
    drawpipe_context* ctx = nullptr;
    EXPECT_EQ(drawpipe_context_create(&options, &ctx), DRAWPIPE_OK) << drawpipe_last_error();
    const drawpipe_backend backend = c_recorder(drawn);
    EXPECT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
    const drawpipe_vertex_buffer buffer{positions().data(), positions().size() * 4, 16, 0};
    drawpipe_vertex_attrib attrib{};
    attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
    EXPECT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
    EXPECT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
    if (c.tcs) {
        drawpipe_tess_control_shader tcs{};
        tcs.vertices = kControlPoints;
        tcs.outputs = c_outputs(1);
        tcs.patch_outputs = kPatchOutputs;
        tcs.run = [](void*, const drawpipe_tess_control_block* b) { control_body(*b); };
        EXPECT_EQ(drawpipe_bind_tess_control_shader(ctx, &tcs), DRAWPIPE_OK)
            << drawpipe_last_error();
    }
    drawpipe_tess_eval_shader tes{};
    tes.mode = drawpipe_tess_mode(c.state.mode);
    tes.spacing = drawpipe_tess_spacing(c.state.spacing);
    tes.winding = drawpipe_tess_winding(c.state.winding);
    tes.point_mode = c.state.point_mode;
    tes.outputs = c_outputs(3);
    tes.run = [](void*, const drawpipe_tess_eval_block* b) { eval_body(*b); };
    EXPECT_EQ(drawpipe_bind_tess_eval_shader(ctx, &tes), DRAWPIPE_OK) << drawpipe_last_error();
    drawpipe_tess_levels levels;
    std::memcpy(levels.outer, c.levels.outer.data(), sizeof levels.outer);
    std::memcpy(levels.inner, c.levels.inner.data(), sizeof levels.inner);
    EXPECT_EQ(drawpipe_set_patch_default_levels(ctx, &levels), DRAWPIPE_OK);
    drawpipe_draw_info draw;
    drawpipe_draw_info_init(&draw);
    EXPECT_EQ(draw.patch_vertices, 3u) << "GL's initial GL_PATCH_VERTICES";
    draw.prim = DRAWPIPE_PRIM_PATCHES;
    draw.patch_vertices = kPatchVertices;
    draw.count = kVertices;
    draw.instance_count = kInstances;
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << drawpipe_last_error();
    EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK) << drawpipe_last_error();
    return drawn;
}

// Primitives the tessellator makes for the draw: patch p has the default levels, raised by
// p % 2 with the control shader.
uint32_t expected_primitives(const Case& c) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < kPatches; ++p) {
        TessLevels l = c.levels;
        if (c.tcs) {
            for (float& x : l.outer) x += float(p % 2);
            for (float& x : l.inner) x += float(p % 2);
        }
        TessDomain domain;
        if (tessellate(c.state, l, domain))
            n += uint32_t(domain.elements.size()) / per_prim(int(domain.prim));
    }
    return n * kInstances;
}

TEST(CapiTess, SameAsTheCppInterfaceOverModesLevelsAndControlShaders) {
    const TessLevels level_sets[] = {
        {{1, 1, 1, 1}, {1, 1}},
        {{3, 2.5f, 4, 1.5f}, {2.25f, 3}},
        {{5.5f, 3.7f, 2, 6}, {4.75f, 1}},
        {{0, 2, 3, 4}, {2, 2}}, // outer 0: culled, except patches the control shader raises
    };
    int cases = 0, culled = 0;
    for (int mode = 0; mode < 3; ++mode)
        for (int spacing = 0; spacing < 3; ++spacing)
            for (const TessLevels& levels : level_sets)
                for (bool tcs : {false, true}) {
                    Case c;
                    c.state.mode = TessMode(mode);
                    c.state.spacing = TessSpacing(spacing);
                    c.state.winding = cases % 2 ? TessWinding::cw : TessWinding::ccw;
                    c.state.point_mode = cases % 5 == 0;
                    c.levels = levels;
                    c.tcs = tcs;
                    SCOPED_TRACE(testing::Message() << "mode " << mode << " spacing " << spacing
                                                    << " outer0 " << levels.outer[0] << " tcs "
                                                    << tcs << " point_mode " << c.state.point_mode);
                    const Drawn want = draw_cpp(c), got = draw_c(c);
                    EXPECT_EQ(got.primitives, expected_primitives(c));
                    EXPECT_TRUE(got == want)
                        << "C drew " << got.records.size() << " vertices in " << got.prims.size()
                        << " calls, C++ " << want.records.size() << " in " << want.prims.size();
                    EXPECT_TRUE(got.tess_layout) << "the records are the evaluation stage's";
                    culled += got.primitives == 0;
                    ++cases;
                }
    EXPECT_EQ(cases, 72);
    EXPECT_GT(culled, 0) << "some level set must cull every patch";
}

// A context with a position buffer and an evaluation shader, for the errors.
class CapiTessErrors : public testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(drawpipe_context_create(nullptr, &ctx), DRAWPIPE_OK);
        const drawpipe_backend backend = c_recorder(drawn);
        ASSERT_EQ(drawpipe_bind_backend(ctx, &backend), DRAWPIPE_OK);
        const drawpipe_vertex_buffer buffer{positions().data(), positions().size() * 4, 16, 0};
        drawpipe_vertex_attrib attrib{};
        attrib.format = DRAWPIPE_FORMAT_FLOAT32X4;
        ASSERT_EQ(drawpipe_set_vertex_buffers(ctx, &buffer, 1), DRAWPIPE_OK);
        ASSERT_EQ(drawpipe_set_vertex_attribs(ctx, &attrib, 1), DRAWPIPE_OK);
        tes.outputs = c_outputs(3);
        tes.run = [](void*, const drawpipe_tess_eval_block* b) { eval_body(*b); };
        drawpipe_draw_info_init(&draw);
        draw.prim = DRAWPIPE_PRIM_PATCHES;
        draw.count = 12;
    }
    void TearDown() override { EXPECT_EQ(drawpipe_context_destroy(ctx), DRAWPIPE_OK); }

    std::string error() const { return drawpipe_last_error(); }

    Drawn drawn;
    drawpipe_context* ctx = nullptr;
    drawpipe_tess_eval_shader tes{};
    drawpipe_draw_info draw{};
};

TEST_F(CapiTessErrors, PatchesWithoutAnEvaluationShaderAreInvalidOperations) {
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_OPERATION);
    EXPECT_EQ(error(), "drawpipe_draw: prim: patches are drawn only with a tessellation "
                       "evaluation shader bound");
    ASSERT_EQ(drawpipe_bind_tess_eval_shader(ctx, &tes), DRAWPIPE_OK) << error();
    draw.prim = DRAWPIPE_PRIM_TRIANGLES;
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_OPERATION);
    EXPECT_NE(error().find("must be of patches"), std::string::npos) << error();
    // Unbound again (NULL), patches are refused once more; a control shader alone is too.
    ASSERT_EQ(drawpipe_bind_tess_eval_shader(ctx, nullptr), DRAWPIPE_OK);
    drawpipe_tess_control_shader tcs{};
    tcs.vertices = 3;
    tcs.run = [](void*, const drawpipe_tess_control_block*) {};
    ASSERT_EQ(drawpipe_bind_tess_control_shader(ctx, &tcs), DRAWPIPE_OK) << error();
    draw.prim = DRAWPIPE_PRIM_PATCHES;
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_OPERATION);
    EXPECT_NE(error().find("without an evaluation shader"), std::string::npos) << error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
}

TEST_F(CapiTessErrors, PatchVerticesOutsideOneTo32AreInvalidValues) {
    ASSERT_EQ(drawpipe_bind_tess_eval_shader(ctx, &tes), DRAWPIPE_OK) << error();
    for (uint32_t n : {0u, 33u, 1000u}) {
        draw.patch_vertices = n;
        EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_VALUE) << n;
        EXPECT_EQ(error().rfind("drawpipe_draw: patch_vertices: " + std::to_string(n), 0), 0u)
            << error();
    }
    for (uint32_t n : {1u, 32u}) {
        draw.patch_vertices = n;
        draw.count = n;
        EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_OK) << n << ": " << error();
    }
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK) << error();
}

TEST_F(CapiTessErrors, BadShadersAreRefusedAtBindOrDraw) {
    drawpipe_tess_eval_shader bad = tes;
    bad.run = nullptr;
    EXPECT_EQ(drawpipe_bind_tess_eval_shader(ctx, &bad), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_EQ(error(), "drawpipe_bind_tess_eval_shader: tes->run is NULL");
    bad = tes;
    int mode = 3; // past isolines: never wrapped into a valid mode
    std::memcpy(&bad.mode, &mode, sizeof mode);
    EXPECT_EQ(drawpipe_bind_tess_eval_shader(ctx, &bad), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(error().find("tes->mode: 3"), std::string::npos) << error();
    bad = tes;
    bad.outputs.varying_count = DRAWPIPE_MAX_VARYINGS + 1;
    EXPECT_EQ(drawpipe_bind_tess_eval_shader(ctx, &bad), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(error().find("tes->outputs.varying_count"), std::string::npos) << error();

    ASSERT_EQ(drawpipe_bind_tess_eval_shader(ctx, &tes), DRAWPIPE_OK) << error();
    drawpipe_tess_control_shader tcs{};
    tcs.run = [](void*, const drawpipe_tess_control_block*) {};
    EXPECT_EQ(drawpipe_set_patch_default_levels(ctx, nullptr), DRAWPIPE_ERROR_INVALID_VALUE);
    for (uint32_t vertices : {0u, 33u}) { // the core checks the declaration at the draw
        tcs.vertices = vertices;
        ASSERT_EQ(drawpipe_bind_tess_control_shader(ctx, &tcs), DRAWPIPE_OK) << error();
        EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_VALUE);
        EXPECT_EQ(error(), "drawpipe_draw: tcs: vertices " + std::to_string(vertices) +
                               " is not in [1, 32]");
    }
    tcs.vertices = 3;
    tcs.patch_outputs = DRAWPIPE_MAX_PATCH_OUTPUTS + 1;
    ASSERT_EQ(drawpipe_bind_tess_control_shader(ctx, &tcs), DRAWPIPE_OK) << error();
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_INVALID_VALUE);
    EXPECT_NE(error().find("patch_outputs 31"), std::string::npos) << error();
    ASSERT_EQ(drawpipe_flush(ctx, nullptr), DRAWPIPE_OK);
}

TEST_F(CapiTessErrors, HardwareModelsWithoutTessellationAreUnsupported) {
    ASSERT_EQ(drawpipe_bind_tess_eval_shader(ctx, &tes), DRAWPIPE_OK) << error();
    ASSERT_EQ(drawpipe_bind_middle_end(ctx, "mali"), DRAWPIPE_OK) << error();
    EXPECT_EQ(drawpipe_draw(ctx, &draw), DRAWPIPE_ERROR_UNSUPPORTED);
    EXPECT_NE(error().find("no tessellation stages"), std::string::npos) << error();
}

} // namespace
