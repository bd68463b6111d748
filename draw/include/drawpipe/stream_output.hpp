// Stream output (transform feedback), as Gallium's draw module does it in draw_pt_so_emit:
// the outputs of the last vertex stage (vertex or geometry shader) are written into
// driver-owned buffers, primitive by primitive, decomposed into points, lines and triangles
// in the order and vertex order OpenGL writes them (docs/gl-order.md).
//
// The stage runs where batches reach the backend, in draw order (the pipeline's serial
// in-order sink, or draw_serial), so the bytes and counts are the same for every thread
// count, splitting strategy, limit and middle end. A primitive is written whole or not at
// all: when it does not fit in every buffer its stream writes to, nothing of it is written
// and the written count stops growing, while the generated count goes on.
//
//   StreamOutputState so;                           // what is captured, and where
//   so.outputs = {{CaptureSource::position, 0, 0, 4, /*buffer*/ 0, /*dword*/ 0}};
//   so.buffers[0] = {memory, 0, bytes, 16};         // data, offset, size, stride
//   ctx.set_stream_output(so);
//   ctx.begin_stream_output();  ctx.draw(a);  ctx.draw(b);  // b appends after a
//   StreamOutputCounts n = ctx.end_stream_output();
#pragma once

#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe {

struct VertexView; // drawpipe/backend.hpp

// GL_MAX_TRANSFORM_FEEDBACK_BUFFERS: buffers one capture may write.
inline constexpr uint32_t kMaxStreamOutputBuffers = 4;
// GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS: dwords all interleaved outputs may take.
inline constexpr uint32_t kMaxInterleavedComponents = 64;
// GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS: dwords one separate output may take.
inline constexpr uint32_t kMaxSeparateComponents = 4;
// GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS: outputs a separate capture may take.
inline constexpr uint32_t kMaxSeparateOutputs = 4;

// Which output of the last vertex stage a captured output reads.
enum class CaptureSource : uint8_t {
    position,       // 4 components
    varying,        // generic output `index`, its declared components
    point_size,     // 1, when the stage declares it
    clip_distance,  // the stage's clip distances, one component each
    layer,          // 1, when the stage declares it
    viewport_index, // 1, when the stage declares it
    vertex_id,      // 1, vertex stage only (the record header's vertex id)
    instance_id,    // 1, vertex stage only (the record header's instance id)
    gs_id,          // 1, geometry shader only (GsOutput::id)
    draw_id,        // 1, vertex stage only: gl_DrawID (DrawInfo::draw_id)
    tess_coord,     // 2, tessellation evaluation stage only: gl_TessCoord's u and v
};

// One captured output: components [first_component, first_component + components) of the
// source, written at dword `offset` of each vertex in `buffer`, for vertices of `stream`.
struct CapturedOutput {
    CaptureSource source = CaptureSource::position;
    uint32_t index = 0; // the varying, for CaptureSource::varying
    uint32_t first_component = 0;
    uint32_t components = 4;
    uint32_t buffer = 0;
    uint32_t offset = 0; // dwords from the start of the vertex in the buffer
    uint32_t stream = 0; // the geometry shader's vertex stream (0 without one)
};

// GL's two buffer modes: interleaved (every output in one vertex record; several buffers
// only as gl_NextBuffer / several streams make them) or separate (one output per buffer).
enum class CaptureMode : uint8_t { interleaved, separate };

// A driver-owned range: bytes [offset, offset + size) of `data`, one vertex every `stride`.
struct StreamOutputBuffer {
    void* data = nullptr;
    size_t offset = 0; // where a capture session starts writing
    size_t size = 0;   // bytes that may be written from `offset`
    uint32_t stride = 0;
};

struct StreamOutputState {
    CaptureMode mode = CaptureMode::interleaved;
    std::vector<CapturedOutput> outputs;
    // Buffer b is written only when some output names it; the others may stay empty.
    std::array<StreamOutputBuffer, kMaxStreamOutputBuffers> buffers{};
};

// Throws Error(invalid_value) naming the field when the declaration breaks one of GL's rules.
void validate_stream_output(const StreamOutputState& state);

// The declaration resolved against the layout of the vertices one draw captures: for each
// stream, which record dwords go where, and which buffers it writes.
struct StreamOutputPlan {
    struct Copy {
        uint32_t buffer;
        uint32_t src;   // first dword in the vertex record
        uint32_t dst;   // first dword in the buffer's vertex
        uint32_t count; // dwords
    };
    std::array<std::vector<Copy>, kMaxVertexStreams> copies;
    std::array<uint32_t, kMaxVertexStreams> buffer_mask{}; // bit b: the stream writes buffer b
};

// Resolves `state` for vertices of `layout` from a stage with `streams` vertex streams.
// Throws Error(invalid_value) naming the output the stage does not write.
StreamOutputPlan plan_stream_output(const StreamOutputState& state, const VertexLayout& layout,
                                    uint32_t streams);

