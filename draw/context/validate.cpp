#include "draw/context/validate.hpp"

#include "draw/front_end/index_scan.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"

#include <algorithm>
#include <string>

namespace drawpipe {

namespace {

[[noreturn]] void fail(ErrorCode code, const std::string& msg) {
    throw Error(code, msg);
}

} // namespace

void validate_draw(const DrawInfo& d, bool robust_indices) {
    if (uint32_t(d.prim) >= uint32_t(kPrimCount))
        fail(ErrorCode::invalid_value,
             "prim: unknown primitive type " + std::to_string(int(d.prim)));
    if (d.prim == Prim::patches && (d.patch_vertices < 1 || d.patch_vertices > kMaxPatchVertices))
        fail(ErrorCode::invalid_value, "patch_vertices: " + std::to_string(d.patch_vertices) +
                                           " is not in [1, " + std::to_string(kMaxPatchVertices) +
                                           "]");
    if (uint32_t(d.index_type) > uint32_t(IndexType::u32))
        fail(ErrorCode::invalid_value, "index_type: unknown index type");
    if (uint32_t(d.provoking) > uint32_t(Provoking::last))
        fail(ErrorCode::invalid_value, "provoking: must be first or last");
    // The end position start + count must itself be a 32-bit value.
    if (uint64_t(d.start) + d.count > uint64_t(UINT32_MAX))
        fail(ErrorCode::count_overflow, "start + count: " + std::to_string(d.start) + " + " +
                                            std::to_string(d.count) + " overflows 32 bits");
    if (d.instance_count > 0 && uint64_t(d.base_instance) + d.instance_count - 1 > UINT32_MAX)
        fail(ErrorCode::count_overflow, "base_instance + instance_count overflows 32 bits");
    if (d.index_type != IndexType::none) {
        if (d.count > 0 && d.indices == nullptr)
            fail(ErrorCode::invalid_value, "indices: null index buffer for an indexed draw");
        if (!robust_indices && uint64_t(d.start) + d.count > d.index_buffer_count)
            fail(ErrorCode::index_buffer_overrun,
                 "start + count: " + std::to_string(uint64_t(d.start) + d.count) +
                     " indices needed but the index buffer holds " +
                     std::to_string(d.index_buffer_count));
    }
    if (d.index_range && d.index_range->min > d.index_range->max)
        fail(ErrorCode::invalid_value, "index_range: min > max");
}

void check_split(const DrawInfo& draw, const FrontEndOptions& options, const GeometryShader* gs) {
    const MiddleEndLimits& lim = options.limits;
    if (lim.max_vertices == 0)
        fail(ErrorCode::middle_end_failure,
             "max_vertices: the middle end reported 0 vertices per segment");
    if (lim.assemble_as && !gs_input_compatible(draw.prim, *lim.assemble_as))
        fail(ErrorCode::invalid_value,
             std::string("prim: ") + std::string(prim_name(draw.prim)) + " cannot feed " +
                 (gs ? "gs " + gs->name + ", which takes " : std::string("a gs taking ")) +
                 std::string(prim_name(*lim.assemble_as)));
    const Prim out_prim = lim.assemble_as ? *lim.assemble_as : draw.prim;
    const uint32_t limit = std::min(lim.max_vertices, kMaxSegmentVertices);
    // A patch is never cut: a segment holds whole patches.
    const uint32_t need =
        min_segment_vertices(out_prim, out_prim == Prim::patches ? draw.patch_vertices : 1);
    if (limit < need)
        fail(ErrorCode::limit_too_small,
             "max_vertices: " + std::to_string(limit) + " is below the " + std::to_string(need) +
                 (need == 1 ? " vertex" : " vertices") + " a segment of " +
                 std::string(prim_name(out_prim)) + " needs");
}

void check_indices(const DrawInfo& draw, const std::optional<IndexRange>& known) {
    if (draw.index_type == IndexType::none || draw.count == 0) return;
#ifndef NDEBUG
    // A given index range is trusted; debug builds check that it bounds the indices.
    if (draw.index_range) {
        const IndexRange s = scan_index_range(draw);
        if (s.min <= s.max && (s.min < draw.index_range->min || s.max > draw.index_range->max))
            fail(ErrorCode::index_range_mismatch, "index_range: indices [" + std::to_string(s.min) +
                                                      ", " + std::to_string(s.max) +
                                                      "] fall outside the given range");
    }
#endif
    // Base vertex must not carry any index out of [0, 2^32).
    if (draw.base_vertex == 0) return;
    const IndexRange r = known              ? *known
                         : draw.index_range ? *draw.index_range
                                            : scan_index_range(draw);
    if (r.min > r.max) return; // no index counts: nothing is fetched
    const int64_t lo = int64_t(r.min) + draw.base_vertex, hi = int64_t(r.max) + draw.base_vertex;
    if (lo < 0 || hi > int64_t(UINT32_MAX))
        fail(ErrorCode::base_vertex_overflow,
             "base_vertex: " + std::to_string(draw.base_vertex) + " takes index " +
                 std::to_string(lo < 0 ? r.min : r.max) + " outside [0, 2^32)");
}

} // namespace drawpipe
