// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a dedup table that turns indices into fetch elements (vertex
// ids to fetch once per segment) and draw elements (u16 positions into the fetched set);
// the strategy chooses how.
#pragma once

#include "drawpipe/middle_end.hpp"
#include "drawpipe/segment.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"
#include "drawpipe/types.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

// Index positions per chunk of a draw, at most (see kChunkPositions below).
inline constexpr uint32_t kChunkPositions = uint32_t(1) << 19;
// Segments' worth of positions per chunk. 8 is the default strategy's lookup bypass period
// (one segment that looks up, 7 that need not), so chunking keeps its ratio exactly, and
// gives W1 and W3 at limit 4096 ~190 chunks, W7 64: enough for 16 threads to share evenly
// (16 per chunk left 16 threads idle at the end of W7's 32 chunks).
inline constexpr uint32_t kSegmentsPerChunk = 8;
// The chunk size a draw gets: kSegmentsPerChunk segments' worth of the middle end's vertex
// limit, at least 4092 positions per segment (limits below that still cut chunks of about
// 2^15) and at most kChunkPositions. It depends on the limits only, never on the thread count.
// The per-segment share is rounded down to a multiple of 12 (every list's vertices per
// primitive divides it), so that a chunk of a list without reuse is whole segments and no
// short extra one (W3 at limit 4096: 8 x 4095 indices fit 32736 positions, not 32768).
inline uint32_t default_chunk_positions(const MiddleEndLimits& limits) {
    uint32_t per =
        std::clamp<uint32_t>(limits.max_vertices, 4096,
                             std::min(kMaxSegmentVertices, kChunkPositions / kSegmentsPerChunk));
    per -= per % 12;
    return per * kSegmentsPerChunk;
}

struct FrontEndOptions {
    MiddleEndLimits limits;
    Strategy strategy;
    // The chunk size; 0: default_chunk_positions(limits). Tests cut small draws into many.
    uint32_t chunk_positions = 0;
};

// The chunk size a draw with `options` is cut with.
inline uint32_t chunk_size(const FrontEndOptions& options) {
    return options.chunk_positions != 0 ? options.chunk_positions
                                        : default_chunk_positions(options.limits);
}

// A draw is cut into chunks of kChunkPositions index positions (the last one shorter), each
// split on its own so that any thread can split any chunk. A primitive belongs to the chunk
// that holds its first position (triangle strips: rounded to an even primitive, for parity).
// The size is fixed, not a function of the thread count, so every path splits a draw alike.
// It is kSegmentsPerChunk segments at the draw's limit (default_chunk_positions), never fewer
// than 8: the default strategy's lookup bypass (7 segments after one that found no reuse)
// then runs as unchunked (with one segment per chunk, at 65536 positions and limit 65536, W3
// looked up every segment: +50 %), a chunk cut adds at most one short segment per 8, and a
// draw that fits one segment is one chunk.

