// How many chunks and instance passes a draw is cut into, and the restart scan that lets any
// thread split any chunk (draw/front_end/chunks.hpp).
#include "draw/front_end/chunks.hpp"

#include "draw/base/tsan_order.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/instance_order.hpp"
#include "draw/front_end/splitter.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/strategy.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>

namespace drawpipe {

using detail::Shape;

namespace {

// GL primitives of a run of n positions.
uint32_t run_gl_prims(const DrawInfo& draw, uint32_t n) {
    const uint32_t pv = draw.prim == Prim::patches ? draw.patch_vertices : 1;
    return gl_prim_count(draw.prim, trim_count(draw.prim, n, pv), pv);
}

} // namespace

uint32_t chunk_count(const DrawInfo& draw, const FrontEndOptions& options) {
    const Strategy::Kind s = options.strategy.kind;
    const uint32_t size = chunk_size(options);
    if (draw.count <= size || s == Strategy::Kind::reorder || s == Strategy::Kind::vsplit) return 1;
    // Non-indexed lists and strips: every segment is O(1) in closed form, so the serial
    // source is no bottleneck, and chunk cuts would only add segments (Mesa's W6 counts).
    const Shape shape = detail::shape_of(draw.prim, false);
    if (draw.index_type == IndexType::none && !options.limits.assemble_as &&
        (shape == Shape::list || shape == Shape::strip))
        return 1;
    return uint32_t((uint64_t(draw.count) + size - 1) / size);
}

uint32_t chunk_passes(const DrawInfo& draw, const FrontEndOptions& options) {
    InstanceOrder order(options.limits, draw.instance_count);
    order.settle(false);
    return draw.count == 0 ? 0 : order.passes();
}

void find_restart_chunks(const DrawInfo& draw, const FrontEndOptions& options, uint32_t chunks,
                         RestartChunks& out, bool parallel) {
    const uint32_t size = chunk_size(options);
    out.first.resize(chunks);
    out.last.resize(chunks);
    out.inner.resize(chunks);
    const uint32_t end = draw.start + draw.count;
    // One chunk's restarts: first, last, and the GL primitives of the runs between them.
    auto scan = [&](uint32_t c) {
        const uint32_t b = draw.start + c * size, e = std::min(end, b + size);
        with_indices(draw, [&](const auto* idx) {
            uint32_t r = find_restart(idx, b, e, draw.restart_index);
            out.first[c] = out.last[c] = r;
            uint32_t inner = 0;
            while (r < e) {
                const uint32_t n = find_restart(idx, r + 1, e, draw.restart_index);
                if (n == e) break;
                inner += run_gl_prims(draw, n - r - 1);
                r = n;
            }
            out.last[c] = r;
            out.inner[c] = inner;
        });
    };
    // Under ThreadSanitizer the scan runs on this thread (draw/base/tsan_order.hpp:
    // parallel_for's hand-over is invisible to TSan), and the result is the same either way;
    // the chunks it feeds are still split in parallel.
    if (parallel && chunks > 1 && !detail::kTsanOrder)
        tbb::parallel_for(uint32_t(0), chunks, scan);
    else
        for (uint32_t c = 0; c < chunks; ++c) scan(c);
    // The prefix: which run is open at each chunk's start, and the primitives before it.
    out.run_begin.resize(chunks);
    out.prim_base.resize(chunks);
    out.next_restart.resize(chunks);
    uint32_t begin = draw.start, base = 0;
    for (uint32_t c = 0; c < chunks; ++c) {
        out.run_begin[c] = begin;
        out.prim_base[c] = base;
        const uint32_t e = std::min<uint64_t>(end, draw.start + uint64_t(c + 1) * size);
        if (out.first[c] < e) {
            base += run_gl_prims(draw, out.first[c] - begin) + out.inner[c];
            begin = out.last[c] + 1;
        }
    }
    uint32_t next = end;
    for (uint32_t c = chunks; c-- > 0;) {
        const uint32_t e = std::min<uint64_t>(end, draw.start + uint64_t(c + 1) * size);
        if (out.first[c] < e) next = out.first[c];
        out.next_restart[c] = next;
    }
}

} // namespace drawpipe
