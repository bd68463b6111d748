// The vectorised fetch / shade / emit kernels (draw/shade/fetch_plan.hpp), compiled once
// per Highway target (foreach_target) and chosen at run time (HWY_DYNAMIC_DISPATCH): SSE4,
// AVX2, AVX-512 on x86. Bit for bit what shade_vertices (draw/shade/shading.cpp) writes.
//
// Per block of kShaderLanes vertices:
//   fetch  each attribute into its four SoA rows. Fast formats (32-bit components) read a
//          linear in-buffer run with de-interleaving loads, anything else is staged one
//          element (16 bytes) per lane and transposed with LoadInterleaved4; other formats
//          stage through fetch_attrib; instanced attributes are fetched once and broadcast.
//   shade  the vertex shader, one call per block.
//   post   with a RasterPlan (PostShadeJob): post_shade's clip masks and window coordinates,
//          computed on the position rows, bit for bit the same operations.
//   emit   the record rows (header, then the outputs) transposed 4 x 4 into the records.
#include "draw/shade/fetch_plan.hpp"
#include "draw/shade/raster_plan.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "draw/shade/simd_shade.cpp"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace drawpipe {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DU = hn::ScalableTag<uint32_t>;
using VU = hn::Vec<DU>;
constexpr uint32_t kLanes = kShaderLanes;
constexpr uint32_t kMaxOut = kMaxRecordDwords - SLOT_POSITION;

// Lanes [0, kShaderLanes) of `row` = value.
HWY_INLINE void fill_row(uint32_t* HWY_RESTRICT row, uint32_t value) {
    const DU d;
    const VU v = hn::Set(d, value);
    for (uint32_t l = 0; l < kLanes; l += uint32_t(hn::Lanes(d))) hn::Store(v, d, row + l);
}

// rows[c][l] = staged[l][c] for l in [from, count) (whole vectors: rows hold kShaderLanes).
HWY_INLINE void staged_to_rows(const uint32_t (*HWY_RESTRICT staged)[4], uint32_t from,
                               uint32_t count, uint32_t* const* rows) {
    const DU d;
    const uint32_t n = uint32_t(hn::Lanes(d));
    for (uint32_t l = from; l < count; l += n) {
        VU v0, v1, v2, v3;
        hn::LoadInterleaved4(d, &staged[l][0], v0, v1, v2, v3);
        hn::Store(v0, d, rows[0] + l);
        hn::Store(v1, d, rows[1] + l);
        hn::Store(v2, d, rows[2] + l);
        hn::Store(v3, d, rows[3] + l);
    }
}

// Stages the elements of ids[from .. count) of a fast attribute with C components, with
// fetch_attrib's rules: outside the buffer all four dwords are 0.
template <uint32_t C>
HWY_INLINE void stage_fast(const AttribPlan& a, const uint32_t* HWY_RESTRICT ids, uint32_t from,
                           uint32_t count, uint32_t (*HWY_RESTRICT staged)[4]) {
    // Locals: the stores into `staged` could otherwise alias the plan's fields.
    const unsigned char* const base = a.base;
    const uint64_t stride = a.stride, last = a.last;
    const uint32_t one = a.one;
    for (uint32_t l = from; l < count; ++l) {
        const uint32_t e = ids[l];
        uint32_t* s = staged[l];
        if (e <= last) {
            std::memcpy(s, base + uint64_t(e) * stride, 4 * C);
            for (uint32_t c = C; c < 3; ++c) s[c] = 0;
            if constexpr (C < 4) s[3] = one;
        } else {
            s[0] = s[1] = s[2] = s[3] = 0;
        }
    }
}

