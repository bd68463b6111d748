// The GL reference geometry-shader executor, and the strip writer every executor shares.
//
// GL semantics (docs/gl-order.md, "With a geometry shader"): emit appends to the
// current strip of its stream, end_primitive closes it, a strip too short for one primitive
// is dropped, vertices past max_vertices (counted over all streams of one invocation) are
// dropped, invocations of one input primitive run in order, and only stream 0 is drawn.
#pragma once

#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/gs.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe {

// Appends GS output strips to a batch as PrimRanges of the shader's output type, flags 0,
// over vertices in gs_output_layout(). Not thread-safe; one per batch being written.
class GsStripWriter {
  public:
    // all_streams: keep the strips of every vertex stream (PrimRange::stream) for stream
    // output, not only stream 0's. Only a shader with several streams has others.
    GsStripWriter(const GeometryShader& gs, ShadedBatch& out, bool all_streams = false);
    // Appends a vertex to the strip in progress.
    void vertex(const GsOutput& o, uint32_t instance) { vertex(0, o, instance); }
    // Ends the strip in progress; one shorter than the output primitive's minimum leaves
    // nothing in the batch. Cutting with no strip in progress does nothing.
    void cut() { cut(0); }
    // The same on one vertex stream; a stream this writer does not keep is ignored.
    void vertex(uint32_t stream, const GsOutput& o, uint32_t instance);
    void cut(uint32_t stream);
    // Ends the strip in progress of every stream (an invocation's end).
    void cut_all();
    // Whether strips of streams past 0 are kept.
    bool all_streams() const { return multi_; }
    uint64_t strips() const { return strips_; }

  private:
    // Several streams: each stream's strip waits aside until it ends, so every strip's
    // vertices stay contiguous in the batch however the streams' emits interleave.
    bool multi_;
    std::array<std::vector<uint32_t>, kMaxVertexStreams> pending_;
    ShadedBatch& out_;
    Prim prim_;
    uint32_t min_;
    VertexLayout layout_;
    uint32_t stride_;
    uint32_t strip_first_; // first vertex of the strip in progress
    uint64_t strips_ = 0;
};

struct GsStats {
    uint64_t invocations = 0;
    uint64_t emitted = 0; // vertices emitted on any stream within max_vertices
    uint64_t dropped = 0; // emits past max_vertices
};

// Runs `gs` over one input primitive (`inputs`: vertex-stage records of `stride` dwords in
// GL's GS vertex order, gs_input_vertices(gs.input) of them) for every invocation in order,
// appending the stream-0 strips to `writer` (every stream's when writer.all_streams()). The
// instance id is read from the records.
void execute_gs_reference(const GeometryShader& gs, std::span<const uint32_t* const> inputs,
                          uint32_t stride, uint32_t primitive_id, GsStripWriter& writer,
                          GsStats& stats);

} // namespace drawpipe
