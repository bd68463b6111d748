// drawpipe's front end behind drawpipe_split.h. Mesa's middle ends take final vertex ids
// (base vertex added) and u16 draw elements, and tell an indexed draw from a non-indexed
// one by whether the fetch is listed; drawpipe's segments are put in those terms here.
#include "drawpipe_split.h"
#include "drawpipe_threads.h"

#include <drawpipe/error.hpp>
#include <drawpipe/extend/draw_segments.hpp>
#include <drawpipe/prim.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

using namespace drawpipe;

// Mesa's middle ends allocate a segment's vertices with a u16 count.
constexpr uint32_t kMesaMaxFetch = 65534;

struct dp_split {
    DrawSegments segments; // one for every draw: its tables are allocated once
    Segment seg;
    // Kept from draw to draw rather than made per draw: a small draw's split reads them right
    // after they would have been written, and stalls on a store not yet forwarded.
    MiddleEndLimits limits;
    DrawOptions options;
    Prim prim = Prim::points;
    bool indexed = false;
    bool overlapping = false; // a strip, fan, loop or polygon: pieces share vertices
    // A segment's lists when drawpipe's need rewriting, each kMesaMaxFetch long, allocated
    // once and never cleared (a small draw would pay more to zero them than to split).
    std::unique_ptr<uint32_t[]> fetch; // listed fetch elements
    std::unique_ptr<uint16_t[]> draw;  // draw elements renumbered for them
    std::unique_ptr<uint16_t[]> slot;  // a range's vertex -> its place in `fetch`
    std::string error;
};

namespace {

// 0, 1, 2 ... for listed fetches drawn in order, shared by every split.
const uint16_t* identity() {
    static const std::vector<uint16_t> ids = [] {
        std::vector<uint16_t> v(kMaxSegmentVertices);
        std::iota(v.begin(), v.end(), uint16_t(0));
        return v;
    }();
    return ids.data();
}

IndexType index_type(unsigned size) {
    switch (size) {
    case 1:
        return IndexType::u8;
    case 2:
        return IndexType::u16;
    case 4:
        return IndexType::u32;
    default:
        return IndexType::none;
    }
}


// An indexed segment handed over as the vertices its elements use, listed in first use (as
// vsplit lists them). A vertex fetched but never drawn (a range segment fetches all of
// [min, max]; a strip cut for parity may leave its last vertex) would still be shaded and
// vote in the middle end's clip test, which picks the pipeline for the whole segment, and
// with it llvmpipe's or the draw module's diagonal for a quad: other pixels than `off`.
// Mesa's generated fetch also gives gl_BaseVertex only to listed fetches.
void list_referenced(dp_split& s, const Segment& seg, dp_segment& out) {
    constexpr uint16_t kUnused = 0xffff; // a segment fetches at most 65534 vertices
    uint16_t* const slot = s.slot.get();
    std::fill_n(slot, seg.fetch_count, kUnused);
    uint32_t listed = 0;
    for (uint32_t i = 0; i < seg.draw_count; ++i) {
        const uint16_t e = seg.draw_elts[i];
        if (slot[e] == kUnused) {
            slot[e] = uint16_t(listed);
            s.fetch[listed++] = seg.vertex_id(e);
        }
        s.draw[i] = slot[e];
    }
    out.fetch_elts = s.fetch.get();
    out.fetch_count = listed;
    out.draw_elts = s.draw.get();
}

// Whether a listed segment of a strip, fan, loop or polygon draws every vertex it fetches,
// told from its last few elements. Its vertices are listed in first use, and every position
// but the last few (a strip cut for parity) is some primitive's: so if the vertex listed last
// is drawn, all are. Not found among the last eight elements: the caller lists them anew.
bool draws_all_listed(const Segment& seg) {
    const uint16_t last = uint16_t(seg.fetch_count - 1);
    const uint32_t from = seg.draw_count > 8 ? seg.draw_count - 8 : 0;
    for (uint32_t i = seg.draw_count; i-- > from;)
        if (seg.draw_elts[i] == last) return true;
    return false;
}

// Whether a range segment draws every vertex it fetches: then it goes over as it is, its
// range written out. Told by a bit mask for the small ranges of small draws, the common case.
bool draws_whole_range(const Segment& seg) {
    if (seg.fetch_count > 64 || seg.draw_count < seg.fetch_count) return false;
    uint64_t used = 0;
    for (uint32_t i = 0; i < seg.draw_count; ++i) used |= uint64_t(1) << seg.draw_elts[i];
    return used == (~uint64_t(0) >> (64 - seg.fetch_count)); // bits 0 .. fetch_count - 1
}

// dp_split_draw::chunk_split: drawpipe's chunks are 8 segments' worth (32,736 indices at
// least), so a mesh of a few of them leaves most of a 16-core machine idle while its chunks
// are split and shaded apart; such a draw is cut into chunk_split chunks instead, a multiple of
// 12 indices each (whole segments of any list).
uint32_t chunk_positions(const dp_split_draw& d, uint32_t max_vertices) {
    // Most draws are a few dozen indices: no call, no division (35 ns of a small draw's 200).
    if (d.count <= DP_MIN_CHUNK_POSITIONS || d.chunk_split < 2) return 0;
    const uint32_t standard = standard_chunk_positions(max_vertices);
    if (uint64_t(d.count) >= uint64_t(standard) * d.chunk_split) return 0;
    const uint32_t share = ((d.count + d.chunk_split - 1) / d.chunk_split + 11) / 12 * 12;
    return std::max<uint32_t>(share, DP_MIN_CHUNK_POSITIONS);
}

} // namespace

