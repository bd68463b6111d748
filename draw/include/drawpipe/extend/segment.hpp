// A segment: the unit of work the front end hands to a middle end.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe {

// Where a segment sits in its restart run. A segment that is both first and last carries 0.
enum SplitFlags : uint8_t {
    SPLIT_BEFORE = 0x1, // a segment of the same run precedes this one
    SPLIT_AFTER = 0x2,  // a segment of the same run follows this one
};

// One piece of a draw, small enough for the middle end. Vertices to fetch are either the
// range [fetch_start, fetch_start + fetch_count) (fetch_elts empty) or the listed vertex ids
// (index + base vertex, each listed once per segment by the de-duplicating strategies).
// Primitives are drawn from positions into the fetched set: draw_elts, or 0..draw_count-1
// when draw_elts is empty. A split line loop arrives as line_strip pieces, the last piece
// ending with the loop's first vertex; an unsplit one as line_loop.
struct Segment {
    Prim prim = Prim::points;
    uint8_t flags = 0;           // SplitFlags
    uint32_t instance_first = 0; // instance ids (0-based within the draw) to run
    uint32_t instance_count = 1; //   more than 1 only for middle ends that instance
    uint32_t prim_id_first = 0;  // GL primitive id, within the instance, of the first primitive
    uint32_t fetch_start = 0;
    uint32_t fetch_count = 0;
    std::span<const uint32_t> fetch_elts;
    uint32_t draw_count = 0;
    std::span<const uint16_t> draw_elts;
    // Position in draw order, unique and increasing within a draw: 0, 1, 2... for a draw of
    // one chunk; for a draw the front end cuts into chunks (of 2^19 index positions, so
    // that threads split them independently), (pass * chunks + chunk) * 2^19 + the
    // segment's number within its chunk, which is below 2^19 (each owns a position).
    uint64_t sequence = 0;
    // Added (mod 2^32) to every listed fetch element: the base vertex when the list is a u32
    // index buffer's own indices, handed on uncopied; a cached split recorded without base
    // vertex is replayed with the draw's (<drawpipe/split_cache.hpp>).
    uint32_t fetch_bias = 0;
    // The draw's DrawInfo::draw_id (gl_DrawID), set by the draw module before the middle end
    // shades the segment: a middle end writes this one, not the draw id of the state it was
    // prepared with, since draws that differ only in start and draw id share that preparation.
    uint32_t draw_id = 0;

    bool linear_fetch() const { return fetch_elts.empty(); }
    bool linear_draw() const { return draw_elts.empty(); }
    uint32_t vertex_id(uint32_t fetch_slot) const {
        return linear_fetch() ? fetch_start + fetch_slot : fetch_elts[fetch_slot] + fetch_bias;
    }
    uint32_t draw_elt(uint32_t i) const { return linear_draw() ? i : draw_elts[i]; }
};

// Storage the front end writes a segment's element lists into; owned by whoever keeps the
// segment alive (one per in-flight segment), reused from draw to draw.
struct SegmentStorage {
    std::vector<uint32_t> fetch;
    std::vector<uint16_t> draw;
};

} // namespace drawpipe