#if HWY_TARGET != HWY_SCALAR
// A 4 x 4 transpose in registers: (a, b, c, e) as rows in, as columns out.
template <class D4, class V4 = hn::Vec<D4>>
HWY_INLINE void transpose4(D4 d4, V4 a, V4 b, V4 c, V4 e, V4& t0, V4& t1, V4& t2, V4& t3) {
    const V4 ac_lo = hn::InterleaveLower(d4, a, c), ac_hi = hn::InterleaveUpper(d4, a, c);
    const V4 be_lo = hn::InterleaveLower(d4, b, e), be_hi = hn::InterleaveUpper(d4, b, e);
    t0 = hn::InterleaveLower(d4, ac_lo, be_lo);
    t1 = hn::InterleaveUpper(d4, ac_lo, be_lo);
    t2 = hn::InterleaveLower(d4, ac_hi, be_hi);
    t3 = hn::InterleaveUpper(d4, ac_hi, be_hi);
}

// Four-component elements at listed ids: each lane's element is one 16-byte load, four lanes
// are transposed in registers straight into the rows (no staging through memory). Lanes
// [from, count) rounded up to 4; lanes at or past `count` read as 0.
HWY_INLINE void gather_fast4(const AttribPlan& a, const uint32_t* HWY_RESTRICT ids, uint32_t from,
                             uint32_t count, uint32_t* const* rows) {
    const hn::Full128<uint32_t> d4;
    const hn::Full128<uint8_t> d8;
    using V4 = hn::Vec<decltype(d4)>;
    const unsigned char* const base = a.base;
    const uint64_t stride = a.stride, last = a.last;
    auto element = [&](uint32_t e) {
        return e <= last ? hn::BitCast(d4, hn::LoadU(d8, base + uint64_t(e) * stride))
                         : hn::Zero(d4);
    };
    uint32_t l = from;
    for (; l + 4 <= count; l += 4) {
        V4 t0, t1, t2, t3;
        transpose4(d4, element(ids[l]), element(ids[l + 1]), element(ids[l + 2]),
                   element(ids[l + 3]), t0, t1, t2, t3);
        hn::StoreU(t0, d4, rows[0] + l);
        hn::StoreU(t1, d4, rows[1] + l);
        hn::StoreU(t2, d4, rows[2] + l);
        hn::StoreU(t3, d4, rows[3] + l);
    }
    if (l < count) {
        V4 v[4];
        for (uint32_t j = 0; j < 4; ++j) v[j] = l + j < count ? element(ids[l + j]) : hn::Zero(d4);
        V4 t0, t1, t2, t3;
        transpose4(d4, v[0], v[1], v[2], v[3], t0, t1, t2, t3);
        hn::StoreU(t0, d4, rows[0] + l);
        hn::StoreU(t1, d4, rows[1] + l);
        hn::StoreU(t2, d4, rows[2] + l);
        hn::StoreU(t3, d4, rows[3] + l);
    }
}
#endif

// A linear run of ids (id0 + l) wholly inside the buffer, elements tightly packed (stride =
// 4 * C) and dword-aligned: de-interleaving loads straight from the buffer; returns the lanes
// done (whole vectors), the rest is staged by the caller.
template <uint32_t C>
HWY_INLINE uint32_t direct_linear(const AttribPlan& a, uint32_t id0, uint32_t count,
                                  uint32_t* const* rows) {
    const DU d;
    const uint32_t n = uint32_t(hn::Lanes(d));
    const auto* src = reinterpret_cast<const uint32_t*>(a.base + uint64_t(id0) * a.stride);
    const VU zero = hn::Zero(d), one = hn::Set(d, a.one);
    uint32_t l = 0;
    for (; l + n <= count; l += n) {
        VU v0, v1, v2, v3;
        if constexpr (C == 4) {
            hn::LoadInterleaved4(d, src + 4 * l, v0, v1, v2, v3);
        } else if constexpr (C == 3) {
            hn::LoadInterleaved3(d, src + 3 * l, v0, v1, v2);
            v3 = one;
        } else if constexpr (C == 2) {
            hn::LoadInterleaved2(d, src + 2 * l, v0, v1);
            v2 = zero;
            v3 = one;
        } else {
            v0 = hn::LoadU(d, src + l);
            v1 = v2 = zero;
            v3 = one;
        }
        hn::Store(v0, d, rows[0] + l);
        hn::Store(v1, d, rows[1] + l);
        hn::Store(v2, d, rows[2] + l);
        hn::Store(v3, d, rows[3] + l);
    }
    return l;
}

