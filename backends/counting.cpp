#include "drawpipe/backends/counting.hpp"

#include "drawpipe/decompose.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <thread>

namespace drawpipe {

namespace {

constexpr uint64_t kPrime = 0x100000001B3ull; // FNV-1's 64-bit prime

uint64_t vertex_key(const VertexView& vertices, uint32_t e) {
    const uint32_t* v = vertices.vertex(e);
    return (uint64_t(v[SLOT_INSTANCE_ID]) << 32 | v[SLOT_VERTEX_ID]) ^ v[SLOT_GS_ID];
}

// A primitive's key: its vertices' keys told apart by position.
uint64_t tri(uint64_t k0, uint64_t k1, uint64_t k2) {
    return k0 + std::rotl(k1, 21) + std::rotl(k2, 42);
}

// base^e modulo 2^64.
uint64_t power(uint64_t base, uint64_t e) {
    uint64_t r = 1;
    for (; e; e >>= 1, base *= base)
        if (e & 1) r *= base;
    return r;
}

// kPrime^draw, remembered per thread for the draw it last saw (calls come a batch at a time).
uint64_t prime_power(uint64_t draw) {
    thread_local uint64_t last_draw = 0, last_power = 1;
    if (draw != last_draw) last_draw = draw, last_power = power(kPrime, draw);
    return last_power;
}

// One call's counts into `totals` (calls, elements, primitives) and its four hash chains
// into `lane`.
void count_call(Prim prim, Provoking provoking, const VertexView& vertices,
                std::span<const uint32_t> elts, CountingBackend::Totals& totals,
                uint64_t (&lane)[4]) {
    totals.calls++;
    totals.elements += elts.size();
    // A primitive's vertex keys combine by position (rotations), then one FNV-style step per
    // primitive into one of four chains by the primitive's position in the call, folded in
    // order at the end: order-sensitive in primitives and in vertices, with one multiply per
    // primitive and four chains to hide its latency (the hash was most of this backend's cost).
    auto mix = [&](uint32_t l, uint64_t key) { lane[l] = (lane[l] ^ key) * kPrime; };
    // One primitive into chain 0, then the chains rotate: four pushes equal one mix into
    // each of chains 0-3, so the unrolled loops and this agree (indices stay constant and the
    // chains in registers).
    auto push = [&](uint64_t key) {
        const uint64_t l0 = (lane[0] ^ key) * kPrime;
        lane[0] = lane[1], lane[1] = lane[2], lane[2] = lane[3], lane[3] = l0;
    };
    auto key = [&](uint32_t e) { return vertex_key(vertices, e); };
    const uint32_t* e = elts.data();
    if (prim == Prim::triangles) { // the common case, without the decomposition callback
        const size_t tris = elts.size() / 3;
        size_t t = 0;
        for (; t + 3 < tris; t += 4, e += 12) {
            mix(0, tri(key(e[0]), key(e[1]), key(e[2])));
            mix(1, tri(key(e[3]), key(e[4]), key(e[5])));
            mix(2, tri(key(e[6]), key(e[7]), key(e[8])));
            mix(3, tri(key(e[9]), key(e[10]), key(e[11])));
        }
        for (; t < tris; ++t, e += 3) push(tri(key(e[0]), key(e[1]), key(e[2])));
        totals.triangles += tris;
    } else if (prim == Prim::triangle_strip) {
        // GL's order: odd triangles swap two vertices. Each element's key is read once.
        const size_t tris = elts.size() >= 3 ? elts.size() - 2 : 0;
        const bool last = provoking == Provoking::last;
        if (tris > 0) {
            // Four triangles per step, each into its own chain (lanes fixed: in registers).
            uint64_t k0 = key(e[0]), k1 = key(e[1]);
            // Triangle (a, b, c) at an odd position, in GL's vertex order.
            auto odd = [last](uint64_t a, uint64_t b, uint64_t c) {
                return last ? tri(b, a, c) : tri(a, c, b);
            };
            size_t i = 0;
            for (; i + 3 < tris; i += 4) {
                const uint64_t k2 = key(e[i + 2]), k3 = key(e[i + 3]);
                const uint64_t k4 = key(e[i + 4]), k5 = key(e[i + 5]);
                mix(0, tri(k0, k1, k2));
                mix(1, odd(k1, k2, k3));
                mix(2, tri(k2, k3, k4));
                mix(3, odd(k3, k4, k5));
                k0 = k4, k1 = k5;
            }
            for (; i < tris; ++i) {
                const uint64_t k2 = key(e[i + 2]);
                push(i % 2 ? odd(k0, k1, k2) : tri(k0, k1, k2));
                k0 = k1, k1 = k2;
            }
        }
        totals.triangles += tris;
    } else {
        decompose_elements(prim, provoking, elts, [&](uint32_t n, const uint32_t* v) {
            uint64_t& count = n == 1 ? totals.points : n == 2 ? totals.lines : totals.triangles;
            ++count;
            const uint64_t k = n == 1   ? key(v[0])
                               : n == 2 ? tri(key(v[0]), key(v[1]), 0)
                                        : tri(key(v[0]), key(v[1]), key(v[2]));
            push(k);
        });
    }
}

} // namespace

void CountingBackend::begin_draw(const DrawInfo& draw, const VertexLayout&) {
    provoking_ = draw.provoking;
}

void CountingBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                    std::span<const uint32_t> elts) {
    uint64_t lane[4] = {0, 0, 0, 0};
    count_call(prim, provoking_, vertices, elts, totals_, lane);
    for (const uint64_t l : lane) totals_.checksum = (totals_.checksum ^ l) * kPrime;
}

