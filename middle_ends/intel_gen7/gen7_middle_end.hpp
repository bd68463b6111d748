// The Intel gen7 geometry-shader middle end: every (input primitive, invocation) runs as one
// GS thread that writes its URB entry exactly as the vec4 code does (control-data header of
// cut bits or stream ids, then the vertex slots), and the fixed-function side reads each
// entry back into the output strips. Only stream 0 reaches the backend.
//
// Vertex fetch and shading are the reference's (middle_ends/fetch_shade); without a
// geometry shader the middle end is fetch_shade.
#pragma once

#include "drawpipe/middle_end.hpp"
#include "drawpipe/fetch_shade.hpp"
#include "middle_ends/intel_gen7/gs_compile.hpp"
#include "middle_ends/intel_gen7/urb_entry.hpp"

#include <functional>

namespace drawpipe {

class GeometryShader;

namespace gen7 {

// Per-segment counters, in ShadedBatch::counters order.
enum Gen7Counter : uint32_t {
    kThreads,          // GS threads: input primitives × invocations
    kVertexWrites,     // URB writes of output vertices
    kHeaderWrites,     // URB writes of control-data DWORDs
    kHeaderBytes,      // URB bytes of control-data header reserved, 32 × header hwords a thread
    kUrbBytes,         // URB entry bytes allocated, summed over threads
    kVerticesOut,      // stream-0 vertices handed to the backend
    kGen7CounterCount, //
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
// compile_for uses. run() reports a shader that cuts against its declaration as a
// middle_end_failure.
bool probe_uses_end_primitive(const GeometryShader& gs);

// The gen7 compile-time data for `gs` producing vertices of `layout`'s stride.
GsProgram compile_for(const GeometryShader& gs, const VertexLayout& layout, bool stream_output);

class Gen7MiddleEnd final : public MiddleEnd {
  public:
    // `stream_output`: compile as if transform feedback captured the non-zero streams, so
    // their vertices are written to the URB and told apart by stream-id bits (§5.5);
    // false drops them in the thread, as Haswell's compiler does without stream output.
    explicit Gen7MiddleEnd(uint32_t max_vertices = 4096, bool stream_output = true)
        : max_vertices_(max_vertices), stream_output_(stream_output), reference_(max_vertices) {}

    std::string_view name() const override { return "gen7"; }
    MiddleEndLimits prepare(const DrawState& state) override;
    const VertexLayout& layout() const override;
    std::unique_ptr<Scratch> make_scratch() const override;
    void run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const override;
    std::span<const std::string_view> counter_names() const override;

    // Called after every thread from run(), on run()'s thread; set before the draw.
    void set_thread_observer(ThreadObserver observer) { observer_ = std::move(observer); }
    // The compiled program of the prepared draw (valid after prepare with a GS bound).
    const GsProgram& program() const { return program_; }

  private:
    uint32_t max_vertices_;
    bool stream_output_;
    FetchShade reference_; // the draw without a geometry shader
    DrawState state_;
    VertexLayout in_layout_;
    VertexLayout layout_;
    GsProgram program_;
    ThreadObserver observer_;
};

} // namespace gen7
} // namespace drawpipe