template <uint32_t C>
HWY_INLINE void fetch_fast(const AttribPlan& a, const uint32_t* HWY_RESTRICT ids, bool linear,
                           uint32_t count, uint32_t* const* rows,
                           uint32_t (*HWY_RESTRICT staged)[4]) {
    uint32_t done = 0;
    if (linear) {
        const uint32_t id0 = ids[0], id_last = ids[0] + (count - 1);
        if (id_last >= id0 && id_last <= a.last && a.stride == 4 * C &&
            reinterpret_cast<uintptr_t>(a.base) % 4 == 0)
            done = direct_linear<C>(a, id0, count, rows);
    }
    if (done < count) {
#if HWY_TARGET != HWY_SCALAR
        if constexpr (C == 4) return gather_fast4(a, ids, done, count, rows);
#endif
        stage_fast<C>(a, ids, done, count, staged);
        staged_to_rows(staged, done, count, rows);
    }
}

// One attribute's four rows for the block's vertices `ids[0 .. count)`.
HWY_INLINE void fetch_attribute(const AttribPlan& a, const uint32_t* HWY_RESTRICT ids, bool linear,
                                uint32_t count, uint32_t* const* rows,
                                uint32_t (*HWY_RESTRICT staged)[4]) {
    switch (a.kind) {
    case FetchKind::zero:
        for (uint32_t c = 0; c < 4; ++c) fill_row(rows[c], 0);
        return;
    case FetchKind::fast:
        switch (a.comps) {
        case 1:
            return fetch_fast<1>(a, ids, linear, count, rows, staged);
        case 2:
            return fetch_fast<2>(a, ids, linear, count, rows, staged);
        case 3:
            return fetch_fast<3>(a, ids, linear, count, rows, staged);
        default:
            return fetch_fast<4>(a, ids, linear, count, rows, staged);
        }
    case FetchKind::fallback:
        for (uint32_t l = 0; l < count; ++l) fetch_attrib(a.buffer, a.attrib, ids[l], staged[l]);
        staged_to_rows(staged, 0, count, rows);
        return;
    }
}

#if HWY_TARGET != HWY_SCALAR
// Four rows' lanes l .. l+3 transposed: t[j] = (r0[l+j], r1[l+j], r2[l+j], r3[l+j]).
template <class D4, class V4 = hn::Vec<D4>>
HWY_INLINE void transpose4(D4 d4, const uint32_t* const* r, uint32_t l, V4& t0, V4& t1, V4& t2,
                           V4& t3) {
    transpose4(d4, hn::Load(d4, r[0] + l), hn::Load(d4, r[1] + l), hn::Load(d4, r[2] + l),
               hn::Load(d4, r[3] + l), t0, t1, t2, t3);
}
#endif

// Records [0, count) at `out`, `stride` dwords each: record dword k of vertex l = rows[k][l].
HWY_INLINE void emit_block(const uint32_t* const* rows, uint32_t stride, uint32_t count,
                           uint32_t* HWY_RESTRICT out) {
#if HWY_TARGET == HWY_SCALAR
    for (uint32_t l = 0; l < count; ++l)
        for (uint32_t k = 0; k < stride; ++k)
            std::memcpy(&out[size_t(l) * stride + k], rows[k] + l, 4);
#else
    const hn::Full128<uint32_t> d4;
    using V4 = hn::Vec<decltype(d4)>;
    const uint32_t whole = count & ~3u;
    const uint32_t quads = stride & ~3u;
    for (uint32_t k = 0; k < quads; k += 4) {
        const uint32_t* const* r = rows + k;
        uint32_t* o = out + k;
        uint32_t l = 0;
        for (; l < whole; l += 4) {
            V4 t0, t1, t2, t3;
            transpose4(d4, r, l, t0, t1, t2, t3);
            hn::StoreU(t0, d4, o + size_t(l) * stride);
            hn::StoreU(t1, d4, o + size_t(l + 1) * stride);
            hn::StoreU(t2, d4, o + size_t(l + 2) * stride);
            hn::StoreU(t3, d4, o + size_t(l + 3) * stride);
        }
        if (l < count) {
            V4 t[4];
            transpose4(d4, r, l, t[0], t[1], t[2], t[3]);
            for (uint32_t j = 0; l + j < count; ++j)
                hn::StoreU(t[j], d4, o + size_t(l + j) * stride);
        }
    }
    // The last 1-3 dwords of a record (special outputs).
    if (quads == stride) return;
    for (uint32_t l = 0; l < count; ++l)
        for (uint32_t k = quads; k < stride; ++k)
            std::memcpy(&out[size_t(l) * stride + k], rows[k] + l, 4);
#endif
}