extern "C" {

dp_split* dp_split_create(void) {
    try {
        auto* s = new dp_split;
        s->fetch.reset(new uint32_t[kMesaMaxFetch]);
        s->draw.reset(new uint16_t[kMaxSegmentVertices]);
        s->slot.reset(new uint16_t[kMesaMaxFetch]);
        identity(); // built here, where running out of memory is caught, not in dp_split_next
        return s;
    } catch (...) {
        return nullptr;
    }
}

void dp_split_destroy(dp_split* split) {
    delete split;
}

const char* dp_split_begin(dp_split* s, const dp_split_draw* d) {
    DrawInfo info;
    info.prim = Prim(d->prim);
    info.index_type = index_type(d->index_size);
    info.start = d->start;
    info.count = d->count;
    info.patch_vertices = d->patch_vertices;
    if (info.index_type != IndexType::none) {
        info.indices = d->indices;
        info.index_buffer_count = d->index_count;
        info.base_vertex = d->base_vertex;
        info.primitive_restart = d->restart;
        info.restart_index = d->restart_index;
    }
    s->limits.max_vertices = std::min(d->max_vertices, kMesaMaxFetch);
    // Written only when it changes: a store just before the split reads the options whole
    // stalls a small draw (see `limits` above).
    const uint32_t chunk = chunk_positions(*d, s->limits.max_vertices);
    if (s->options.chunk_positions != chunk) s->options.chunk_positions = chunk;
    s->prim = info.prim;
    s->indexed = info.index_type != IndexType::none;
    // Only a range, or a primitive whose pieces overlap (cut for parity or to repeat a fan's
    // centre), can leave a fetched vertex undrawn; a list's segment fetches what it draws.
    const PrimShape shape = prim_shape(info.prim, info.patch_vertices);
    s->overlapping = shape.first != shape.incr;
    try {
        s->segments.begin(info, s->limits, s->options);
        return nullptr;
    } catch (const Error& e) {
        s->error = e.what();
    } catch (const std::exception& e) {
        s->error = std::string("drawpipe: ") + e.what();
    }
    return s->error.c_str();
}

bool dp_split_next(dp_split* s, dp_segment* out) {
    Segment& seg = s->seg;
    if (!s->segments.next(seg)) return false;
    out->flags = seg.flags;
    out->line_loop_piece = s->prim == Prim::line_loop && seg.prim == Prim::line_strip;
    out->fetch_start = seg.fetch_start;
    out->fetch_count = seg.fetch_count;
    out->draw_count = seg.draw_count;
    out->draw_elts = seg.linear_draw() ? nullptr : seg.draw_elts.data();
    if (seg.linear_fetch() && !s->indexed && seg.linear_draw()) {
        out->fetch_elts = nullptr; // run_linear
        return true;
    }
    if (s->indexed && !seg.linear_draw() &&
        (seg.linear_fetch() ? !draws_whole_range(seg)
                            : s->overlapping && !draws_all_listed(seg))) {
        list_referenced(*s, seg, *out);
        return true;
    }
    // Listed as they are, or written out when a range or biased.
    const uint32_t* elts = seg.fetch_elts.data();
    if (seg.linear_fetch() || seg.fetch_bias != 0) {
        // From locals: through `seg` the loop would reload its fields after every store
        // (they may alias), and a small draw then paid ~25 ns in stalled loads.
        uint32_t* const fetch = s->fetch.get();
        const uint32_t n = seg.fetch_count;
        if (seg.linear_fetch()) {
            const uint32_t first = seg.fetch_start;
            for (uint32_t i = 0; i < n; ++i) fetch[i] = first + i;
        } else {
            const uint32_t* const ids = seg.fetch_elts.data();
            const uint32_t bias = uint32_t(seg.fetch_bias);
            for (uint32_t i = 0; i < n; ++i) fetch[i] = ids[i] + bias;
        }
        elts = fetch;
    }
    out->fetch_elts = elts;
    if (!out->draw_elts) out->draw_elts = identity();
    return true;
}

unsigned dp_split_chunks(dp_split* s) {
    struct Ask {
        dp_split* s;
        unsigned chunks;
    } ask{s, 1};
    // On drawpipe's arena: the restart scan's parallel_for must not start oneTBB's default one.
    dp_arena_run(
        [](void* p) {
            Ask& a = *static_cast<Ask*>(p);
            try {
                a.chunks = a.s->segments.chunks(true);
            } catch (...) {
                a.chunks = 1; // out of memory for the restart table: split as one piece
            }
        },
        &ask);
    return ask.chunks;
}

const char* dp_split_begin_chunk(dp_split* part, const dp_split* draw, unsigned chunk) {
    part->limits = draw->limits;
    part->prim = draw->prim;
    part->indexed = draw->indexed;
    part->overlapping = draw->overlapping;
    try {
        part->segments.begin_chunk(draw->segments, chunk);
        return nullptr;
    } catch (const std::exception& e) {
        part->error = std::string("drawpipe: ") + e.what();
    }
    return part->error.c_str();
}

} // extern "C"
