// The fetch plan of the vectorised path (drawpipe/extend/simd_shade.hpp): everything shading needs
// about one draw, resolved once in prepare() so the per-block loops do no format switch and
// no robust-access division.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/shaded.hpp"

#include <array>
#include <cstdint>

namespace drawpipe {

struct RasterPlan; // draw/shade/raster_plan.hpp

enum class FetchKind : uint8_t {
    zero,     // no element lies inside the buffer: every element reads (0, 0, 0, 0)
    fast,     // 1-4 raw dwords (float32 / uint32 / sint32), the rest 0, 0, 1
    fallback, // any other format: fetch_attrib per element
};

struct AttribPlan {
    FetchKind kind = FetchKind::zero;
    uint8_t comps = 0; // fast: dwords copied from the element
    uint32_t one = 0;  // fast: dword 3 of an element with fewer than 4 components
    uint32_t divisor = 0;
    // One value for the whole call: an instanced attribute, or a disabled array's current
    // value. Fetched once with fetch_attrib and broadcast.
    bool constant = false;
    uint32_t stride = 0;                 // bytes between elements
    const unsigned char* base = nullptr; // fast: element 0 (buffer offset + attribute offset)
    uint64_t last = 0;   // fast: the last element read inside the buffer (fetch_attrib's bound)
    VertexBuffer buffer; // fallback and instanced attributes: fetch_attrib's arguments
    VertexAttrib attrib;
};

struct FetchPlan {
    const VertexShader* vs = nullptr; // null: attributes pass through
    uint32_t attrib_count = 0;        // attributes fetched (a block's in rows / 4)
    uint32_t base_instance = 0;
    uint32_t stride = 0; // record dwords
    std::array<AttribPlan, kMaxAttribs> attribs{};
    // What a shader finds in its outputs before writing them (ShaderBlock's presets), per
    // record dword.
    std::array<uint32_t, kMaxRecordDwords> preset{};
};

// The plan of a draw whose records have `layout` (vertex_layout_for(state)).
FetchPlan make_fetch_plan(const DrawState& state, const VertexLayout& layout);

// post_shade (draw/shade/raster_plan.hpp) fused into the kernel: the records get window
// coordinates, `clip_mask` each vertex's mask, `clip_soa` the clip-space positions as blocks
// of kShaderLanes (rows x, y, z, w: 4 * kShaderLanes floats per block, the last one whole
// too), and `clip_or` the OR of the masks.
//
// Only the clipper reads clip_mask and clip_soa, and most batches have nothing outside:
// unless `soa_all`, the kernel stores them from the block holding the first vertex outside
// on, and says where in `soa_from` (a multiple of kShaderLanes); the caller shades
// [0, soa_from) again with `soa_all` when clip_or is not 0.
struct PostShadeJob {
    const RasterPlan* plan = nullptr;
    uint16_t* clip_mask = nullptr; // n rounded up to kShaderLanes
    float* clip_soa = nullptr;     // 4 * (n rounded up to kShaderLanes)
    uint32_t clip_or = 0;
    bool soa_all = false;
    uint32_t soa_from = 0;
};

// The vertices to shade: listed (elts[i] + bias, mod 2^32) or, with elts null, first + i.
struct ShadeJob {
    const FetchPlan* plan = nullptr;
    const uint32_t* elts = nullptr;
    uint32_t first_or_bias = 0;
    uint32_t n = 0;
    uint32_t instance = 0;
    uint32_t* out = nullptr;      // n records of plan->stride dwords
    PostShadeJob* post = nullptr; // also the clip test and viewport transform (post_shade)
    uint32_t draw_id = 0;         // the segment's (Segment::draw_id)
};

// The vectorised kernels (draw/shade/simd_shade.cpp), dispatched at run time to the best target
// the CPU has (SSE4, AVX2, AVX-512, ...).
void simd_shade_vertices(const ShadeJob& job);
// dst[i] = base + (src ? src[i] : i) for i < n.
void simd_emit_elts(const uint16_t* src, uint32_t n, uint32_t base, uint32_t* dst);
// Records [0, count) at `out`, `stride` dwords each, from rows of lanes: dword k of record
// l is rows[k][l]. Each row is 16-byte aligned and readable up to `count` rounded up to 4.
void simd_emit_records(const uint32_t* const* rows, uint32_t stride, uint32_t count, uint32_t* out);
// The name of the Highway target the kernels run on ("AVX2", "AVX3", "SSE4", ...).
const char* simd_target_name();

} // namespace drawpipe
