// The de-duplicating splitter's instances: the strategy picks the dedup table, the shape
// and the primitive pick the kernel (draw/front_end/split_dedup.hpp).
#include "draw/front_end/split_dedup.hpp"

#include "draw/front_end/index_scan.hpp"
#include "drawpipe/limits.hpp"

#include <bit>
#include <type_traits>

namespace drawpipe::detail {

namespace {

// Table entries per vertex a segment may fetch, for the default strategy.
constexpr uint32_t kDistinctEntriesPerVertex = 4;

// The splitter for the draw's shape; `spread`, when given, is its fallback (set_spread).
template <class Index, class Table>
Splitter& for_shape(SplitterPool& pool, const SplitParams& p, Index index, Table table,
                    TriangleLoopArena& loops, Splitter* spread = nullptr) {
    auto made = [&]<class S>(std::type_identity<S>) -> Splitter& {
        S& s = static_cast<S&>(pool.make<S>(p, index, table, loops));
        s.set_spread(spread);
        return s;
    };
    switch (p.shape) {
    case Shape::list:
        if (p.ps.first == 3)
            return made(std::type_identity<DedupSplitter<Index, Table, Shape::list, 3>>{});
        return made(std::type_identity<DedupSplitter<Index, Table, Shape::list>>{});
    case Shape::strip:
        if (p.prim == Prim::triangle_strip)
            return made(std::type_identity<DedupSplitter<Index, Table, Shape::strip, 3>>{});
        return made(std::type_identity<DedupSplitter<Index, Table, Shape::strip>>{});
    case Shape::fan:
        return made(std::type_identity<DedupSplitter<Index, Table, Shape::fan>>{});
    case Shape::loop:
        return made(std::type_identity<DedupSplitter<Index, Table, Shape::loop>>{});
    case Shape::assembled:
        break;
    }
    if (p.ps.first == 3)
        return made(std::type_identity<DedupSplitter<Index, Table, Shape::assembled, 3>>{});
    return made(std::type_identity<DedupSplitter<Index, Table, Shape::assembled>>{});
}

template <class Index>
Splitter& for_strategy(SplitterPool& pool, const SplitParams& draw_params, const Strategy& s,
                       Index index, DedupArena& arena, TriangleLoopArena& loops, uint32_t count) {
    // A segment of this draw holds at most 4 draw elements per index (line_strip_adjacency
    // assembled into lines_adjacency; a fan's or loop's repeated vertex aside) and fetches at
    // most one vertex per element. Capping the lists at 6 per index never moves a split, and keeps
    // a small draw's segment storage small: every item of every pipeline token has its own.
    SplitParams p = draw_params;
    const uint32_t most = uint32_t(std::min<uint64_t>(6 * uint64_t(count) + 8, p.index_cap));
    p.index_cap = most;
    p.fetch_limit = std::min(p.fetch_limit, most);
    // No segment fetches more than the draw has indices, so small draws get small tables.
    const uint32_t max_fetch = std::min(p.fetch_limit, std::max(count, 1u));
    switch (s.kind) {
    case Strategy::Kind::vsplit:
    case Strategy::Kind::direct: {
        DirectDedup<ModHash> table;
        table.configure(arena, s.kind == Strategy::Kind::vsplit ? kVsplitTableEntries : s.entries,
                        p.fetch_limit);
        return for_shape(pool, p, index, table, loops);
    }
    case Strategy::Kind::distinct: {
        // A masked table, and the same split through a Fibonacci-hashed one for draws whose
        // ids collide under the mask (DedupSplitter::after_first_segment); both share the
        // arena's entries.
        const uint32_t entries = std::bit_ceil(max_fetch) * kDistinctEntriesPerVertex;
        DirectDedup<FibHash> spread;
        spread.configure(arena, entries, p.fetch_limit);
        Splitter& fallback = for_shape(pool, p, index, spread, loops);
        DirectDedup<ModHash> table;
        table.configure(arena, entries, p.fetch_limit);
        return for_shape(pool, p, index, table, loops, &fallback);
    }
    case Strategy::Kind::exact:
    case Strategy::Kind::reorder: { // begin() has swapped in the reordered buffer
        ExactDedup table;
        table.configure(arena, max_fetch);
        return for_shape(pool, p, index, table, loops);
    }
    case Strategy::Kind::none:
        break;
    }
    return for_shape(pool, p, index, NoDedup{}, loops);
}

} // namespace

Splitter& dedup_splitter(SplitterPool& pool, const SplitParams& p, const Strategy& s,
                         const DrawInfo& draw, DedupArena& arena, TriangleLoopArena& loops) {
    if (draw.index_type == IndexType::none)
        return for_strategy(pool, p, s, LinearIndex{}, arena, loops, draw.count);
    return with_indices(draw, [&](const auto* idx) -> Splitter& {
        using Index = std::remove_cv_t<std::remove_pointer_t<decltype(idx)>>;
        return for_strategy(pool, p, s, BufferIndex<Index>{idx}, arena, loops, draw.count);
    });
}

} // namespace drawpipe::detail
