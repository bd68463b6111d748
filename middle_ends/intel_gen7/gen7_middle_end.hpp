// The Intel gen7 geometry-shader middle end: every (input primitive, invocation) runs as one
// GS thread that writes its URB entry exactly as the vec4 code does (control-data header of
// cut bits or stream ids, then the vertex slots), and the fixed-function side reads each
// entry back into the output strips, each with the vertex stream its stream-id bits name
// (PrimRange::stream): stream output captures every stream, the backend receives stream 0.
//
// Vertex fetch and shading are the reference's (drawpipe/extend/shading.hpp); without a geometry
// shader the middle end draws as fetch_shade does.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "middle_ends/intel_gen7/gs_compile.hpp"
#include "middle_ends/intel_gen7/urb_entry.hpp"

#include <functional>

namespace drawpipe {

class GeometryShader;

namespace gen7 {

// The counters shade() adds into ShadedBatch::counters, by index; counters() names them.
enum Gen7Counter : uint32_t {
    COUNTER_THREADS,       // GS threads: input primitives × invocations
    COUNTER_VERTEX_WRITES, // URB writes of output vertices
    COUNTER_HEADER_WRITES, // URB writes of control-data DWORDs
    COUNTER_HEADER_BYTES, // URB bytes of control-data header reserved, 32 × header hwords a thread
    COUNTER_URB_BYTES,    // URB entry bytes allocated, summed over threads
    COUNTER_VERTICES_OUT, // stream-0 vertices handed to the backend
    COUNTER_COUNT,        // how many there are (not a counter)
};

// What one finished thread left behind, for tools that show the header (gen7-header).
struct ThreadReport {
    uint32_t instance = 0;
    uint32_t primitive_id = 0;
    uint32_t invocation = 0;
    const GsProgram* program = nullptr;
    const UrbEntry* entry = nullptr;
};
using ThreadObserver = std::function<void(const ThreadReport&)>;

// Whether `gs` calls end_primitive() on synthetic input primitives (ids 0-7, every
// invocation): a cross-check of the shader's declared uses_end_primitive, which is what
// compile_for uses. shade() reports a shader that cuts against its declaration as a
// middle_end_failure.
bool probe_uses_end_primitive(const GeometryShader& gs);

// The gen7 compile-time data for `gs` producing vertices of `layout`'s stride.
GsProgram compile_for(const GeometryShader& gs, const VertexLayout& layout, bool stream_output);

class Gen7MiddleEnd final : public MiddleEnd {
  public:
    // `stream_output`: compile as if transform feedback captured the non-zero streams, so
    // their vertices are written to the URB and told apart by stream-id bits (README.md, "Stream
    // ids"); false drops them in the thread, as Haswell's compiler does without stream output.
    // `observer`, when set, is called after every GS thread with what it left behind, from
    // the thread shading the segment: in draw order under draw_serial, concurrently (so it
    // must then be thread-safe) when a context shades segments on several threads.
    explicit Gen7MiddleEnd(uint32_t max_vertices = 4096, bool stream_output = true,
                           ThreadObserver observer = {})
        : max_vertices_(max_vertices), stream_output_(stream_output),
          observer_(std::move(observer)) {}

    std::string_view name() const override { return "gen7"; }
    // Validates the GS and compiles it (compile_for); a draw with a GS prepares into a
    // Gen7GsDraw. Without a GS the draw is the reference's fetch and shade.
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override;
    std::unique_ptr<MiddleEndScratch> make_scratch() const override;
    // Gen7Counter order; a draw without a GS writes none.
    std::span<const std::string_view> counters() const override;

  private:
    uint32_t max_vertices_;
    bool stream_output_;
    ThreadObserver observer_;
};

// A draw with a geometry shader, prepared: its compiled program, and one GS thread per
// (input primitive, invocation) of each segment.
class Gen7GsDraw final : public MiddleEndDraw {
  public:
    Gen7GsDraw(const DrawState& state, GsProgram program, uint32_t max_vertices,
               ThreadObserver observer);
    void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override;
    const GsProgram& program() const { return program_; }

  private:
    DrawState state_;
    VertexLayout in_layout_;
    GsProgram program_;
    ThreadObserver observer_;
};

} // namespace gen7
} // namespace drawpipe
