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
// (MiddleEndDraw::shade_post) and SimdShade::shade_segment runs it.
class PostShadeStep {
  protected:
    PostShadeStep() = default;
    ~PostShadeStep() = default;
};

// Clip-mask bits, set when a vertex is outside a plane: the view volume's -w planes for x,
// y, z, then its +w planes (so one vector compare per side gives three bits), then user plane
// / clip distance i at bit 6 + i.
enum ClipBits : uint32_t {
    CLIP_LEFT = 1u << 0,   // x >= -w
    CLIP_BOTTOM = 1u << 1, // y >= -w
    CLIP_NEAR = 1u << 2,   // z >= -w
    CLIP_RIGHT = 1u << 3,  // x <= w
    CLIP_TOP = 1u << 4,    // y <= w
    CLIP_FAR = 1u << 5,    // z <= w
    CLIP_USER0 = 1u << 6,
    // Not a plane: a coordinate of the clip-space position is NaN or infinite. The clip
    // stage drops the primitive before clipping it, so no such position reaches a backend.
    CLIP_NONFINITE = 1u << 15,
};
inline constexpr uint32_t kViewPlanes = 6;

// What that step leaves beside a batch's records (which then hold window coordinates): the
// OR of every vertex's clip mask and, when it is not 0, each vertex's mask and its clip-space
// position, for the clip stage.
struct ClipResults {
    uint32_t clip_or = 0;
    boost::container::vector<uint16_t> clip_mask;
    boost::container::vector<float> clip_pos;
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

// A primitive list the pipeline stages made from a batch: `count` elements from `first` of
// the list they wrote (no split flags: the stages have used them).
struct StagedRange {
    Prim prim = Prim::triangles;
    uint32_t first = 0, count = 0;
};

// Vertices and elements are Boost vectors so that producers which write every dword they
// append can grow them without the zero-fill std::vector::resize does (8% of a W7 draw).
// Everything here is the middle end's to write; the draw module keeps its own bookkeeping
// beside it.
struct ShadedBatch {
    boost::container::vector<uint32_t> vertices; // vertex_count * layout stride dwords
    uint32_t vertex_count = 0;
    std::vector<PrimRange> prims;
    boost::container::vector<uint32_t> elts; // indices into the batch's vertices
    // Middle-end statistics for this segment, summed per draw in draw order.
    std::array<uint64_t, kMaxCounters> counters{};
    void clear() {
        vertices.clear();
        vertex_count = 0;
        prims.clear();
        elts.clear();
        counters.fill(0);
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