// post_shade on the block's position rows `pos` (lanes [0, count)): masks into
// post.clip_mask, clip-space rows into post.clip_soa, window coordinates into `win`, the
// same operations in the same order as post_shade, so the records are bit for bit its.
// The plan's figures post_block uses, copied once per call into locals: read through the
// plan, they would be reloaded every block (the row stores might alias them).
struct PostScalars {
    float scale[3], translate[3];
    uint32_t user_planes, distances, distance_slot;
    std::array<std::array<float, 4>, kMaxClipDistances> planes;
    ZClip z_clip;
    int32_t clip_vertex_slot; // the clip vertex's first row, or -1: the position
};

PostScalars post_scalars(const RasterPlan& plan) {
    return {{plan.scale[0], plan.scale[1], plan.scale[2]},
            {plan.translate[0], plan.translate[1], plan.translate[2]},
            plan.user_planes,
            plan.layout.outputs.clip_distances,
            plan.layout.clip_distance_slot(),
            plan.state.clip_planes,
            plan.z_clip,
            plan.state.clip_vertex_varying < 0
                ? -1
                : int32_t(plan.layout.varying_slot(uint32_t(plan.state.clip_vertex_varying)))};
}

// ndc * scale + translate rounded once, as post_shade does it (std::fma): by the target's FMA
// instruction, or lane by lane where it has none, so every target's records are the same.
template <class D, class V> HWY_INLINE V fused_viewport(D d, V ndc, V scale, V translate) {
#if HWY_NATIVE_FMA
    (void)d;
    return hn::MulAdd(ndc, scale, translate);
#else
    constexpr size_t kMax = hn::MaxLanes(D());
    HWY_ALIGN float a[kMax], s[kMax], t[kMax];
    hn::Store(ndc, d, a), hn::Store(scale, d, s), hn::Store(translate, d, t);
    for (size_t i = 0; i < hn::Lanes(d); ++i) a[i] = std::fma(a[i], s[i], t[i]);
    return hn::Load(d, a);
#endif
}

