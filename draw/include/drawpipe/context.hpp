// The draw context: what a driver embeds. It owns the front end, the bound middle end and
// backend, and a oneTBB task arena; draws are queued and flushed through a parallel pipeline
// whose middle-end stage runs segments on every thread while the backend still receives one
// ordered stream, identical to the one-thread draw_serial of drawpipe/extend/serial.hpp.
//
//   Context ctx;                                  // all hardware threads (or DRAWPIPE_THREADS)
//   ctx.set_vertex_buffers(buffers);  ctx.set_vertex_attribs(attribs);
//   ctx.bind_middle_end("fetch_shade");  ctx.bind_backend(my_backend);
//   ctx.draw(info);  ctx.draw(info2);  DrawStats s = ctx.flush();
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/draw_options.hpp"
#include "drawpipe/indirect.hpp"
#include "drawpipe/raster_state.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/stream_output.hpp"
#include "drawpipe/tess.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace drawpipe {

class GeometryShader; // drawpipe/gs.hpp
class MiddleEnd; // bound by name, or made by a middle end's author (drawpipe/extend/middle_end.hpp)
class Stage;     // a driver's own pipeline stage (drawpipe/extend/stage.hpp)

// Flushes with less work than this (indices x instances) run on the calling thread. Measured
// with `pipeline_bench --crossover 15` on the 2-core test machine: one W1 draw of 16K indices
// took as long inline as through the 2-thread pipeline (0.98x), 24K gained 1.25x, 32K 1.33x.
inline constexpr uint64_t kInlineDrawWork = 16384;
// So do queues whose draws average less work than this: per draw, the serial stages (prepare,
// split set-up, begin/end_draw) then outweigh the shading the threads share. Same run, 2000
// queued draws of 24 indices: the pipeline ran at 0.87x the inline speed; of 48 indices, 1.20x.
inline constexpr uint64_t kInlineMeanDrawWork = 32;

// Most threads a context may use; more is an Error, not a crash.
inline constexpr uint32_t kMaxThreads = 1024;

struct ContextOptions {
    uint32_t threads = 0; // 0: $DRAWPIPE_THREADS if set, else every hardware thread
    DrawOptions draw;     // splitting strategy, forced vertex limit, split cache
    uint64_t inline_below = kInlineDrawWork; // 0: always use the pipeline, even on 1 thread
    uint64_t inline_mean_below = kInlineMeanDrawWork;
};

// Not thread-safe itself: one thread at a time drives a context (its pipeline uses the others).
class Context {
  public:
    // Throws Error(invalid_value) when the thread count (options or $DRAWPIPE_THREADS) is not
    // in [1, kMaxThreads].
    explicit Context(const ContextOptions& options = {});
    // Delivers the draws still queued, as flush() would: a draw handed to draw() is drawn.
    // An exception a middle end or the backend throws then cannot leave a destructor and is
    // dropped; call flush() first to see it.
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // Threads the pipeline may use (the calling thread included).
    uint32_t threads() const;

    // Binding state. Every bind_* and set_* flushes the queued draws first, so a queue always
    // shares one state. Buffers are described, not copied: their memory must stay valid
    // until the draws using them are flushed.
    void set_vertex_buffers(std::span<const VertexBuffer> buffers);
    void set_vertex_attribs(std::span<const VertexAttrib> attribs);
    void bind_vertex_shader(VertexShader vs);            // empty: pass attributes through
    void bind_geometry_shader(const GeometryShader* gs); // caller-owned; null: none
    // Tessellation (drawpipe/tess.hpp). With an evaluation shader bound, draws must be of
    // Prim::patches; the control shader is optional. Empty (no run function): none.
    void bind_tess_control(TessControlShader tcs);
    void bind_tess_eval(TessEvalShader tes);
    // GL_PATCH_DEFAULT_OUTER_LEVEL / INNER_LEVEL: the levels of patches without a control
    // shader (GL's initial values are all 1).
    void set_patch_default_levels(const TessLevels& levels);
    // By registered name (MiddleEndRegistry::global(); throws Error(not_found) for an unknown
    // one) or an instance. Middle ends are stateless: one serves every draw in flight.
    void bind_middle_end(std::string_view name);
    void bind_middle_end(std::shared_ptr<const MiddleEnd> middle);
    void bind_backend(Backend& backend); // caller-owned; called from one thread at a time