// GL_PRIMITIVES_GENERATED for `count` elements of `prim` forming one restart-free run.
// While stream output writes them, primitives count as it writes them: decomposed points,
// lines and triangles (a quad is two triangles). Otherwise they count as drawn: a quad, a
// quad-strip quad or a polygon is one primitive (what Mesa's llvmpipe reports, paused or
// with nothing to write into, as well as without transform feedback).
uint64_t decomposed_prim_count(Prim prim, uint32_t count);
// `flags`: the range's SplitFlags (a split polygon counts once).
uint64_t drawn_prim_count(Prim prim, uint32_t count, uint8_t flags = 0);

// A segment's place in a capture, taken in draw order (StreamOutput::reserve): where its first
// primitive goes in each buffer, and how many of its primitives are counted and written.
struct StreamOutputReservation {
    std::array<size_t, kMaxStreamOutputBuffers> position{}; // bytes past each bound offset
    uint64_t generated = 0;
    uint64_t written = 0; // a prefix of the segment's decomposed primitives
};

// The bound declaration and buffers, and one capture session's position and counts.
class StreamOutput {
  public:
    // Validates `state` (validate_stream_output).
    explicit StreamOutput(const StreamOutputState& state);

    const StreamOutputState& state() const { return state_; }

    // A session: begin() writes from the bound offsets and clears the counts; each draw
    // appends where the last one stopped; pause() and resume() keep the positions; end()
    // closes it. Calls out of that order throw Error(invalid_operation), as GL's do.
    void begin();
    // begin() over buffers that already hold `written[b]` bytes of an earlier capture, each at
    // most its size: for a driver whose targets keep their fill from draw to draw (Gallium's
    // stream-output targets), so that drawpipe appends where the target says.
    void begin_at(const std::array<size_t, kMaxStreamOutputBuffers>& written);
    void pause();
    void resume();
    void end();
    bool begun() const { return begun_; }
    bool paused() const { return paused_; }
    // Captures are written only while the session is begun and not paused.
    bool active() const { return begun_ && !paused_; }
    // Whether primitives of `stream` are being captured: the session is active and the
    // stream writes at least one buffer with room in its range.
    bool capturing(const StreamOutputPlan& plan, uint32_t stream) const;

    // Primitives generated and written per stream since begin(), while active.
    const StreamOutputCounts& counts() const { return counts_; }
    // Bytes written into buffer b since begin() (its position past the bound offset).
    size_t written_bytes(uint32_t buffer) const { return position_[buffer]; }
    // Vertices of the primitives `stream` wrote since begin(): what glDrawTransformFeedback
    // draws. Kept after end(), until the next begin().
    uint64_t written_vertices(uint32_t stream) const { return vertices_[stream]; }
    // A session has ended since this stream output was bound (GL: drawing what was
    // captured needs one).
    bool ended_once() const { return ended_once_; }

    // The sink's call, in draw order: decomposes `elts` (one run of `prim` over `vertices`)
    // and writes every primitive that fits, adding to `draw` and, while active, the session.
    void write(const StreamOutputPlan& plan, uint32_t stream, Prim prim, uint8_t flags,
               Provoking pv, const VertexView& vertices, std::span<const uint32_t> elts,
               StreamOutputCounts& draw);

    // write() in two halves, for a driver that shades a draw's segments on many threads:
    // reserve() takes the place of `count` elements of `prim` in draw order (one thread, the
    // segments in order), counting them as write() would; write_reserved() then writes those
    // elements' primitives there, from any thread, at the same time as other segments'
    // write_reserved() and reserve(). Every primitive of one type decomposes to the same
    // number of vertices, so a segment's place follows from the counts before it, and the
    // bytes and counts are write()'s for the same segments.
    StreamOutputReservation reserve(const StreamOutputPlan& plan, uint32_t stream, Prim prim,
                                    uint8_t flags, uint32_t count, StreamOutputCounts& draw);
    // `elts`: the `count` elements reserve() was given.
    void write_reserved(const StreamOutputPlan& plan, uint32_t stream,
                        const StreamOutputReservation& at, Prim prim, Provoking pv,
                        const VertexView& vertices, std::span<const uint32_t> elts) const;

  private:
    // One decomposed primitive's `n` vertices `e` into every buffer of `mask` at `position`,
    // which it moves past them.
    void write_primitive(const std::vector<StreamOutputPlan::Copy>& copies, uint32_t mask,
                         const VertexView& vertices, const uint32_t* e, uint32_t n,
                         std::array<size_t, kMaxStreamOutputBuffers>& position) const;

    StreamOutputState state_;
    bool begun_ = false, paused_ = false, ended_once_ = false;
    std::array<uint64_t, kMaxVertexStreams> vertices_{};
    std::array<size_t, kMaxStreamOutputBuffers> position_{};
    StreamOutputCounts counts_;
};

} // namespace drawpipe