HWY_INLINE void post_block(PostShadeJob& post, const PostScalars& ps, const uint32_t* const* rows,
                           const uint32_t* const* pos, uint32_t first, uint32_t count,
                           float* const* win, VU& clip_or, bool& soa) {
    const DU du;
    const hn::Repartition<float, DU> df;
    using VF = hn::Vec<decltype(df)>;
    const hn::Rebind<int32_t, DU> di;
    const hn::Rebind<uint16_t, DU> d16;
    const uint32_t n = uint32_t(hn::Lanes(du));
    const VF sx = hn::Set(df, ps.scale[0]), sy = hn::Set(df, ps.scale[1]);
    const VF sz = hn::Set(df, ps.scale[2]), tx = hn::Set(df, ps.translate[0]);
    const VF ty = hn::Set(df, ps.translate[1]), tz = hn::Set(df, ps.translate[2]);
    const VF zero = hn::Zero(df), one = hn::Set(df, 1.0f);
    // Clip control's zero_to_one bounds z below by 0, depth clamp not at all (post_shade);
    // GL's -w <= z <= w, the common case, tests nothing more.
    const bool z_full = ps.z_clip == ZClip::full;
    const auto z_from_zero = hn::FirstN(df, ps.z_clip == ZClip::half ? n : 0);
    const auto z_free = hn::FirstN(df, ps.z_clip == ZClip::none ? n : 0);
    const uint32_t distances = ps.distances;
    const uint32_t distance_slot = ps.distance_slot;
    float* soa_rows = post.clip_soa + 4 * size_t(first);
    for (uint32_t l = 0; l < count; l += n) {
        const VF x = hn::BitCast(df, hn::Load(du, pos[0] + l));
        const VF y = hn::BitCast(df, hn::Load(du, pos[1] + l));
        const VF z = hn::BitCast(df, hn::Load(du, pos[2] + l));
        const VF w = hn::BitCast(df, hn::Load(du, pos[3] + l));
        // Outside when `>= -w` (or `<= w`) fails, so NaN counts as outside.
        const VF nw = hn::Neg(w);
        auto bit = [&](auto inside, uint32_t b) {
            return hn::IfThenZeroElse(hn::RebindMask(du, inside), hn::Set(du, b));
        };
        const auto lo_x = hn::Ge(x, nw), lo_y = hn::Ge(y, nw);
        auto lo_z = hn::Ge(z, nw);
        const auto hi_x = hn::Le(x, w), hi_y = hn::Le(y, w);
        auto hi_z = hn::Le(z, w);
        if (!z_full) {
            lo_z = hn::Or(hn::Ge(z, hn::IfThenElse(z_from_zero, zero, nw)), z_free);
            hi_z = hn::Or(hi_z, z_free);
        }
        // Inside x and y bound them by w, so w and z (unbounded without z clipping) decide
        // whether the position is finite (post_shade's CLIP_NONFINITE).
        const auto finite = hn::And(hn::IsFinite(w), hn::IsFinite(z));
        VU m = hn::Zero(du);
        // The common block, every lane inside the view volume, skips the seven bit selects.
        if (!hn::AllTrue(df, hn::And(hn::And(hn::And(lo_x, lo_y), hn::And(lo_z, hi_x)),
                                     hn::And(hn::And(hi_y, hi_z), finite)))) {
            const auto all_finite = hn::And(finite, hn::And(hn::IsFinite(x), hn::IsFinite(y)));
            m = hn::Or(hn::Or(bit(lo_x, CLIP_LEFT), bit(lo_y, CLIP_BOTTOM)), bit(lo_z, CLIP_NEAR));
            m = hn::Or(
                m, hn::Or(hn::Or(bit(hi_x, CLIP_RIGHT), bit(hi_y, CLIP_TOP)), bit(hi_z, CLIP_FAR)));
            m = hn::Or(m, bit(all_finite, CLIP_NONFINITE));
        }
        if (ps.user_planes) {
            // The planes measure the clip vertex (gl_ClipVertex) where there is one, else the
            // position; loaded here, so that a draw without user planes keeps no more live
            // vectors than before them (the kernel is register-bound).
            const uint32_t* const* cv = ps.clip_vertex_slot >= 0 ? rows + ps.clip_vertex_slot : pos;
            const VF cx = hn::BitCast(df, hn::Load(du, cv[0] + l));
            const VF cy = hn::BitCast(df, hn::Load(du, cv[1] + l));
            const VF cz = hn::BitCast(df, hn::Load(du, cv[2] + l));
            const VF cw = hn::BitCast(df, hn::Load(du, cv[3] + l));
            for (uint32_t u = ps.user_planes; u; u &= u - 1) {
                const uint32_t k = uint32_t(__builtin_ctz(u));
                VF d;
                if (k < distances) {
                    d = hn::BitCast(df, hn::Load(du, rows[distance_slot + k] + l));
                } else {
                    const auto& c = ps.planes[k];
                    d = hn::Add(hn::Add(hn::Add(hn::Mul(hn::Set(df, c[0]), cx),
                                                hn::Mul(hn::Set(df, c[1]), cy)),
                                        hn::Mul(hn::Set(df, c[2]), cz)),
                                hn::Mul(hn::Set(df, c[3]), cw));
                }
                m = hn::Or(m, bit(hn::Ge(d, zero), CLIP_USER0 << k));
            }
        }
        if (l + n > count) m = hn::IfThenElseZero(hn::FirstN(du, count - l), m);
        clip_or = hn::Or(clip_or, m);
        if (!soa && !hn::AllTrue(du, hn::Eq(m, hn::Zero(du)))) {
            // The first vertex outside: masks and clip-space rows from this block on, its
            // earlier vectors included (their masks are 0).
            soa = true;
            post.soa_from = first;
            std::fill_n(post.clip_mask + first, l, uint16_t(0));
            for (uint32_t c = 0; c < 4; ++c) std::memcpy(soa_rows + c * kLanes, pos[c], 4 * l);
        }
        if (soa) {
            hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, m)), d16, post.clip_mask + first + l);
            hn::StoreU(x, df, soa_rows + l);
            hn::StoreU(y, df, soa_rows + kLanes + l);
            hn::StoreU(z, df, soa_rows + 2 * kLanes + l);
            hn::StoreU(w, df, soa_rows + 3 * kLanes + l);
        }
        // Window coordinates: xyz / w * scale + translate, and 1 / w in the w slot.
        const VF iw = hn::Div(one, w);
        hn::Store(fused_viewport(df, hn::Mul(x, iw), sx, tx), df, win[0] + l);
        hn::Store(fused_viewport(df, hn::Mul(y, iw), sy, ty), df, win[1] + l);
        hn::Store(fused_viewport(df, hn::Mul(z, iw), sz, tz), df, win[2] + l);
        hn::Store(iw, df, win[3] + l);
    }
}

