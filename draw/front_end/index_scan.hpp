// Index buffer scans: typed access to a draw's indices, the search for restart indices and
// the bounds of the index values.
#pragma once

#include "drawpipe/types.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace drawpipe {

// Calls f with the indexed draw's index buffer as a typed pointer (const uint8_t*,
// const uint16_t* or const uint32_t*) and returns what f returns: the one switch on the
// index type.
template <class F> decltype(auto) with_indices(const DrawInfo& draw, F&& f) {
    assert(draw.index_type != IndexType::none);
    if (draw.index_type == IndexType::u8) return f(static_cast<const uint8_t*>(draw.indices));
    if (draw.index_type == IndexType::u16) return f(static_cast<const uint16_t*>(draw.indices));
    return f(static_cast<const uint32_t*>(draw.indices));
}

// 16-byte vectors of each index type (GCC's vector extension).
typedef uint8_t IndexVec8 __attribute__((vector_size(16)));
typedef uint16_t IndexVec16 __attribute__((vector_size(16)));
typedef uint32_t IndexVec32 __attribute__((vector_size(16)));
template <class T>
using IndexVec = std::conditional_t<sizeof(T) == 1, IndexVec8,
                                    std::conditional_t<sizeof(T) == 2, IndexVec16, IndexVec32>>;

// dst[i] = src[i] - sub for i in [0, count), as Out: u8/u16 indices widened into a fetch
// list (sub 0), or indices rebased into u16 draw elements. In blocks of 16, which -O2
// vectorises (the plain loop stayed scalar, one element a cycle).
template <class T, class Out>
void rebase_indices(const T* src, size_t count, uint32_t sub, Out* dst) {
    size_t i = 0;
    for (; count - i >= 16; i += 16)
        for (size_t j = 0; j < 16; ++j) dst[i + j] = Out(src[i + j] - sub);
    for (; i < count; ++i) dst[i] = Out(src[i] - sub);
}

// Position of the first `restart` value in idx[from, end), or end.
template <class T>
uint32_t find_restart(const T* idx, uint32_t from, uint32_t end, uint32_t restart) {
    if (restart > std::numeric_limits<T>::max()) return end; // can never match this type
    const T r = T(restart);
    uint32_t i = from;
    // 64 bytes at a time as four 16-byte vectors (GCC's vector extension: SSE2 on any x86-64,
    // NEON on Arm), compared without an early exit; then the exact position in the block
    // that matched. Written out because the plain loop stayed scalar at -O2. Each vector is
    // loaded on its own and the hit tested as two 64-bit halves: loaded as an array and
    // tested lane by lane, GCC went through the stack twice a block (W7's scan: 9 % of a
    // whole draw in Mesa, 5 GB/s).
    using V = IndexVec<T>;
    constexpr uint32_t kLanes = 16 / sizeof(T), kBlock = 4 * kLanes;
    const V rv = V{} + r;
    for (; end - i >= kBlock; i += kBlock) {
        V v0, v1, v2, v3;
        std::memcpy(&v0, idx + i, 16);
        std::memcpy(&v1, idx + i + kLanes, 16);
        std::memcpy(&v2, idx + i + 2 * kLanes, 16);
        std::memcpy(&v3, idx + i + 3 * kLanes, 16);
        const V hit = V((v0 == rv) | (v1 == rv) | (v2 == rv) | (v3 == rv));
        uint64_t halves[2];
        std::memcpy(halves, &hit, 16);
        if (halves[0] | halves[1]) break;
    }
    for (; i < end; ++i)
        if (idx[i] == r) return i;
    return end;
}

// Asks for the cache lines of idx[0, count), at most 16 KB of them. A prefetch never faults.
template <class T> void prefetch_indices(const T* idx, uint64_t count) {
    const uint64_t bytes = std::min<uint64_t>(count * sizeof(T), 16384);
    const char* p = reinterpret_cast<const char*>(idx);
    for (uint64_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b);
}

// Bounds of idx[begin, end), the value `rvalue` skipped when `restart` (min > max when no
// value counts). Blocks of four 16-byte vectors keep per-lane bounds, restart values masked
// to the identity of each (the plain loop stayed scalar at -O2: it cost small meshes a
// tenth of their split).
template <class T>
IndexRange scan_range(const T* idx, uint32_t begin, uint32_t end, bool restart, uint32_t rvalue) {
    const bool skip = restart && rvalue <= std::numeric_limits<T>::max();
    using V = IndexVec<T>;
    constexpr uint32_t kLanes = 16 / sizeof(T), kBlock = 4 * kLanes;
    uint32_t lo = UINT32_MAX, hi = 0;
    uint32_t i = begin;
    if (end - begin >= kBlock) {
        // Named T values: V{} + a T prvalue would promote to int first.
        const T top = std::numeric_limits<T>::max(), r = T(skip ? rvalue : 0);
        V vlo = V{} + top, vhi = V{};
        const V rv = V{} + r;
        auto blocks = [&](auto masked) {
            for (; end - i >= kBlock; i += kBlock) {
                V v[4];
                std::memcpy(v, idx + i, sizeof v);
                for (const V& x : v) {
                    V for_lo = x, for_hi = x;
                    if constexpr (decltype(masked)::value) {
                        const V m = V(x == rv); // all ones where x is the restart value
                        for_lo = x | m;         // the top value never lowers a minimum
                        for_hi = x & ~m;        // nor 0 raises a maximum
                    }
                    vlo = for_lo < vlo ? for_lo : vlo;
                    vhi = for_hi > vhi ? for_hi : vhi;
                }
            }
        };
        if (skip)
            blocks(std::true_type{});
        else
            blocks(std::false_type{});
        for (uint32_t j = 0; j < kLanes; ++j)
            lo = std::min<uint32_t>(lo, vlo[j]), hi = std::max<uint32_t>(hi, vhi[j]);
    }
    for (; i < end; ++i) {
        const uint32_t v = idx[i];
        if (skip && v == rvalue) continue;
        lo = std::min(lo, v), hi = std::max(hi, v);
    }
    // Lanes that counted nothing hold the top value and 0: when nothing counted at all,
    // report what the scalar loop would.
    if (lo > hi) return {UINT32_MAX, 0};
    return {lo, hi};
}

// Bounds of the raw index values of a validated indexed draw, restart indices excluded
// (min > max when no index counts); for a non-indexed draw, its vertex ids. One pass over
// the indices.
IndexRange scan_index_range(const DrawInfo& draw);

} // namespace drawpipe
