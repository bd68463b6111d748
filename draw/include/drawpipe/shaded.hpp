// What a middle end produces for one segment: shaded vertices and the primitives over them.
#pragma once

#include "drawpipe/limits.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace drawpipe {

// A shaded vertex is `stride()` dwords: the header, the position, then 4 dwords per attribute.
enum VertexSlot : uint32_t {
    SLOT_VERTEX_ID = 0,   // index + base vertex (or start + position)
    SLOT_INSTANCE_ID = 1, // 0-based within the draw
    SLOT_GS_ID = 2,       // integer `id` output of a geometry shader
    SLOT_GS_LAYER = 3,    // layer output of a geometry shader
    SLOT_POSITION = 4,    // 4 floats, as bits
};

struct VertexLayout {
    uint32_t attrib_count = 0;
    std::array<Format, kMaxAttribs> formats{}; // how to read each attribute's 4 dwords
    bool gs_output = false;                    // vertices come from a geometry shader
    bool gs_writes_layer = false;

    uint32_t stride() const { return kVertexHeaderDwords + 4 * attrib_count; }
};

// Primitives of one type over the batch's vertices: `count` elements from `first` in
// ShadedBatch::elts.
struct PrimRange {
    Prim prim;
    uint8_t flags; // SplitFlags of the segment (0 for GS output strips)
    uint32_t first;
    uint32_t count;
};

struct ShadedBatch {
    std::vector<uint32_t> vertices; // vertex_count * layout stride dwords
    uint32_t vertex_count = 0;
    std::vector<PrimRange> prims;
    std::vector<uint32_t> elts; // indices into the batch's vertices
    // Middle-end statistics for this segment, summed per draw in draw order.
    std::array<uint64_t, kMaxCounters> counters{};

    void clear() {
        vertices.clear();
        vertex_count = 0;
        prims.clear();
        elts.clear();
        counters.fill(0);
    }
    uint32_t* append_vertices(uint32_t n, uint32_t stride) {
        const size_t at = vertices.size();
        vertices.resize(at + size_t(n) * stride);
        vertex_count += n;
        return vertices.data() + at;
    }
};

inline float dword_float(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
inline uint32_t float_dword(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
}

} // namespace drawpipe