// ids[l] = the block's vertex ids, lanes [0, count) (whole vectors for linear ids).
HWY_INLINE void block_ids(const ShadeJob& job, uint32_t first, uint32_t count,
                          uint32_t* HWY_RESTRICT ids) {
    const DU d;
    const uint32_t n = uint32_t(hn::Lanes(d));
    if (!job.elts) {
        const VU step = hn::Set(d, n);
        VU v = hn::Iota(d, job.first_or_bias + first); // wraps mod 2^32 as the reference does
        for (uint32_t l = 0; l < kLanes; l += n, v = hn::Add(v, step)) hn::Store(v, d, ids + l);
        return;
    }
    const uint32_t* src = job.elts + first;
    const VU bias = hn::Set(d, job.first_or_bias);
    uint32_t l = 0;
    for (; l + n <= count; l += n) hn::Store(hn::Add(hn::LoadU(d, src + l), bias), d, ids + l);
    for (; l < count; ++l) ids[l] = src[l] + job.first_or_bias;
}

// Where a listed fetch's vertices are read from: one line per buffer its fast attributes start
// in (interleaved attributes share one). The rest (fallback formats, instanced or constant
// attributes) is left to the loads.
struct PrefetchStreams {
    uint32_t n = 0;
    std::array<uintptr_t, kMaxAttribs> base{}, stride{};
};

// Whether a listed fetch is scattered: 32 of its vertices, evenly spaced through the list, lie
// further apart than 8 vertices for each one listed. Denser lists (a mesh's, a grid's rows)
// stream at the pace of the processor's own prefetchers. A sample's spread is never more than
// the list's, so a list found scattered is.
HWY_INLINE bool scattered(const uint32_t* elts, uint32_t n) {
    uint32_t lo = UINT32_MAX, hi = 0;
    const uint32_t step = std::max(n / 32, 1u);
    for (uint32_t i = 0; i < n; i += step) {
        lo = std::min(lo, elts[i]);
        hi = std::max(hi, elts[i]);
    }
    return hi - lo > 8ull * n;
}

HWY_INLINE PrefetchStreams prefetch_streams(const FetchPlan& p) {
    PrefetchStreams s;
    for (uint32_t a = 0; a < p.attrib_count; ++a) {
        const AttribPlan& ap = p.attribs[a];
        if (ap.constant || ap.kind != FetchKind::fast || ap.stride == 0) continue;
        const uintptr_t base = reinterpret_cast<uintptr_t>(ap.base);
        bool known = false;
        for (uint32_t k = 0; k < s.n; ++k)
            known |= s.stride[k] == ap.stride && s.base[k] >> 6 == base >> 6;
        if (!known) {
            s.base[s.n] = base;
            s.stride[s.n++] = ap.stride;
        }
    }
    return s;
}

