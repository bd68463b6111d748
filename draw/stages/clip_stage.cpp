// Clipping in homogeneous clip space (Sutherland-Hodgman over the planes a primitive's
// vertices are outside of), as Mesa's draw_pipe_clip does it: the result keeps the provoking
// vertex's flat outputs and is re-emitted as a fan that keeps the provoking vertex first or
// last.
#include "draw/stages/stages.hpp"

#include <boost/container/small_vector.hpp>

#include <cmath>

namespace drawpipe {

struct ClipStage::ClipVertex {
    const uint32_t* record; // window coordinates in its position
    float pos[4];           // clip space
    bool edge;              // the edge from this vertex to the next is drawn (polygon mode)
};

ClipStage::ClipStage(const RasterPlan& plan) : plan_(plan) {
    const uint32_t stride = plan.layout.stride();
    index_shift_ = uint32_t(__builtin_ctz(stride));
    const uint32_t odd = stride >> index_shift_;
    // Newton's iteration doubles the correct low bits: odd * odd = 1 mod 8 gives 3, then 6,
    // 12, 24, 48.
    uint32_t inverse = odd;
    for (int i = 0; i < 4; ++i) inverse *= 2 - odd * inverse;
    index_inverse_ = inverse;
}

uint32_t ClipStage::mask_of(const uint32_t* v) const {
    return batch_->clip.clip_mask[index_of(v)];
}

const float* ClipStage::clip_pos_of(const uint32_t* v) const {
    return &batch_->clip.clip_pos[4 * size_t(index_of(v))];
}

uint32_t* ClipStage::window(uint32_t* r) const {
    uint32_t* p = r + SLOT_POSITION;
    const float iw = 1.0f / dword_float(p[3]);
    const ViewportXform& x = xform_ ? *xform_ : plan_.viewports[0];
    for (uint32_t c = 0; c < 3; ++c)
        p[c] = float_dword(dword_float(p[c]) * iw * x.scale[c] + x.translate[c]);
    p[3] = float_dword(iw);
    return r;
}

StagePrim ClipStage::place_apart(const StagePrim& prim, uint32_t corners, uint32_t provoking) {
    viewport_ = plan_.viewport_of(prim.v[provoking]);
    xform_ = &plan_.viewports[viewport_];
    StagePrim placed = prim;
    for (uint32_t i = 0; i < corners; ++i) placed.v[i] = in_viewport(prim.v[i]);
    return placed;
}

const uint32_t* ClipStage::in_viewport(const uint32_t* v) {
    if (plan_.viewport_of(v) == viewport_) return v;
    // A vertex shared with a primitive of another viewport: post_shade placed it in its own
    // index's, this primitive takes its provoking vertex's (GL), so it is placed again here
    // with post_shade's arithmetic, from the clip-space position every such batch keeps.
    uint32_t* r = new_vertex(v);
    window_position(*xform_, clip_pos_of(v), reinterpret_cast<float*>(r + SLOT_POSITION));
    return r;
}

void ClipStage::copy_flat(uint32_t* dst, const uint32_t* provoking) const {
    const VertexLayout& l = plan_.layout;
    // The clip vertex is a point the planes measure, never a colour: the flat shade model
    // leaves it interpolated (Mesa's clipper interpolates it always), so that a new vertex
    // is measured against the next plane where it lies.
    const int32_t cv = plan_.state.clip_vertex_varying;
    for (uint32_t i = 0; i < l.varying_count(); ++i)
        if (int32_t(i) != cv && (plan_.state.flatshade || l.varying(i).interp == Interp::flat))
            for (uint32_t c = 0; c < 4; ++c)
                dst[l.varying_slot(i) + c] = provoking[l.varying_slot(i) + c];
}

void ClipStage::point(const StagePrim& prim) {
    // A point is kept or culled whole (its size does not matter: GL clips the vertex). It is
    // its own provoking vertex, so post_shade already put it in its viewport. A point whose
    // position is not finite (CLIP_NONFINITE) is dropped with those outside.
    if (batch_->clip.clip_or == 0 || mask_of(prim.v[0]) == 0) return next()->point(prim);
    --delta_;
}

namespace {

// Smooth outputs, point size and clip distances interpolate at the clip-space parameter t,
// noperspective outputs at the window-space one; integer outputs and the layer and viewport
// index come from the provoking vertex.
float lerp(float a, float b, float t) {
    return a + t * (b - a);
}

} // namespace

void ClipStage::line(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    const bool last = draw_.draw->provoking == Provoking::last;
    const StagePrim placed = place_in_viewport(prim, 2, last ? 1 : 0);
    if (batch_->clip.clip_or == 0) return next()->line(placed);
    const uint32_t m0 = mask_of(prim.v[0]), m1 = mask_of(prim.v[1]);
    if ((m0 | m1) == 0) return next()->line(placed);
    --delta_; // counted back when a piece is left
    // Both outside one plane, or a position not finite (dropped before clipping: GL leaves
    // such a primitive undefined, and clipping it would make more non-finite positions).
    if ((m0 & m1) || ((m0 | m1) & CLIP_NONFINITE)) return;
    // Mesa's arithmetic (draw_pipe_clip.c do_clip_line), so that the new ends fall on the
    // same subpixels: t0 is how far the start moves towards the end, t1 how far the end
    // moves towards the start, each the largest over the planes; the line is gone when they
    // meet. Infinite or NaN distances drop it.
    const float* p0 = clip_pos_of(prim.v[0]);
    const float* p1 = clip_pos_of(prim.v[1]);
    float t0 = 0, t1 = 0;
    for (uint32_t planes = m0 | m1; planes; planes &= planes - 1) {
        const uint32_t plane = uint32_t(__builtin_ctz(planes));
        const float d0 = plan_.distance(plane, p0, prim.v[0]);
        const float d1 = plan_.distance(plane, p1, prim.v[1]);
        if (!std::isfinite(d0) || !std::isfinite(d1)) return;
        if (d1 < 0) t1 = std::max(t1, d1 / (d1 - d0));
        if (d0 < 0) t0 = std::max(t0, d0 / (d0 - d1));
        if (t0 + t1 >= 1.0f) return;
    }
    const uint32_t* provoking = prim.v[last ? 1 : 0];
    StagePrim out = placed;
    // The end `at` moved by t towards the other one.
    auto make = [&](uint32_t at, float t) -> const uint32_t* {
        const uint32_t* from = prim.v[at];
        const uint32_t* to = prim.v[1 - at];
        const float* pf = at == 0 ? p0 : p1;
        const float* pt = at == 0 ? p1 : p0;
        uint32_t* r = new_vertex(provoking);
        const VertexLayout& l = plan_.layout;
        const float wt = lerp(pf[3], pt[3], t);
        const float s = wt != 0 ? t * pt[3] / wt : t; // the window-space parameter
        for (uint32_t c = 0; c < 4; ++c) r[SLOT_POSITION + c] = float_dword(lerp(pf[c], pt[c], t));
        for (uint32_t d = kVertexHeaderDwords; d < l.layer_slot(); ++d)
            r[d] = float_dword(lerp(dword_float(from[d]), dword_float(to[d]), t));
        for (uint32_t i = 0; i < l.varying_count(); ++i) {
            const Varying& v = l.varying(i);
            const uint32_t slot = l.varying_slot(i);
            for (uint32_t c = 0; c < 4; ++c) {
                if (v.interp == Interp::noperspective)
                    r[slot + c] = float_dword(
                        lerp(dword_float(from[slot + c]), dword_float(to[slot + c]), s));
                else if (v.type != ValueType::float32)
                    r[slot + c] = provoking[slot + c];
            }
        }
        copy_flat(r, provoking);
        return window(r);
    };
    if (m0) out.v[0] = make(0, t0);
    if (m1) out.v[1] = make(1, t1);
    ++delta_;
    next()->line(out);
}

void ClipStage::triangle(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    const bool last = draw_.draw->provoking == Provoking::last;
    const StagePrim placed = place_in_viewport(prim, 3, last ? 2 : 0);
    if (batch_->clip.clip_or == 0) return next()->triangle(placed);
    const uint32_t m[3] = {mask_of(prim.v[0]), mask_of(prim.v[1]), mask_of(prim.v[2])};
    if ((m[0] | m[1] | m[2]) == 0) return next()->triangle(placed);
    --delta_; // each triangle of the clipped polygon counts one back
    if ((m[0] & m[1] & m[2]) || ((m[0] | m[1] | m[2]) & CLIP_NONFINITE)) return; // as line()
    const uint32_t* provoking = placed.v[last ? 2 : 0];
    const VertexLayout& l = plan_.layout;
    bool any_flat = plan_.state.flatshade;
    for (uint32_t i = 0; i < l.varying_count(); ++i)
        any_flat |= l.varying(i).interp == Interp::flat;

    using List = boost::container::small_vector<ClipVertex, 24>;
    List in, out;
    for (uint32_t i = 0; i < 3; ++i) {
        ClipVertex v{placed.v[i], {}, bool(prim.flags & (PRIM_EDGE_0 << i))};
        std::copy_n(clip_pos_of(prim.v[i]), 4, v.pos);
        in.push_back(v);
    }
    auto interp = [&](const ClipVertex& a, const ClipVertex& b, float t) {
        uint32_t* r = new_vertex(provoking);
        ClipVertex v{r, {}, false};
        for (uint32_t c = 0; c < 4; ++c) v.pos[c] = lerp(a.pos[c], b.pos[c], t);
        for (uint32_t c = 0; c < 4; ++c) r[SLOT_POSITION + c] = float_dword(v.pos[c]);
        const float wt = v.pos[3];
        const float s = wt != 0 ? t * b.pos[3] / wt : t;
        for (uint32_t d = kVertexHeaderDwords; d < l.layer_slot(); ++d)
            r[d] = float_dword(lerp(dword_float(a.record[d]), dword_float(b.record[d]), t));
        for (uint32_t i = 0; i < l.varying_count(); ++i) {
            const Varying& vy = l.varying(i);
            const uint32_t slot = l.varying_slot(i);
            for (uint32_t c = 0; c < 4; ++c) {
                if (vy.interp == Interp::noperspective)
                    r[slot + c] = float_dword(
                        lerp(dword_float(a.record[slot + c]), dword_float(b.record[slot + c]), s));
                else if (vy.type != ValueType::float32)
                    r[slot + c] = provoking[slot + c];
            }
        }
        copy_flat(r, provoking);
        window(r);
        return v;
    };
    const uint32_t planes = m[0] | m[1] | m[2];
    // Mesa's plane order (draw_context.c: x <= w, x >= -w, y <= w, y >= -w, z >= -w, z <= w,
    // then the user planes), which decides where the polygon's vertex list starts and which
    // ends each crossing point is computed from.
    for (uint32_t left = planes; left;) {
        uint32_t plane = uint32_t(__builtin_ctz(left));
        for (const uint32_t view : {3u, 0u, 4u, 1u, 2u, 5u})
            if (left & (1u << view)) {
                plane = view;
                break;
            }
        left &= ~(1u << plane);
        const bool user = plane >= kViewPlanes;
        out.clear();
        for (size_t i = 0; i < in.size(); ++i) {
            const ClipVertex& a = in[i];
            const ClipVertex& b = in[(i + 1) % in.size()];
            const float da = plan_.distance(plane, a.pos, a.record);
            const float db = plan_.distance(plane, b.pos, b.record);
            if (da >= 0) out.push_back(a);
            if ((da >= 0) != (db >= 0)) {
                // The crossing point, computed from whichever end is closer to the plane
                // (the outside one on a tie), so that both triangles sharing an edge get the
                // same new vertex, with Mesa's arithmetic (draw_pipe_clip.c do_clip_tri) so
                // that it lands on the same subpixel.
                const float denom = db - da;
                const bool from_b = da >= 0 ? -db < da : !(-da < db);
                ClipVertex v = from_b ? interp(b, a, db / denom) : interp(a, b, -da / denom);
                // Leaving: the edge along the plane is drawn only for user planes. Entering:
                // the rest of a's edge keeps a's flag.
                v.edge = da >= 0 ? user : a.edge;
                out.push_back(v);
            }
        }
        in.swap(out);
        if (in.size() < 3) return;
    }
    // Vertices the fan reuses keep their own records, so flat outputs are copied into fresh
    // ones where the provoking vertex's differ.
    if (any_flat)
        for (ClipVertex& v : in)
            if (v.record != provoking) {
                uint32_t* r = new_vertex(v.record);
                copy_flat(r, provoking);
                v.record = r;
            }
    // A fan around the first vertex, in the input's winding, with the centre where the
    // provoking vertex goes, as Mesa's emit_poly orders it: (0, i, i+1) under Provoking::first,
    // (i, i+1, 0) under last. The order is the order polygon mode line and point draw the
    // edges and corners in. Every vertex now carries the provoking vertex's flat values.
    StagePrim t;
    const size_t n = in.size();
    for (size_t i = 1; i + 1 < n; ++i) {
        const ClipVertex &a = in[0], &b = in[i], &c = in[i + 1];
        // Edges a-b (the polygon's first), b-c, c-a (its last).
        const bool ab = i == 1 && a.edge, bc = b.edge, ca = i + 2 == n && c.edge;
        uint8_t e = 0;
        if (last) {
            t.v[0] = b.record, t.v[1] = c.record, t.v[2] = a.record;
            e = uint8_t((bc ? PRIM_EDGE_0 : 0) | (ca ? PRIM_EDGE_1 : 0) | (ab ? PRIM_EDGE_2 : 0));
        } else {
            t.v[0] = a.record, t.v[1] = b.record, t.v[2] = c.record;
            e = uint8_t((ab ? PRIM_EDGE_0 : 0) | (bc ? PRIM_EDGE_1 : 0) | (ca ? PRIM_EDGE_2 : 0));
        }
        // As Mesa's clipper emits the polygon: its first triangle restarts the stipple.
        t.flags = uint8_t((prim.flags & ~(PRIM_EDGE_MASK | PRIM_RESET_STIPPLE)) | e |
                          (i == 1 ? PRIM_RESET_STIPPLE : 0));
        ++delta_;
        next()->triangle(t);
    }
}

} // namespace drawpipe