void CountingBackend::draw_elements_at(const BatchOrder& at, const DrawInfo& draw, Prim prim,
                                       uint8_t, const VertexView& vertices,
                                       std::span<const uint32_t> elts) {
    Totals t;
    uint64_t lane[4] = {0, 0, 0, 0};
    count_call(prim, draw.provoking, vertices, elts, t, lane);
    // The call's own checksum, keyed by its place and summed: the total does not depend on
    // the order calls arrive in, and does on what each place received. The draw's place
    // weighs it by kPrime^draw, which totals() divides out for the first draw since reset():
    // the context numbers draws over its life, and a redraw must sum the same.
    uint64_t c = at.segment * kPrime ^ at.part;
    for (const uint64_t l : lane) c = (c ^ l) * kPrime;
    c ^= c >> 29;
    c *= prime_power(at.draw);
    // Threads add into slots by thread, so that shading threads rarely meet on one lock.
    const size_t slot = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kSlots;
    Slot& s = slots_[slot];
    std::lock_guard lock(s.mutex);
    s.totals.calls += t.calls;
    s.totals.elements += t.elements;
    s.totals.points += t.points;
    s.totals.lines += t.lines;
    s.totals.triangles += t.triangles;
    s.totals.checksum += c;
    s.first_draw = std::min(s.first_draw, at.draw);
}

CountingBackend::Totals CountingBackend::totals() const {
    Totals sum = totals_;
    uint64_t first = UINT64_MAX, parallel_sum = 0;
    for (const Slot& s : slots_) {
        std::lock_guard lock(s.mutex);
        first = std::min(first, s.first_draw);
        parallel_sum += s.totals.checksum;
        sum.calls += s.totals.calls;
        sum.elements += s.totals.elements;
        sum.points += s.totals.points;
        sum.lines += s.totals.lines;
        sum.triangles += s.totals.triangles;
    }
    // kPrime is odd, so it has an inverse modulo 2^64 (Newton's iteration doubles the
    // correct low bits, from the 3 that x = a gets right).
    uint64_t inverse = kPrime;
    for (int i = 0; i < 5; ++i) inverse *= 2 - kPrime * inverse;
    if (first != UINT64_MAX) sum.checksum += parallel_sum * power(inverse, first);
    return sum;
}

void CountingBackend::reset() {
    totals_ = {};
    for (Slot& s : slots_) {
        std::lock_guard lock(s.mutex);
        s.totals = {};
        s.first_draw = UINT64_MAX;
    }
}

} // namespace drawpipe
