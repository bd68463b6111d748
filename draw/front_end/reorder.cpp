#include "draw/front_end/reorder.hpp"

#include "draw/front_end/index_scan.hpp"
#include "drawpipe/prim.hpp"

#if DRAWPIPE_WITH_REORDER
#include <meshoptimizer.h>
#endif

#include <algorithm>
#include <limits>

namespace drawpipe {

#if DRAWPIPE_WITH_REORDER

namespace {

// The draw's `count` raw indices from src as u32, and their range; false if a restart index
// occurs.
template <class T>
bool gather(const T* src, const DrawInfo& d, std::vector<uint32_t>& out, uint32_t& lo,
            uint32_t& hi) {
    const uint32_t n = d.count;
    const bool restart = d.primitive_restart && d.restart_index <= std::numeric_limits<T>::max();
    out.resize(n);
    lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = src[i];
        if (restart && v == d.restart_index) return false;
        out[i] = v;
        lo = std::min(lo, v), hi = std::max(hi, v);
    }
    return true;
}

} // namespace

bool reorder_for_vertex_cache(const DrawInfo& draw, std::vector<uint32_t>& out) {
    out.clear();
    if (draw.prim != Prim::triangles || draw.index_type == IndexType::none) return false;
    const uint32_t n = trim_count(Prim::triangles, draw.count);
    if (n == 0) return false;
    // Every index is scanned, the tail past the last whole triangle too: a restart index
    // anywhere splits the draw into runs, which reordering would merge.
    std::vector<uint32_t> raw;
    uint32_t lo = 0, hi = 0;
    const bool clean = with_indices(
        draw, [&](const auto* idx) { return gather(idx + draw.start, draw, raw, lo, hi); });
    raw.resize(n);
    const uint64_t range = uint64_t(hi) - lo + 1;
    if (!clean || range > kReorderMaxRange || range > uint64_t(n) * 4 + 65536) return false;
    // meshoptimizer wants ids below its vertex count: rebase to the minimum and back.
    for (uint32_t& v : raw) v -= lo;
    out.resize(n);
    meshopt_optimizeVertexCache(out.data(), raw.data(), n, size_t(range));
    for (uint32_t& v : out) v += lo;
    return true;
}

#else // built without meshoptimizer: Strategy::parse never yields `reorder`

bool reorder_for_vertex_cache(const DrawInfo& draw, std::vector<uint32_t>& out) {
    (void)draw;
    out.clear();
    return false;
}

#endif

} // namespace drawpipe