// Asks for the lines of vertices elts[0 .. count) + bias. A prefetch never faults, so an id
// past its buffer (which the fetch itself bounds) is harmless; hence integer addresses.
HWY_INLINE void prefetch_vertices(const PrefetchStreams& s, const uint32_t* elts, uint32_t bias,
                                  uint32_t count) {
    for (uint32_t k = 0; k < s.n; ++k)
        for (uint32_t l = 0; l < count; ++l)
            hwy::Prefetch(reinterpret_cast<const uint8_t*>(s.base[k] +
                                                           s.stride[k] * uint32_t(elts[l] + bias)));
}

} // namespace

void ShadeVertices(const ShadeJob& job) {
    const FetchPlan& p = *job.plan;
    const uint32_t attribs = p.attrib_count;
    const uint32_t stride = p.stride;
    const uint32_t out_count = stride - SLOT_POSITION;

    HWY_ALIGN float in[4 * kMaxAttribs][kLanes];
    HWY_ALIGN float outs[kMaxOut][kLanes];
    HWY_ALIGN uint32_t ids[kLanes];
    HWY_ALIGN uint32_t instance[kLanes];
    HWY_ALIGN uint32_t draw_id[kLanes];
    HWY_ALIGN uint32_t zero[kLanes];
    HWY_ALIGN uint32_t one[kLanes];
    HWY_ALIGN uint32_t staged[kLanes][4] = {};
    HWY_ALIGN float win[4][kLanes];
    fill_row(instance, job.instance);
    fill_row(draw_id, job.draw_id);
    fill_row(zero, 0);
    fill_row(one, 0x3f800000u); // 1.0f

    // Rows of each attribute (as dwords), and of each record dword.
    uint32_t* in_dwords[4 * kMaxAttribs];
    const float* in_rows[4 * kMaxAttribs];
    float* out_rows[kMaxOut];
    const uint32_t* rows[kMaxRecordDwords];
    for (uint32_t r = 0; r < 4 * attribs; ++r) {
        in_dwords[r] = reinterpret_cast<uint32_t*>(in[r]);
        in_rows[r] = in[r];
    }
    std::fill_n(rows, stride, zero);
    rows[SLOT_VERTEX_ID] = ids;
    rows[SLOT_INSTANCE_ID] = instance;
    rows[SLOT_DRAW_ID] = draw_id;
    if (p.vs) {
        for (uint32_t r = 0; r < out_count; ++r) {
            out_rows[r] = outs[r];
            rows[SLOT_POSITION + r] = reinterpret_cast<const uint32_t*>(outs[r]);
        }
    } else {
        // Pass-through: attribute a is varying a, attribute 0 also the position.
        for (uint32_t c = 0; c < 4; ++c)
            rows[SLOT_POSITION + c] = attribs > 0 ? in_dwords[c] : (c == 3 ? one : zero);
        for (uint32_t r = 0; r < 4 * attribs; ++r) rows[kVertexHeaderDwords + r] = in_dwords[r];
    }

    // With the per-vertex step fused, the records take the window rows and the clip-space
    // rows stay where the shader left them.
    const uint32_t* pos[4];
    float* win_rows[4];
    const DU du;
    VU clip_or = hn::Zero(du);
    for (uint32_t c = 0; c < 4; ++c) {
        pos[c] = rows[SLOT_POSITION + c];
        win_rows[c] = win[c];
        if (job.post) rows[SLOT_POSITION + c] = reinterpret_cast<const uint32_t*>(win[c]);
    }

    // Instanced attributes and disabled arrays read one value for the whole call.
    uint32_t constant[kMaxAttribs][4];
    for (uint32_t a = 0; a < attribs; ++a) {
        const AttribPlan& ap = p.attribs[a];
        if (ap.constant)
            fetch_attrib(ap.buffer, ap.attrib,
                         attrib_element(ap.attrib, 0, job.instance, p.base_instance), constant[a]);
    }

    const PostScalars ps = job.post ? post_scalars(*job.post->plan) : PostScalars{};
    bool soa = job.post && job.post->soa_all;
    if (job.post) job.post->soa_from = 0;
    // A scattered listed fetch waits on memory at every block: the next block's vertices are
    // asked for before this one is fetched (W3: random vertices of a 16 MB buffer).
    const PrefetchStreams streams = job.elts && job.n > kLanes && scattered(job.elts, job.n)
                                        ? prefetch_streams(p)
                                        : PrefetchStreams{};
    for (uint32_t first = 0; first < job.n; first += kLanes) {
        const uint32_t count = std::min(kLanes, job.n - first);
        if (streams.n && first + kLanes < job.n)
            prefetch_vertices(streams, job.elts + first + kLanes, job.first_or_bias,
                              std::min(kLanes, job.n - first - kLanes));
        block_ids(job, first, count, ids);
        for (uint32_t a = 0; a < attribs; ++a) {
            const AttribPlan& ap = p.attribs[a];
            uint32_t* const* arows = in_dwords + 4 * a;
            if (ap.constant) {
                for (uint32_t c = 0; c < 4; ++c) fill_row(arows[c], constant[a][c]);
            } else {
                fetch_attribute(ap, ids, job.elts == nullptr, count, arows, staged);
            }
        }
        if (p.vs) {
            for (uint32_t r = 0; r < out_count; ++r)
                fill_row(reinterpret_cast<uint32_t*>(outs[r]), p.preset[SLOT_POSITION + r]);
            p.vs->run(
                {count, 4 * attribs, out_count, ids, instance, in_rows, out_rows, job.draw_id});
        }
        if (job.post) post_block(*job.post, ps, rows, pos, first, count, win_rows, clip_or, soa);
        emit_block(rows, stride, count, job.out + size_t(first) * stride);
    }
    if (job.post) {
        HWY_ALIGN uint32_t lanes[hn::MaxLanes(DU())];
        hn::Store(clip_or, du, lanes);
        for (uint32_t l = 0; l < hn::Lanes(du); ++l) job.post->clip_or |= lanes[l];
    }
}

