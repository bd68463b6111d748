#include "drawpipe/gs.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/prim.hpp"

namespace drawpipe {

namespace {

[[noreturn]] void bad(const GeometryShader& gs, const std::string& what) {
    throw Error(ErrorCode::invalid_value, "gs " + gs.name + ": " + what);
}

} // namespace

uint32_t gs_input_vertices(Prim input) {
    switch (input) {
    case Prim::points:
        return 1;
    case Prim::lines:
        return 2;
    case Prim::lines_adjacency:
        return 4;
    case Prim::triangles:
        return 3;
    case Prim::triangles_adjacency:
        return 6;
    default:
        return 0;
    }
}

uint32_t gs_min_strip_vertices(Prim output) {
    switch (output) {
    case Prim::points:
        return 1;
    case Prim::line_strip:
        return 2;
    case Prim::triangle_strip:
        return 3;
    default:
        return 0;
    }
}

void validate_gs(const GeometryShader& gs) {
    if (gs_input_vertices(gs.input) == 0)
        bad(gs,
            "input: " + std::string(prim_name(gs.input)) + " is not a geometry-shader input type");
    if (gs_min_strip_vertices(gs.output) == 0)
        bad(gs, "output: " + std::string(prim_name(gs.output)) +
                    " is not points, line_strip or triangle_strip");
    if (gs.max_vertices == 0 || gs.max_vertices > kGsMaxOutputVertices)
        bad(gs, "max_vertices: " + std::to_string(gs.max_vertices) + " is outside 1.." +
                    std::to_string(kGsMaxOutputVertices));
    if (gs.invocations == 0 || gs.invocations > kGsMaxInvocations)
        bad(gs, "invocations: " + std::to_string(gs.invocations) + " is outside 1.." +
                    std::to_string(kGsMaxInvocations));
    if (gs.streams == 0 || gs.streams > kGsMaxStreams)
        bad(gs, "streams: " + std::to_string(gs.streams) + " is outside 1.." +
                    std::to_string(kGsMaxStreams));
    if (!gs.main) bad(gs, "main: no shader function");
    if (gs.input_varyings > kMaxVaryings)
        bad(gs, "input_varyings: " + std::to_string(gs.input_varyings) + ", at most " +
                    std::to_string(kMaxVaryings));
    try {
        validate_outputs(gs.outputs);
    } catch (const Error& e) {
        bad(gs, e.what());
    }
}

void check_gs_link(const GeometryShader& gs, const VertexLayout& in) {
    if (gs.input_varyings > in.varying_count())
        bad(gs, "reads " + std::to_string(gs.input_varyings) +
                    " varyings; the vertex stage writes " + std::to_string(in.varying_count()));
}

VertexLayout gs_output_layout(const GeometryShader& gs) {
    VertexLayout layout;
    layout.outputs = gs.outputs;
    layout.gs_output = true;
    return layout;
}

void write_gs_vertex(uint32_t* v, const GsOutput& out, uint32_t instance,
                     const VertexLayout& layout) {
    v[SLOT_VERTEX_ID] = 0; // an output vertex has no vertex id of its own
    v[SLOT_INSTANCE_ID] = instance;
    v[SLOT_GS_ID] = out.id;
    v[SLOT_GS_LAYER] = layout.outputs.layer ? out.layer : 0;
    for (uint32_t c = 0; c < 4; ++c) v[SLOT_POSITION + c] = float_dword(out.position[c]);
    const ShaderOutputs& o = layout.outputs;
    for (uint32_t i = 0; i < o.varying_count; ++i)
        for (uint32_t c = 0; c < 4; ++c) v[layout.varying_slot(i) + c] = out.varyings[i][c];
    if (o.point_size) v[layout.point_size_slot()] = float_dword(out.point_size);
    for (uint32_t i = 0; i < o.clip_distances; ++i)
        v[layout.clip_distance_slot() + i] = float_dword(out.clip_distance[i]);
    if (o.layer) v[layout.layer_slot()] = out.layer;
    if (o.viewport_index) v[layout.viewport_slot()] = out.viewport;
}

} // namespace drawpipe
