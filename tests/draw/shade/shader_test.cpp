// Declared shader outputs: where each output lands in a vertex record, the block interface
// against the per-vertex adapter, presets, declaration limits, and geometry-shader outputs
// carried from the vertex shader's varyings.
#include "drawpipe/error.hpp"
#include "drawpipe/extend/gs_executor.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/shader.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <numeric>
#include <vector>

using namespace drawpipe;

namespace {

ShaderOutputs every_kind() {
    ShaderOutputs o;
    o.add_varying({ValueType::float32, Interp::smooth, 4});
    o.add_varying({ValueType::sint32, Interp::flat, 2});
    o.add_varying({ValueType::float32, Interp::noperspective, 3});
    o.point_size = true;
    o.clip_distances = 3;
    o.layer = true;
    o.viewport_index = true;
    return o;
}

// Two float4 attributes over `n` vertices: attribute a of vertex v is (v, a, v * a, 1).
struct Input {
    std::vector<float> data;
    VertexBuffer buffer;
    std::vector<VertexAttrib> attribs;
    explicit Input(uint32_t n) {
        for (uint32_t v = 0; v < n; ++v)
            for (uint32_t a = 0; a < 2; ++a)
                data.insert(data.end(), {float(v), float(a), float(v * a), 1.0f});
        buffer = {data.data(), data.size() * 4, 32, 0};
        attribs = {{0, 0, Format::float32x4, 0}, {0, 16, Format::float32x4, 0}};
    }
    VertexInput input() const { return {{&buffer, 1}, attribs}; }
};

// Output dword d (after the header) of vertex `id`, instance `inst`: a function of all three
// and the inputs, so a misplaced lane, row or vertex shows.
float expected_out(uint32_t d, const float* in, uint32_t id, uint32_t inst) {
    return in[d % 8] * 3.0f + float(d) + 1000.0f * float(id) + 0.5f * float(inst);
}

TEST(ShaderOutputs, SlotsFollowTheDeclaration) {
    VertexLayout l;
    l.outputs = every_kind();
    EXPECT_EQ(l.varying_slot(0), kVertexHeaderDwords);
    EXPECT_EQ(l.varying_slot(2), kVertexHeaderDwords + 8);
    EXPECT_EQ(l.point_size_slot(), kVertexHeaderDwords + 12);
    EXPECT_EQ(l.clip_distance_slot(), kVertexHeaderDwords + 13);
    EXPECT_EQ(l.layer_slot(), kVertexHeaderDwords + 16);
    EXPECT_EQ(l.viewport_slot(), kVertexHeaderDwords + 17);
    EXPECT_EQ(l.stride(), kVertexHeaderDwords + 18);
    VertexLayout none;
    EXPECT_EQ(none.stride(), kVertexHeaderDwords);
}

TEST(ShaderOutputs, DeclarationLimitsAreErrors) {
    ShaderOutputs o;
    o.clip_distances = kMaxClipDistances + 1;
    EXPECT_THROW(validate_outputs(o), Error);
    o = {};
    o.varying_count = kMaxVaryings + 1;
    EXPECT_THROW(validate_outputs(o), Error);
    o = {};
    o.add_varying({ValueType::float32, Interp::smooth, 0});
    EXPECT_THROW(validate_outputs(o), Error);
    EXPECT_NO_THROW(validate_outputs(every_kind()));
}

// The block form and the per-vertex adapter of one shader write identical records, for
// counts on both sides of the block size, and each record's header names its vertex.
TEST(ShaderOutputs, BlockAndPerVertexShadersAgree) {
    const ShaderOutputs outputs = every_kind();
    const VertexShader block{outputs, [](const ShaderBlock& b) {
                                 for (uint32_t d = 0; d < b.out_count; ++d)
                                     for (uint32_t l = 0; l < b.count; ++l) {
                                         float in[8];
                                         for (uint32_t r = 0; r < 8; ++r) in[r] = b.in[r][l];
                                         b.out[d][l] =
                                             expected_out(d, in, b.vertex_id[l], b.instance_id[l]);
                                     }
                             }};
    const VertexShader single =
        per_vertex_shader(outputs, [](const float* in, float* out, uint32_t id, uint32_t inst) {
            for (uint32_t d = 0; d < 4 + 12 + 1 + 3 + 2; ++d)
                out[d] = expected_out(d, in, id, inst);
        });
    for (const uint32_t n : {1u, kShaderLanes - 1, kShaderLanes, kShaderLanes + 1, 100u}) {
        Input in(n + 5);
        DrawState a{}, b{};
        a.input = b.input = in.input();
        a.vs = &block;
        b.vs = &single;
        const VertexLayout layout = vertex_layout_for(a);
        ASSERT_EQ(layout.stride(), kVertexHeaderDwords + 18);
        std::vector<uint32_t> ids(n);
        std::iota(ids.begin(), ids.end(), 5u); // vertices 5 .. n + 4
        std::vector<uint32_t> ra(n * layout.stride()), rb(ra.size());
        shade_vertices(a, layout, ids.data(), n, 7, 0, ra.data());
        shade_vertices(b, layout, ids.data(), n, 7, 0, rb.data());
        EXPECT_EQ(ra, rb) << n << " vertices";
        for (uint32_t v = 0; v < n; ++v) {
            const uint32_t* rec = &ra[v * layout.stride()];
            EXPECT_EQ(rec[SLOT_VERTEX_ID], v + 5);
            EXPECT_EQ(rec[SLOT_INSTANCE_ID], 7u);
            const float in[8] = {float(v + 5), 0, 0, 1, float(v + 5), 1, float(v + 5), 1};
            for (uint32_t d = 0; d < layout.stride() - SLOT_POSITION; ++d)
                ASSERT_EQ(std::bit_cast<float>(rec[SLOT_POSITION + d]),
                          expected_out(d, in, v + 5, 7))
                    << "vertex " << v << ", dword " << d << ", " << n << " vertices";
        }
    }
}

// What a shader does not write keeps its preset: position and varyings (0, 0, 0, 1) with 1
// of the varying's type, special outputs 0.
TEST(ShaderOutputs, UnwrittenOutputsKeepTheirPresets) {
    ShaderOutputs o = every_kind();
    const VertexShader nothing{o, [](const ShaderBlock&) {}};
    Input in(1);
    DrawState s{};
    s.input = in.input();
    s.vs = &nothing;
    const VertexLayout l = vertex_layout_for(s);
    std::vector<uint32_t> rec(l.stride(), 0xdeadbeef);
    shade_vertex(s, l, 0, 0, 0, rec.data());
    EXPECT_EQ(rec[SLOT_POSITION], 0u);
    EXPECT_EQ(rec[SLOT_POSITION + 3], std::bit_cast<uint32_t>(1.0f));
    EXPECT_EQ(rec[l.varying_slot(0) + 3], std::bit_cast<uint32_t>(1.0f));
    EXPECT_EQ(rec[l.varying_slot(1) + 3], 1u); // an integer varying's 1
    EXPECT_EQ(rec[l.varying_slot(1)], 0u);
    for (uint32_t d = l.point_size_slot(); d < l.stride(); ++d) EXPECT_EQ(rec[d], 0u) << d;
}

// No vertex shader: attributes become varyings of their formats, attribute 0 the position.
TEST(ShaderOutputs, PassThroughKeepsTheAttributes) {
    Input in(3);
    DrawState s{};
    s.input = in.input();
    const VertexLayout l = vertex_layout_for(s);
    ASSERT_EQ(l.varying_count(), 2u);
    std::vector<uint32_t> rec(l.stride());
    shade_vertex(s, l, 2, 0, 0, rec.data());
    EXPECT_EQ(std::bit_cast<float>(rec[SLOT_POSITION]), 2.0f);
    EXPECT_EQ(std::bit_cast<float>(rec[l.varying_slot(1) + 2]), 2.0f); // v * a
}

// A geometry shader reads the vertex shader's varyings and writes its own declared outputs;
// the reference executor puts them in the output records.
TEST(ShaderOutputs, GeometryShaderCarriesVaryings) {
    GeometryShader gs;
    gs.name = "swap_color";
    gs.input = Prim::triangles;
    gs.output = Prim::triangle_strip;
    gs.max_vertices = 3;
    gs.outputs.add_varying({ValueType::float32, Interp::flat, 4});
    gs.outputs.point_size = true;
    gs.outputs.viewport_index = true;
    gs.main = [](GsContext& ctx) {
        for (uint32_t i = 0; i < 3; ++i) {
            GsOutput o;
            o.id = i;
            o.viewport = 2;
            o.point_size = 4.0f;
            for (uint32_t c = 0; c < 4; ++c) // input varying 0, components reversed
                o.varyings[0][c] = ctx.load(i, kVertexHeaderDwords + 3 - c);
            ctx.emit_vertex(o);
        }
    };
    ASSERT_NO_THROW(validate_gs(gs));
    uint32_t rec[3][kVertexHeaderDwords + 4] = {};
    const uint32_t* inputs[3];
    for (uint32_t v = 0; v < 3; ++v) {
        for (uint32_t c = 0; c < 4; ++c) rec[v][kVertexHeaderDwords + c] = 10 * v + c;
        inputs[v] = rec[v];
    }
    ShadedBatch out;
    GsStripWriter writer(gs, out);
    GsStats stats;
    execute_gs_reference(gs, inputs, kVertexHeaderDwords + 4, 0, writer, stats);
    writer.cut();
    const VertexLayout l = gs_output_layout(gs);
    ASSERT_EQ(out.vertex_count, 3u);
    ASSERT_EQ(out.vertices.size(), 3u * l.stride());
    for (uint32_t v = 0; v < 3; ++v) {
        const uint32_t* o = &out.vertices[v * l.stride()];
        EXPECT_EQ(o[SLOT_GS_ID], v);
        for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(o[l.varying_slot(0) + c], 10 * v + 3 - c);
        EXPECT_EQ(std::bit_cast<float>(o[l.point_size_slot()]), 4.0f);
        EXPECT_EQ(o[l.viewport_slot()], 2u);
    }
    gs.outputs.clip_distances = 9;
    EXPECT_THROW(validate_gs(gs), Error);
}

} // namespace
