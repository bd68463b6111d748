// What the front end's splitting kernels share: how a restart run steps primitive by
// primitive, the per-draw constants they read, their interface, and the kernels' factories.
//
//   split_linear.hpp  non-indexed draws: closed-form pieces
//   split_range.cpp   indexed draws that fit one segment: the index range, fetched linearly
//   split_dedup.hpp   other indexed draws (and GS input assembly): a dedup table per segment
//                     (dedup_table.hpp), triangle lists through timed loops (triangle_loops.hpp)
#pragma once

#include "drawpipe/extend/segment.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"
#include "drawpipe/types.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace drawpipe {
struct FrontEndOptions; // front_end.hpp
} // namespace drawpipe

namespace drawpipe::detail {

struct DedupArena;        // dedup_table.hpp
struct TriangleLoopArena; // triangle_loops.hpp

// How a run advances primitive by primitive.
enum class Shape : uint8_t {
    list,      // primitive k owns positions [k*first, (k+1)*first)
    strip,     // primitive k is [k*incr, k*incr + first): pieces overlap by first - incr
    fan,       // primitive k is {0, k+1, k+2}: later pieces repeat the centre
    loop,      // a line strip of n-1 lines, closed at the real end
    assembled, // geometry-shader input primitives, each listed in full
};

inline Shape shape_of(Prim prim, bool assembled) {
    if (assembled) return Shape::assembled;
    if (prim == Prim::line_loop) return Shape::loop;
    if (has_centre(prim)) return Shape::fan;
    return is_list(prim) ? Shape::list : Shape::strip;
}

// One restart-free run: `begin` is the absolute position of its first index (or vertex).
struct Run {
    uint32_t begin = 0;
    uint32_t count = 0; // trimmed to whole primitives
    uint32_t prims = 0; // primitives the splitter steps over (a loop's lines, GS inputs...)
    uint32_t gl_prims = 0;
    // Primitives end here at the latest: `prims`, or where the draw's chunk being split ends
    // (a segment never crosses a chunk; flags, strip parity and a loop's closing line still
    // look at `prims`, the run's real end).
    uint32_t stop = 0;
};

// Per-draw constants the splitters read.
struct SplitParams {
    Prim prim;     // the draw's primitive
    Prim out_prim; // what segments carry (the GS input list type when assembling)
    Shape shape;
    PrimShape ps; // of out_prim's stepping (draw prim, or the GS list type)
    Provoking pv;
    uint32_t patch_vertices; // the draw's, for Prim::patches (1 for every other type)
    uint32_t fetch_limit;    // most distinct vertices per segment
    uint32_t index_cap;      // most draw elements per segment
    uint32_t base_vertex;    // two's complement, added with wrap (checked not to overflow)
    bool adaptive;           // skip lookups while they find (almost) no reuse: the default strategy
};

// Most draw elements per segment with strategy `s` at a fetch limit of `limit` vertices:
// vsplit's 1,024, `none`'s one per vertex, else up to 8 per vertex (reuse); never below one
// primitive of `out_prim`.
inline uint32_t segment_index_cap(const Strategy& s, uint32_t limit, Prim out_prim,
                                  uint32_t patch_vertices) {
    uint32_t cap;
    if (s.kind == Strategy::Kind::vsplit)
        cap = std::min(kVsplitSegmentIndices, limit);
    else if (s.kind == Strategy::Kind::none)
        cap = limit;
    else
        cap = std::clamp(limit * 8, limit, kMaxSegmentVertices);
    return std::max(cap, min_segment_vertices(out_prim, patch_vertices));
}

// Largest number of primitives whose positions fit in `cap` (at least one by check_split).
inline uint32_t prims_fitting(Shape shape, PrimShape ps, uint32_t cap) {
    if (shape == Shape::list || shape == Shape::assembled) return cap / ps.first;
    return cap < ps.first ? 0 : (cap - ps.first) / ps.incr + 1;
}

class Splitter {
  public:
    virtual ~Splitter() = default;
    // Fills seg's lists and prim for primitives [k0, k1) of run, k1 <= run.stop; returns k1 > k0.
    virtual uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) = 0;
    // Asked once the draw's first segment `seg` is built: this splitter, or another that then
    // splits the whole draw, that segment again first (split_dedup.hpp: the default strategy's
    // fallback).
    virtual Splitter* after_first_segment([[maybe_unused]] const Segment& seg) { return this; }
    // A new chunk of the draw begins: forget what decides the lists (the lookup bypass), keep
    // what only decides speed (the triangle loops' timings), so a chunk is split as a freshly
    // made splitter splits it on another thread, without paying to make one (docs/front-end.md,
    // "Chunks for threads").
    virtual void restart() {}
};

// The splitters of one front end, one object per concrete type, kept across draws: a draw
// of a shape seen before reuses its splitter, so beginning it allocates nothing.
class SplitterPool {
  public:
    // A splitter of type S made from `args`, in the storage of an earlier one when there is.
    template <class S, class... A> Splitter& make(A&&... args) {
        for (Entry& e : entries_)
            if (e.type == &kType<S>) {
                static_cast<S&>(*e.splitter) = S(std::forward<A>(args)...);
                return *e.splitter;
            }
        entries_.push_back({&kType<S>, std::make_unique<S>(std::forward<A>(args)...)});
        return *entries_.back().splitter;
    }

  private:
    template <class S> static constexpr char kType = 0; // its address names S
    struct Entry {
        const char* type;
        std::unique_ptr<Splitter> splitter;
    };
    std::vector<Entry> entries_;
};

// Non-indexed draws, not assembled (split_linear.cpp).
Splitter& linear_splitter(SplitterPool& pool, const SplitParams& p);
// An indexed draw that qualifies for the range fast path, else null (split_range.cpp).
Splitter* range_splitter(SplitterPool& pool, const SplitParams& p, const DrawInfo& draw);
// A draw the range splitter would split as one segment of one run, instance and chunk, told
// before any set-up: its range and its count trimmed to whole primitives (split_range.cpp).
struct RangeDraw {
    IndexRange range;
    uint32_t count = 0;
};
// taken: the draw is one range segment (`out`); refused: it is not, and choose_splitter's
// range test, which asks the same of the same draw, would refuse it too (its scan is not
// repeated); unasked: the shortcut does not apply, the range splitter still may.
enum class RangeDrawTest : uint8_t { taken, refused, unasked };
// What the test reads of the draw's options, gathered field by field: a driver's options are
// often temporaries, and a copy of a whole struct of them stalls on bytes just written.
struct RangeDrawAsk {
    Strategy::Kind kind = Strategy::Kind::distinct;
    bool assembled = false;    // MiddleEndLimits::assemble_as is set
    uint32_t max_vertices = 0; // the split limit (a forced DrawOptions::max_vertices applied)
    uint32_t chunk = 0;        // chunk_size(options)
};
RangeDrawTest find_range_draw(const DrawInfo& draw, const RangeDrawAsk& ask, RangeDraw& out);
// That one segment, exactly as the range splitter writes, numbers and counts it (`stats`: the
// draw's totals).
void write_range_draw(const DrawInfo& draw, const RangeDraw& rd, SegmentStorage& st, Segment& seg,
                      FrontEndStats& stats);
// Indexed draws, and assembled GS input of any draw, through the strategy's dedup table,
// whose storage is `arena`, and triangle loops, whose storage is `loops` (split_dedup.cpp).
Splitter& dedup_splitter(SplitterPool& pool, const SplitParams& p, const Strategy& s,
                         const DrawInfo& draw, DedupArena& arena, TriangleLoopArena& loops);

} // namespace drawpipe::detail
