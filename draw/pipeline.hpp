// The engine behind Context: queued draws flow through a tbb::parallel_pipeline of three
// filters.
//
//   source  serial in order: the front end cuts draws into segments and packs them into tokens
//   shade   parallel:        the middle end fetches and shades each token's segments
//   sink    serial in order: the backend receives the batches, begin_draw/end_draw per draw
//
// A token carries one segment, or several segments of small draws (so tiny draws and small
// instances do not each pay for a pipeline step). Tokens live in a ring as large as the
// number in flight, so memory is bounded for any draw. Every draw in flight has a middle
// end of its own (prepared for it), made by the bound factory; scratch is per thread.
#pragma once

#include "backends/backend.hpp"
#include "draw/context.hpp"

#include <memory>
#include <span>

namespace drawpipe::detail {

// Tokens in flight per thread: enough that a thread finishing a segment finds another ready
// while the serial stages catch up (2 was measurably slower on W1, more gained nothing).
inline constexpr uint32_t kTokensPerThread = 4;
// A token stops gathering segments of small draws at this much work (fetched vertices plus
// draw elements, times instances): about 20 us of shading, far above a pipeline step's cost.
inline constexpr uint32_t kTokenWork = 4096;
// Most draws that may begin in one token; draws in flight (hence middle-end instances made
// by a factory) are bounded by tokens in flight times this.
inline constexpr uint32_t kMaxDrawsPerToken = 16;
// Most segments plus end-of-draw marks in one token.
inline constexpr uint32_t kMaxItemsPerToken = 64;
// The context's queue flushes itself at this many draws or this much work (indices x
// instances): enough to keep every thread busy for many tokens, with a small queue.
inline constexpr size_t kMaxQueuedDraws = 4096;
inline constexpr uint64_t kFlushWork = uint64_t(1) << 20;

struct PipelineBinding {
    VertexInput input;
    const VertexShader* vs = nullptr;
    const GeometryShader* gs = nullptr;
    Backend* backend = nullptr;
    RunOptions run;
};

class DrawPipeline {
  public:
    explicit DrawPipeline(uint32_t threads);
    ~DrawPipeline();

    uint32_t threads() const;
    // Binds middle ends made by `factory` (one per draw in flight) or the single `middle`
    // (then draws cannot overlap: the pipeline drains between them).
    void bind(MiddleEndFactory factory);
    void bind(std::unique_ptr<MiddleEnd> middle);
    bool bound() const;

    // Checks `draw` once, when it is queued, on the calling thread: validate_draw, the
    // middle end's prepare, check_split and check_indices (draw/validate.hpp); the source
    // checks nothing again. Throws Error. Not concurrent with run().
    void validate(const DrawInfo& draw, const PipelineBinding& binding);
    // Delivers `draws` in order to binding.backend: through the pipeline when `parallel`,
    // else on the calling thread. Returns the draws' summed statistics; rethrows (after the
    // pipeline is cancelled) what a middle end or the backend threw.
    DrawStats run(std::span<const DrawInfo> draws, const PipelineBinding& binding, bool parallel,
                  ContextCounters& counters);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drawpipe::detail