    // Validates the draw against the bound state and queues it; throws Error (and queues
    // nothing) on bad input. The index buffer must stay valid until the draw is flushed.
    // May flush the queue when it holds enough work to fill the pipeline.
    void draw(const DrawInfo& draw);
    // A multi-draw (glMultiDrawArrays, glMultiDrawElementsBaseVertex): draws[i] is drawn with
    // draw_id i, exactly as the draws issued one by one with those draw ids would be (GL
    // defines it so: primitive ids restart per draw). Errors name the draw ("draw 3: ...").
    // Every draw's own fields (validate_draw: an index buffer too short, a count past 2^32)
    // are checked before any is queued; an error found only when a draw is prepared (a base
    // vertex taking an index out of [0, 2^32), a limit, the middle end) leaves the draws
    // before it queued, as if they had been issued one by one.
    void draw(std::span<const DrawInfo> draws);
    // Indirect draws (drawpipe/indirect.hpp): the records are read now, during the call, and
    // drawn as draw(span) would draw resolve_indirect(draw, indirect), draw ids being the
    // record indices; errors name the record ("indirect record 3: ...").
    void draw_indirect(const DrawInfo& draw, const IndirectDraws& indirect);
    // Delivers every queued draw to the backend, in order, and returns the statistics of all
    // draws delivered since the previous flush() call. An exception thrown by a middle end or
    // the backend propagates here; the queue is then dropped (the backend may have received
    // part of it) and the context stays usable.
    DrawStats flush();

    // Stream output (drawpipe/stream_output.hpp). The state is validated and copied; its
    // buffers stay the driver's and must stay valid until the draws writing them are flushed.
    // Throws Error(invalid_operation) while a session is begun, as GL does.
    void set_stream_output(const StreamOutputState& state);
    void clear_stream_output();
    // The capture session (GL's glBegin/Pause/Resume/EndTransformFeedback). Each call first
    // delivers the queued draws, so it takes effect between draws in draw order. Throws
    // Error(invalid_operation) when no stream output is bound or the call is out of order.
    void begin_stream_output();
    void pause_stream_output();
    void resume_stream_output();
    StreamOutputCounts end_stream_output(); // the session's counts
    // Delivers the queued draws; the session's counts and buffer positions so far.
    StreamOutputCounts stream_output_counts();
    size_t stream_output_written_bytes(uint32_t buffer);
    // glDrawTransformFeedbackStream: draws `draw` (non-indexed, from draw.start) with its
    // count replaced by the vertices `stream` wrote in the last capture session. Delivers
    // the queued draws first, since the count depends on them. Throws Error(invalid_operation)
    // when no stream output is bound or no session has ended, Error(invalid_value) for an
    // indexed draw or a stream past 3.
    void draw_stream_output(const DrawInfo& draw, uint32_t stream = 0);
    // GL_RASTERIZER_DISCARD: with it on, nothing after stream output runs (the backend
    // receives nothing, not even begin_draw). Primitives are still counted and captured.
    void set_rasterizer_discard(bool discard);

    // Clipping, the viewport transform and the pipeline stages (drawpipe/raster_state.hpp):
    // with a raster state bound the backend receives window coordinates. Validated when a
    // draw is queued (Error(invalid_value) naming the field).
    void set_raster_state(const RasterState& state);
    void clear_raster_state();
    // Appends a driver's stage (drawpipe/extend/stage.hpp), run after the built-in ones and before
    // the backend while a raster state is bound; caller-owned, called from one thread.
    void add_stage(Stage& stage);
    void clear_stages();

    const ContextCounters& counters() const;

    // Static index buffers: a draw whose DrawInfo::index_buffer_id comes from
    // register_index_buffer() is split once and later replayed from the split cache
    // (<drawpipe/split_cache.hpp>). Call bump_index_buffer() when the buffer changes: queued draws
    // are delivered first (the driver must not write the buffer before that), then its cached
    // splits are dropped. Throws Error(not_found) for an
    // unknown id.
    uint64_t register_index_buffer();
    void bump_index_buffer(uint64_t buffer_id);
    // The cache in use: the context's own, or ContextOptions::draw.split_cache when given.
    SplitCache& split_cache();

  private:
    StreamOutput& bound_stream_output(const char* what);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The thread count a default Context uses: $DRAWPIPE_THREADS, else every hardware thread.
uint32_t default_thread_count();

} // namespace drawpipe
