// The engine behind Context: queued draws flow through a tbb::parallel_pipeline of three
// filters.
//
//   source  serial in order: the front end cuts small draws into segments and packs them into
//           tokens (TokenSource); a draw of several chunks (draw/front_end/chunks.hpp) is
//           handed out one chunk description per token, O(1) each, after its restart scan
//           (find_restart_chunks)
//   shade   parallel:        a chunk's token is split here by the thread's own FrontEnd, each
//           segment into its own batch; the middle end fetches and shades each segment
//   sink    serial in order: stream output captures the batches, then the backend receives
//           them, begin_draw/end_draw per draw (draw/context/draw_sink.hpp)
//
// A token carries one segment, or several segments of small draws (so tiny draws and small
// instances do not each pay for a pipeline step). Tokens live in a ring as large as the
// number in flight, so memory is bounded for any draw. Draws arrive prepared (validated,
// their middle end prepared), so any number may be in flight at once; scratch is per thread.
#pragma once

#include "draw/context/prepared_draw.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/stats.hpp"

#include <memory>
#include <span>

namespace drawpipe::detail {

// Tokens in flight per thread: enough that a thread finishing a segment finds another ready
// while the serial stages catch up (2 was measurably slower on W1, more gained nothing).
inline constexpr uint32_t kTokensPerThread = 4;
// A token stops gathering segments of small draws at this much work (fetched vertices plus
// draw elements, times instances): about 20 us of shading, far above a pipeline step's cost.
inline constexpr uint32_t kTokenWork = 4096;
// Most draws that may begin in one token. 8192 small draws (96 indices, whole) on the
// pipeline with 16 threads: 2.7x with 16, 1.25x with 64 (64 tokens held a whole
// queue of 4096, so the sink never ran beside the shading); 64 was 5-10 % better at 2-8.
inline constexpr uint32_t kMaxDrawsPerToken = 16;
// Most segments plus end-of-draw marks in one token.
inline constexpr uint32_t kMaxItemsPerToken = 64;
// Segment lists and shaded batches the token ring keeps warm between flushes. Each of its
// items keeps its high-water storage, so a long stream of mixed draws would creep towards
// tokens x kMaxItemsPerToken x the largest segment; past this, the items after each token's
// first (which only small draws use) give theirs back.
inline constexpr size_t kRetainedItemBytes = size_t(16) << 20;
// The context's queue flushes itself at this many draws or this much work (indices x
// instances): enough to keep every thread busy for many tokens, with a small queue.
inline constexpr size_t kMaxQueuedDraws = 4096;
inline constexpr uint64_t kFlushWork = uint64_t(1) << 20;

class DrawPipeline {
  public:
    explicit DrawPipeline(uint32_t threads);
    ~DrawPipeline();

    uint32_t threads() const;
    // The middle end whose prepared draws run next: its scratch is made per thread on first
    // use and kept until another middle end is bound.
    void bind(std::shared_ptr<const MiddleEnd> middle);

    // Delivers `draws` in order to `backend`: through the pipeline when `parallel`, else on
    // the calling thread. Returns the draws' summed statistics; rethrows (after the pipeline
    // is cancelled) what a middle end or the backend threw.
    DrawStats run(std::span<const PreparedDraw> draws, Backend& backend,
                  const OutputOptions& output, bool parallel, ContextCounters& counters);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drawpipe::detail
