// The four triangle loops (draw/front_end/triangle_loops.hpp), compiled once per table hash
// and index type, and once more for x86-64 CPUs with BMI2 (a one-uop variable shift for the
// Fibonacci hash): docs/front-end.md, "The BMI2 copies".
#include "draw/front_end/triangle_loops.hpp"

#include <cassert>
#include <cstring>

namespace drawpipe::detail {

namespace {

// Triangles src[0, 3 * tris) through `find` (an index to its draw element), each triangle's
// three elements in one 8-byte store whose fourth u16 lands on dst[3 * tris].
template <class T, class Find>
[[gnu::always_inline]] inline void store_triangles(const T* src, size_t tris, uint16_t* dst,
                                                   Find&& find) {
    for (const T* const end = src + 3 * tris; src != end; src += 3, dst += 3) {
        const uint64_t d0 = find(src[0]);
        const uint64_t d1 = find(src[1]);
        const uint64_t d2 = find(src[2]);
        const uint64_t packed = d0 | d1 << 16 | d2 << 32;
        std::memcpy(dst, &packed, sizeof packed);
    }
}

// For lists whose lookups mostly hit: one u16 store per index, straight from the branch
// that resolved it.
template <class Table, class T>
[[gnu::always_inline]] inline void triangles(const Table& t, const T* src, size_t tris,
                                             uint32_t* fetch, size_t& n, uint16_t* dst) {
#pragma GCC unroll 2
    for (const T* const end = src + 3 * tris; src != end; src += 3, dst += 3) {
        dst[0] = uint16_t(t.lookup(src[0], fetch, n));
        dst[1] = uint16_t(t.lookup(src[1], fetch, n));
        dst[2] = uint16_t(t.lookup(src[2], fetch, n));
    }
}

// For lists whose lookups mostly miss, where stores are the bottleneck (each miss already
// writes the fetch list and a random table line): a triangle's elements in one store.
template <class Table, class T>
[[gnu::always_inline]] inline void triangles_packed(const Table& t, const T* src, size_t tris,
                                                    uint32_t* fetch, size_t& n, uint16_t* dst) {
    store_triangles(src, tris, dst, [&](uint32_t v) -> uint64_t { return t.lookup(v, fetch, n); });
}

// Without a branch, for ids whose hits and misses a predictor cannot guess, through keyed
// entries that hold their id: a hit needs no load from the fetch list, a position the loop
// may just have stored to. The same slot is hit or replaced as in the sparse-set table, so
// both write the same lists.
template <class Table, class T>
[[gnu::always_inline]] inline void triangles_keyed(const Table& t, const LoopState& s, const T* src,
                                                   size_t tris, uint32_t* fetch, size_t& n,
                                                   uint16_t* dst) {
    assert(s.keyed && "next_keyed_segment() first");
    uint64_t* const keyed = s.keyed;
    const uint64_t epoch = s.epoch;
    auto find = [&](uint32_t v) -> uint64_t {
        uint64_t* const e = keyed + t.slot_of(v);
        const uint64_t want = uint64_t(v) << 32 | epoch;
        const uint64_t d = *e ^ want; // the position alone when the entry is v's
        const bool hit = d < 0x10000;
        const uint64_t r = hit ? d : n;
        fetch[n] = v;
        *e = want | r;
        n += !hit;
        return r;
    };
    store_triangles(src, tris, dst, find);
}

// triangles_packed for segments whose table and fetch list are past L1: a bit per id (its
// low bits) tells for most misses that the table need not be read. A clear bit means no id
// with those low bits is in this segment yet, where the table would miss too; a set one is
// an ordinary lookup. So both write the same lists.
template <class Table, class T>
[[gnu::always_inline]] inline void triangles_filtered(const Table& t, const LoopState& s,
                                                      const T* src, size_t tris, uint32_t* fetch,
                                                      size_t& n, uint16_t* dst) {
    assert(s.seen && "next_filtered_segment() first");
    uint64_t* const seen = s.seen;
    const uint32_t mask = s.seen_mask;
    auto find = [&](uint32_t v) -> uint64_t {
        const uint32_t b = v & mask;
        const uint64_t w = seen[b >> 6], bit = uint64_t(1) << (b & 63);
        seen[b >> 6] = w | bit;
        if (w & bit) [[unlikely]]
            return t.lookup(v, fetch, n);
        return Table::append(v, t.slot(v), fetch, n);
    };
    store_triangles(src, tris, dst, find);
}

template <class Table, class T>
[[gnu::always_inline]] inline void triangle_loop(TriangleLoop kind, const Table& table,
                                                 const LoopState& state, const T* src, size_t tris,
                                                 uint32_t* fetch, size_t& n, uint16_t* dst) {
    // Locals: through the references, every store to the lists would reload them.
    const Table t = table;
    const LoopState s = state;
    size_t count = n;
    switch (kind) {
    case TriangleLoop::packed:
        triangles_packed(t, src, tris, fetch, count, dst);
        break;
    case TriangleLoop::plain:
        triangles(t, src, tris, fetch, count, dst);
        break;
    case TriangleLoop::unpredictable:
        triangles_keyed(t, s, src, tris, fetch, count, dst);
        break;
    case TriangleLoop::filtered:
        triangles_filtered(t, s, src, tris, fetch, count, dst);
        break;
    }
    n = count;
}

template <class Table, class T>
[[gnu::noinline]] void triangle_loop_base(TriangleLoop kind, const Table& table,
                                          const LoopState& state, const T* src, size_t tris,
                                          uint32_t* fetch, size_t& n, uint16_t* dst) {
    triangle_loop(kind, table, state, src, tris, fetch, n, dst);
}

#if defined(__x86_64__) && defined(__GNUC__)
template <class Table, class T>
[[gnu::noinline, gnu::target("bmi2")]] void
triangle_loop_bmi2(TriangleLoop kind, const Table& table, const LoopState& state, const T* src,
                   size_t tris, uint32_t* fetch, size_t& n, uint16_t* dst) {
    triangle_loop(kind, table, state, src, tris, fetch, n, dst);
}

bool cpu_has_bmi2() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") != 0;
    }();
    return has;
}
#endif

} // namespace

template <class Hash, class T>
void dedup_triangles(TriangleLoop kind, const DirectDedup<Hash>& table, const LoopState& state,
                     const T* src, size_t tris, uint32_t* fetch, size_t& n, uint16_t* dst) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (cpu_has_bmi2()) return triangle_loop_bmi2(kind, table, state, src, tris, fetch, n, dst);
#endif
    triangle_loop_base(kind, table, state, src, tris, fetch, n, dst);
}

#define DRAWPIPE_TRIANGLE_LOOPS(Hash, T)                                                           \
    template void dedup_triangles<Hash, T>(TriangleLoop, const DirectDedup<Hash>&,                 \
                                           const LoopState&, const T*, size_t, uint32_t*, size_t&, \
                                           uint16_t*);
DRAWPIPE_TRIANGLE_LOOPS(ModHash, uint8_t)
DRAWPIPE_TRIANGLE_LOOPS(ModHash, uint16_t)
DRAWPIPE_TRIANGLE_LOOPS(ModHash, uint32_t)
DRAWPIPE_TRIANGLE_LOOPS(FibHash, uint8_t)
DRAWPIPE_TRIANGLE_LOOPS(FibHash, uint16_t)
DRAWPIPE_TRIANGLE_LOOPS(FibHash, uint32_t)
#undef DRAWPIPE_TRIANGLE_LOOPS

} // namespace drawpipe::detail
