// What a middle end produces for one segment: shaded vertices and the primitives over them.
#pragma once

#include "drawpipe/limits.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <boost/container/vector.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe {

// The per-vertex step after shading (clip test, perspective divide, viewport transform) as
// the draw module planned it for a draw. Opaque: a middle end hands it on untouched
// (ShadedBatch::post_plan) and SimdShade::shade_segment runs it.
class PostShadeStep {
  protected:
    PostShadeStep() = default;
    ~PostShadeStep() = default;
};

// Primitives of one type over the batch's vertices: `count` elements from `first` in
// ShadedBatch::elts.
struct PrimRange {
    Prim prim;
    uint8_t flags; // SplitFlags of the segment (0 for GS output strips)
    uint32_t first;
    uint32_t count;
    uint8_t stream = 0; // the geometry shader's vertex stream; only 0 reaches the backend
};

// Vertices and elements are Boost vectors so that producers which write every dword they
// append can grow them without the zero-fill std::vector::resize does (8% of a W7 draw).
// A primitive list the draw module's pipeline stages made from a batch (ShadedBatch::staged).
struct StagedRange {
    Prim prim = Prim::triangles;
    uint32_t first = 0, count = 0; // into ShadedBatch::staged_elts
};

struct ShadedBatch {
    boost::container::vector<uint32_t> vertices; // vertex_count * layout stride dwords
    uint32_t vertex_count = 0;
    std::vector<PrimRange> prims;
    boost::container::vector<uint32_t> elts; // indices into the batch's vertices
    // Middle-end statistics for this segment, summed per draw in draw order.
    std::array<uint64_t, kMaxCounters> counters{};
    // Written by the draw module when a RasterState is bound (not by middle ends): the OR of
    // every vertex's clip mask, and when it is not 0, each vertex's mask and its clip-space
    // position (the record's position then holds window coordinates).
    uint32_t clip_or = 0;
    boost::container::vector<uint16_t> clip_mask;
    boost::container::vector<float> clip_pos;
    // Set by the draw module before shade() when that per-vertex step may run while the
    // records are written: SimdShade::shade_segment then does it in the same pass over each
    // block, while the positions are still in registers, and sets `post_shaded`.
    const PostShadeStep* post_plan = nullptr;
    bool post_shaded = false;
    // Written by the draw module when the pipeline stages ran on the shading thread (an
    // order-free chain): what the backend receives instead of `prims`, in order, as elements
    // into the first `staged_vertex_count` records (the batch's, then those stages made).
    bool staged = false;
    uint32_t staged_vertex_count = 0;
    std::vector<StagedRange> staged_ranges;
    boost::container::vector<uint32_t> staged_elts;
    // Then too: primitives the clip stage made minus those it dropped (pipeline statistics).
    int64_t clip_delta = 0;
    // The segment's place in its draw (Segment::sequence), and whether the shading thread
    // already handed the batch to a backend that takes parallel batches.
    uint64_t sequence = 0;
    bool delivered = false;

    void clear() {
        vertices.clear();
        vertex_count = 0;
        prims.clear();
        elts.clear();
        counters.fill(0);
        clip_or = 0;
        post_plan = nullptr;
        post_shaded = false;
        staged = false;
        staged_vertex_count = 0;
        staged_ranges.clear();
        staged_elts.clear();
        clip_delta = 0;
        sequence = 0;
        delivered = false;
    }
    // The elements of one of the batch's primitive ranges.
    std::span<const uint32_t> elts_of(const PrimRange& r) const {
        return {elts.data() + r.first, r.count};
    }
    // Room for n more vertex records, zeroed.
    uint32_t* append_vertices(uint32_t n, uint32_t stride) {
        const size_t at = vertices.size();
        vertices.resize(at + size_t(n) * stride);
        vertex_count += n;
        return vertices.data() + at;
    }
    // The same, left unset, for a producer that writes every dword of every record.
    uint32_t* append_unset_vertices(uint32_t n, uint32_t stride) {
        const size_t at = vertices.size();
        vertices.resize(at + size_t(n) * stride, boost::container::default_init);
        vertex_count += n;
        return vertices.data() + at;
    }
    // Room for n more elements, left unset for the caller to write.
    uint32_t* append_unset_elts(uint32_t n) {
        const size_t at = elts.size();
        elts.resize(at + n, boost::container::default_init);
        return elts.data() + at;
    }
};

} // namespace drawpipe
