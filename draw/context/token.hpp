// What flows through the pipeline (draw/context/pipeline.hpp): tokens of items, packed by
// the source, shaded on any thread and consumed by the sink, each filter switching on an
// item's kind.
#pragma once

#include "draw/base/tsan_order.hpp"
#include "draw/context/pipeline.hpp"
#include "draw/context/prepared_draw.hpp"
#include "draw/front_end/chunks.hpp"
#include "draw/shade/draw_batch.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/stats.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace drawpipe::detail {

// One segment of a chunk or of a small draw, shaded into its own batch, kept until the sink
// has consumed it.
struct Piece {
    SegmentStorage storage;
    Segment seg;
    DrawBatch batch;
};

// What an item stands for; the source chooses, the shade and sink filters switch on it.
enum class ItemKind : uint8_t {
    segment, // one segment the source split: shaded into the item's batch
    chunk,   // one chunk of a large draw: split (begin_chunk) and shaded into pieces, so that
             // the front end of a large draw runs on every thread
    whole,   // a small draw whole: split and shaded into pieces, then ended, so that a queue of
             // small draws is not split one by one in the source
    end,     // the end of a draw: the sink calls end_draw
};

struct Item {
    const PreparedDraw* draw = nullptr;
    ItemKind kind = ItemKind::end;
    bool begins = false; // the draw's first item: the sink calls begin_draw before it
    // A segment's lists and batch.
    SegmentStorage storage;
    Segment seg;
    DrawBatch batch;
    // A chunk's description, O(1) for the source to hand out.
    uint32_t pass = 0, chunk = 0;
    const RestartChunks* restarts = nullptr; // the draw's, when it has primitive restart
    // A chunk's or a whole draw's pieces, and its front-end totals, summed by the sink.
    uint32_t piece_count = 0;
    std::vector<Piece> pieces;
    FrontEndStats front;
    // A chunk whose batches went to a parallel backend as they were shaded (its pieces are
    // not kept): their counters and primitive counts, summed by the sink.
    std::array<uint64_t, kMaxCounters> counters{};
    StreamOutputCounts primitives;
    int64_t clip_delta = 0;
};

struct Token {
    OrderEdge edge;
    uint32_t count = 0;
    std::vector<Item> items{kMaxItemsPerToken};
};

} // namespace drawpipe::detail