// Where the restart runs of a draw with primitive restart cross its chunks, found once per
// draw (find_restart_chunks) so that a chunk is split without reading the indices before it.
struct RestartChunks {
    std::vector<uint32_t> run_begin;    // first position of the run open at the chunk's start
    std::vector<uint32_t> prim_base;    // GL primitives of the runs before that one
    std::vector<uint32_t> next_restart; // first restart at or after the chunk's start, or end
    // Per chunk, filled by the parallel scan: first and last restart, GL primitives between.
    std::vector<uint32_t> first, last, inner;
};

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Prepares to split the draw, which must have passed validate_draw, check_split and
    // check_indices (draw/internal/validate.hpp): nothing is checked here. The draw's index buffer
    // must stay valid while its segments are in use: a segment's fetch list may be the u32
    // buffer's own indices. Allocates nothing once a draw of the same shape has been split
    // (the reorder strategy excepted: it reorders a copy).
    void begin(const DrawInfo& draw, const FrontEndOptions& options);
    // Prepares to split only chunk `chunk` of instance pass `pass` of a draw of more than one
    // chunk (chunk_count), exactly as begin() splits it there. `restarts` is the draw's
    // find_restart_chunks when it has primitive restart, else unused (may be null). With
    // restart and no table, this front end must have split chunk `chunk - 1` of the same
    // pass to its end just before: it carries the run open across the cut, as begin() does.
    void begin_chunk(const DrawInfo& draw, const FrontEndOptions& options,
                     const RestartChunks* restarts, uint32_t pass, uint32_t chunk);
    // Chunks per instance pass: 1 for a draw that fits one chunk, for strategies that are
    // sequential over the whole draw (reorder reorders the whole buffer; vsplit reproduces
    // Mesa's segments exactly, which chunk boundaries would move), and for non-indexed lists
    // and strips (their segments are O(1) each in closed form).
    static uint32_t chunk_count(const DrawInfo& draw, const FrontEndOptions& options);
    // Instance passes of a draw of more than one chunk (never one segment: InstanceOrder).
    static uint32_t chunk_passes(const DrawInfo& draw, const FrontEndOptions& options);
    // Fills `out` for a draw of `chunks` chunks with primitive restart: each chunk's restarts
    // scanned independently (with tbb::parallel_for when `parallel`, from inside the caller's
    // arena), then an O(chunks) prefix. The result does not depend on `parallel`.
    static void find_restart_chunks(const DrawInfo& draw, const FrontEndOptions& options,
                                    uint32_t chunks, RestartChunks& out, bool parallel);
    // Writes the next segment, in draw order, with its lists in `storage` (grown as needed
    // on first use only). Returns false when the draw is done. Pass the same `seg` unchanged
    // from call to call, or another object: a run's closed-form segments rewrite only the
    // fields that change when `seg` is the object the previous call wrote.
    bool next(SegmentStorage& storage, Segment& seg) {
        if (closed_.active) [[likely]] {
            closed_.next(seg);
            return true;
        }
        return next_split(storage, seg);
    }
    // Hands every segment left in the draw, in order, to `consume(const Segment&)`, written
    // into `seg`: next() in a loop, except that a run's closed-form segments are written from
    // registers, as Mesa's vsplit calls its middle end, instead of from state kept in memory.
    template <class Consume> void drain(SegmentStorage& storage, Segment& seg, Consume&& consume) {
        for (;;) {
            if (closed_.active) {
                closed_.drain(seg, consume);
                continue;
            }
            if (!next_split(storage, seg)) return;
            consume(static_cast<const Segment&>(seg));
        }
    }
    // Totals since begin(), complete once the draw is done (a run's closed-form segments are
    // counted when the run's first segment is written).
    const FrontEndStats& stats() const { return stats_; }

  private:
    // The segments of a non-indexed list or strip after a run's first, in closed form:
    // segment k of the run starts at begin + k * step primitives' worth of vertices and holds
    // `cut` primitives, the last one what is left. Written inline, so each costs a few ns.
    struct ClosedForm {
        bool active = false;  // next() writes the segment from here
        bool pending = false; // k and sequence are ahead of the Impl's
        // The draw's, set by begin():
        Prim prim = Prim::points;
        uint32_t pmax = 0;            // a run's last segment when at most this many are left
        uint32_t cut = 0;             // pmax, made even for strip parity
        uint32_t step = 0, extra = 0; // fetch_count = primitives * step + extra
        // The open run's, set when its first segment is out:
        uint32_t k = 0, prims = 0;         // next primitive of the run, where the chunk's part ends
        uint8_t last_flags = SPLIT_BEFORE; // of the last segment: SPLIT_AFTER when the run goes on
        uint32_t begin = 0, prim_id_base = 0, instance_first = 0, instance_count = 1;
        uint64_t sequence = 0;
        const Segment* written = nullptr; // holds every field but those that move along a run

        // Segments the rest of a run takes from primitive k on, with their vertices.
        void count_rest(FrontEndStats& stats) const {
            const uint32_t left = prims - k;
            const uint64_t n = left <= pmax ? 1 : (left - pmax + cut - 1) / cut + 1;
            const uint64_t vertices = uint64_t(left) * step + n * extra;
            stats.segments += n;
            stats.indices += vertices;
            stats.fetched += vertices;
            stats.shaded += vertices * instance_count;
        }

        void write_fixed(Segment& seg) {
            seg.prim = prim;
            seg.instance_first = instance_first;
            seg.instance_count = instance_count;
            seg.fetch_elts = {};
            seg.draw_elts = {};
            seg.fetch_bias = 0;
            written = &seg;
        }

        // The fields that move along a run, for its primitives [k0, k1).
        void write_moving(Segment& seg, uint32_t k0, uint32_t k1, uint8_t flags,
                          uint64_t seq) const {
            const uint32_t count = (k1 - k0) * step + extra;
            seg.flags = flags;
            seg.prim_id_first = prim_id_base + k0;
            seg.fetch_start = begin + k0 * step;
            seg.fetch_count = count;
            seg.draw_count = count;
            seg.sequence = seq;
        }

        void next(Segment& seg) {
            const uint32_t k0 = k;
            uint32_t k1 = k0 + cut;
            uint8_t flags = SPLIT_BEFORE | SPLIT_AFTER;
            if (prims - k0 <= pmax) {
                k1 = prims;
                flags = last_flags;
                active = false;
            }
            if (&seg != written) [[unlikely]]
                write_fixed(seg);
            write_moving(seg, k0, k1, flags, sequence++);
            k = k1;
        }

        // The rest of the run, with the loop's state in locals that live across `consume`.
        template <class Consume> void drain(Segment& seg, Consume& consume) {
            write_fixed(seg);
            const ClosedForm form = *this;
            uint32_t k0 = k;
            uint64_t seq = sequence;
            for (; prims - k0 > pmax; k0 += cut) {
                form.write_moving(seg, k0, k0 + cut, SPLIT_BEFORE | SPLIT_AFTER, seq++);
                consume(static_cast<const Segment&>(seg));
            }
            k = prims;
            sequence = seq + 1;
            active = false;
            form.write_moving(seg, k0, prims, last_flags, seq);
            consume(static_cast<const Segment&>(seg));
        }
    };

    bool next_split(SegmentStorage& storage, Segment& seg);
    void setup(const DrawInfo& draw, const FrontEndOptions& options);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    ClosedForm closed_;
    FrontEndStats stats_;
};

} // namespace drawpipe
