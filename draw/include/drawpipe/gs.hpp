// The geometry-shader programming model shared by every GS executor.
//
// A geometry shader is a C++ callable over a GsContext. The context is an abstract class:
// each executor (the GL reference in <drawpipe/extend/gs_executor.hpp>, hardware models in
// middle_ends/) implements the loads and the emit/end calls itself, so it sees every call of every
// invocation in order and can serve loads from whatever memory model it has.
#pragma once

#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace drawpipe {

// What a shader writes for one output vertex. Only the outputs the shader declares
// (GeometryShader::outputs) reach the vertex record; `id` always does.
struct GsOutput {
    uint32_t id = 0;       // the integer `id` output the trace prints
    uint32_t layer = 0;    // gl_Layer
    uint32_t viewport = 0; // gl_ViewportIndex
    std::array<float, 4> position{0.0f, 0.0f, 0.0f, 1.0f};
    float point_size = 0.0f;
    std::array<float, kMaxClipDistances> clip_distance{};
    // Generic outputs as dwords (float bits, or integer bits for integer varyings).
    std::array<std::array<uint32_t, 4>, kMaxVaryings> varyings{};
};

// The interface a shader runs against, for one input primitive and one invocation.
class GsContext {
  public:
    virtual ~GsContext() = default;

    // Input vertices: 1, 2, 3, 4 or 6, in the order GL gives a geometry shader.
    virtual uint32_t vertex_count() const = 0;
    // Dword `slot` of input vertex `vertex`'s vertex-shader record (VertexSlot, varyings and
    // special outputs as VertexLayout places them). vertex < vertex_count(), slot < stride.
    virtual uint32_t load(uint32_t vertex, uint32_t slot) = 0;
    virtual uint32_t primitive_id_in() const = 0; // from 0 per instance, across segments
    virtual uint32_t invocation_id() const = 0;   // 0 .. invocations - 1
    // Appends a vertex to the current strip of `stream` / closes that strip.
    virtual void emit_stream_vertex(uint32_t stream, const GsOutput& out) = 0;
    virtual void end_stream_primitive(uint32_t stream) = 0;

    void emit_vertex(const GsOutput& out) { emit_stream_vertex(0, out); }
    // Component c of varying i of input vertex `vertex`, as its dword.
    uint32_t varying(uint32_t vertex, uint32_t i, uint32_t c) {
        return load(vertex, kVertexHeaderDwords + 4 * i + c);
    }
    void end_primitive() { end_stream_primitive(0); }
    uint32_t vertex_id(uint32_t i) { return load(i, SLOT_VERTEX_ID); }
    // All input vertices of a primitive share the instance; read through vertex 0.
    uint32_t instance_id() { return load(0, SLOT_INSTANCE_ID); }
};

class GeometryShader {
  public:
    std::string name;
    Prim input = Prim::triangles;       // points, lines, lines_adjacency, triangles(_adjacency)
    Prim output = Prim::triangle_strip; // points, line_strip, triangle_strip
    uint32_t max_vertices = 1;          // per invocation, all streams together
    uint32_t invocations = 1;
    uint32_t streams = 1; // only stream 0 reaches the backend
    // Declared outputs besides position and id; outputs.layer: the trace prints `@layer`.
    ShaderOutputs outputs;
    // Varyings of the vertex stage it reads (0 .. input_varyings-1): the vertex stage must
    // write at least these, as GL's program link requires.
    uint32_t input_varyings = 0;
    // Each output vertex's values depend only on its own index, not on earlier emits: lets
    // the A4xx model use the switch-rewritten form (one invocation computes one vertex).
    bool independent_vertices = false;
    // The shader contains end_primitive(), as a compiler knows statically: Intel gen7 gives
    // strip shaders cut bits only then. True is always safe (the cut bits stay clear).
    bool uses_end_primitive = true;
    std::function<void(GsContext&)> main;
};

// Largest values the shader declarations may take (the A4xx r0.x fields are 10 and 5 bits).
inline constexpr uint32_t kGsMaxOutputVertices = 1024;
inline constexpr uint32_t kGsMaxInvocations = 32;
inline constexpr uint32_t kGsMaxStreams = 4;

// Input vertices per primitive of a GS input type (1, 2, 4, 3 or 6).
uint32_t gs_input_vertices(Prim input);
// Vertices the smallest primitive of a GS output type needs (1 point, 2 line, 3 triangle).
uint32_t gs_min_strip_vertices(Prim output);

// Checks the declarations (topologies, limits, callable); throws Error(invalid_value) naming
// the field.
void validate_gs(const GeometryShader& gs);
// Throws Error(invalid_value) when the vertex stage (records of `in`) writes fewer varyings
// than gs reads: GL's link error.
void check_gs_link(const GeometryShader& gs, const VertexLayout& in);

// The layout of GS output vertices: header with SLOT_GS_ID / SLOT_GS_LAYER, the position,
// then the shader's declared outputs. Shared by every executor.
VertexLayout gs_output_layout(const GeometryShader& gs);
// Writes one GS output vertex record in `layout` (gs_output_layout of its shader).
void write_gs_vertex(uint32_t* v, const GsOutput& out, uint32_t instance,
                     const VertexLayout& layout);

// An input side over VS-output records in memory, for executors that need no memory model;
// they derive from it and implement the two emit calls.
class GsRecordContext : public GsContext {
  public:
    // Binds the inputs of the next run; the records must outlive it.
    // Binds the inputs of the next run: records of `stride` dwords, which must outlive it.
    void bind(std::span<const uint32_t* const> vertices, uint32_t stride, uint32_t primitive_id,
              uint32_t invocation) {
        vertices_ = vertices;
        stride_ = stride;
        primitive_id_ = primitive_id;
        invocation_ = invocation;
    }
    uint32_t vertex_count() const override { return uint32_t(vertices_.size()); }
    // Past the record (an output the vertex stage does not write) reads 0.
    uint32_t load(uint32_t vertex, uint32_t slot) override {
        return slot < stride_ ? vertices_[vertex][slot] : 0;
    }
    uint32_t primitive_id_in() const override { return primitive_id_; }
    uint32_t invocation_id() const override { return invocation_; }

  private:
    std::span<const uint32_t* const> vertices_;
    uint32_t stride_ = 0;
    uint32_t primitive_id_ = 0;
    uint32_t invocation_ = 0;
};

} // namespace drawpipe