void EmitElts(const uint16_t* src, uint32_t n, uint32_t base, uint32_t* dst) {
    const DU d;
    const uint32_t lanes = uint32_t(hn::Lanes(d));
    const VU vbase = hn::Set(d, base);
    uint32_t i = 0;
    if (!src) {
        const VU step = hn::Set(d, lanes);
        VU v = hn::Iota(d, base);
        for (; i + lanes <= n; i += lanes, v = hn::Add(v, step)) hn::StoreU(v, d, dst + i);
        for (; i < n; ++i) dst[i] = base + i;
        return;
    }
    const hn::Rebind<uint16_t, DU> d16;
    for (; i + lanes <= n; i += lanes)
        hn::StoreU(hn::Add(hn::PromoteTo(d, hn::LoadU(d16, src + i)), vbase), d, dst + i);
    for (; i < n; ++i) dst[i] = base + src[i];
}

void EmitRecords(const uint32_t* const* rows, uint32_t stride, uint32_t count, uint32_t* out) {
    emit_block(rows, stride, count, out);
}

const char* TargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace drawpipe
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace drawpipe {

HWY_EXPORT(ShadeVertices);
HWY_EXPORT(EmitElts);
HWY_EXPORT(EmitRecords);
HWY_EXPORT(TargetName);

void simd_shade_vertices(const ShadeJob& job) {
    HWY_DYNAMIC_DISPATCH(ShadeVertices)(job);
}

void simd_emit_elts(const uint16_t* src, uint32_t n, uint32_t base, uint32_t* dst) {
    HWY_DYNAMIC_DISPATCH(EmitElts)(src, n, base, dst);
}

void simd_emit_records(const uint32_t* const* rows, uint32_t stride, uint32_t count,
                       uint32_t* out) {
    HWY_DYNAMIC_DISPATCH(EmitRecords)(rows, stride, count, out);
}

const char* simd_target_name() {
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace drawpipe
#endif
