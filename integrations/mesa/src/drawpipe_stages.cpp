// drawpipe's pipeline stages behind drawpipe_stages.h: Mesa's shaded vertices become drawpipe
// records (the window position Mesa's viewport wrote, every other output a varying), its clip
// masks drawpipe's, PipelineStages clips and culls them, and the result is written in the
// render's layout with u16 elements.
#include "drawpipe_stages.h"

#include <drawpipe/decompose.hpp>
#include <drawpipe/error.hpp>
#include <drawpipe/extend/pipeline_stages.hpp>
#include <drawpipe/extend/small_cull.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <vector>

using namespace drawpipe;

struct dp_stages {
    std::unique_ptr<PipelineStages> stages;
    VertexLayout layout;
    unsigned vertex_size = 0, clip_pos_offset = 0, data_offset = 0;
    uint32_t clipmask_mask = 0;
    unsigned num_outputs = 0, position_output = 0;
    // Unfilled: the record dword the edge flag goes to (1.0 or 0.0), from Mesa's header bit.
    uint32_t edge_slot = 0, edgeflag_bit = 0;
    bool edge_flags = false;
    // The front face polygon mode line and point write (RasterState::front_face_varying):
    // this record dword on, zero in the records the conversion makes; 0: none.
    uint32_t face_slot = 0;
    // Mesa's outputs lie in the record in their own order (the position first, the varyings
    // after it): one copy per vertex.
    bool outputs_in_order = false;
    // Record dword of each of Mesa's outputs (the position's slot, or its varying's).
    std::vector<uint32_t> output_slot;
    // Per attribute of the render's layout: the record dword it copies, or ~0u for zeros.
    std::vector<uint32_t> attrib_slot;
    uint16_t clip_bits[64] = {}; // Mesa's six plane bits -> drawpipe's ClipBits
    // User planes: Mesa's bits 6 and up are drawpipe's CLIP_USER0 and up, those enabled.
    uint32_t user_bits = 0;
    // gl_ClipDistance: the record dword of distance i is clip_distance_slot() + i, read from
    // byte clipdist_src[i] of Mesa's vertex.
    std::vector<uint32_t> clipdist_src;
    // dp_stages_run_in_order's: one draw's segments in order, the stipple pattern carried.
    std::unique_ptr<PipelineStages::InOrder> in_order;
};

struct dp_staged {
    ShadedBatch batch;
    ClipResults clip;
    StagedLists lists;
    // The output in pieces of at most 65535 vertices each (a vbuf takes u16 elements): piece k
    // is vertices from piece_vertex[k] (piece_vertex_count[k] of them, the render's layout)
    // and ranges piece_range[k] .. piece_range[k + 1] of first / count / prim over elts.
    std::vector<float> vertices;
    std::vector<uint16_t> elts;
    std::vector<unsigned> first, count, prim;
    std::vector<unsigned> piece_vertex, piece_vertex_count, piece_range;
    // A record's place: (piece + 1) << 16 | its vertex there, 0 while not handed on; and the
    // record each vertex handed on is copied from, in order.
    std::vector<uint32_t> place, source;
    size_t attribs = 0; // floats per vertex / 4
};

namespace {

// Mesa's clip-mask bit i (draw_llvm.c generate_clipmask: x > w, x + w < 0, y > w, y + w < 0,
// near, far) as drawpipe's plane bit. drawpipe's clipper takes planes in Mesa's order.
constexpr uint16_t kMesaPlane[6] = {CLIP_RIGHT, CLIP_LEFT, CLIP_TOP, CLIP_BOTTOM, CLIP_NEAR,
                                    CLIP_FAR};

} // namespace

extern "C" struct dp_stages *dp_stages_create(const struct dp_stages_state *s, char *why,
                                              unsigned why_size) {
    auto refuse = [&](const char *what) -> dp_stages * {
        if (why && why_size) std::snprintf(why, why_size, "%s", what);
        return nullptr;
    };
    if (s->num_outputs == 0 || s->position_output >= s->num_outputs)
        return refuse("no position output");
    if (s->num_outputs - 1 > kMaxVaryings) return refuse("more outputs than drawpipe's varyings");
    if (s->clip_plane_enable >> kMaxClipDistances) return refuse("a user clip plane past 8");
    if (s->num_clipdist > kMaxClipDistances) return refuse("more than 8 clip distances");
    // Mesa reads every enabled plane's distance from the shader once it writes one.
    if (s->num_clipdist && (s->clip_plane_enable >> s->num_clipdist))
        return refuse("a clip plane enabled past the clip distances written");
    try {
        auto st = std::make_unique<dp_stages>();
        // Before the varyings: the clip distances' slots come first in a record.
        st->layout.outputs.clip_distances = s->num_clipdist;
        for (unsigned i = 0; i < s->num_clipdist; ++i) {
            const unsigned o = s->clipdist_output[i / 4];
            if (o >= s->num_outputs) return refuse("a clip distance of no output");
            st->clipdist_src.push_back(s->data_offset + 16 * o + 4 * (i % 4));
        }
        st->vertex_size = s->vertex_size;
        st->clip_pos_offset = s->clip_pos_offset;
        st->data_offset = s->data_offset;
        st->clipmask_mask = (1u << s->clipmask_bits) - 1;
        st->num_outputs = s->num_outputs;
        st->position_output = s->position_output;
        st->output_slot.resize(s->num_outputs);
        for (unsigned o = 0; o < s->num_outputs; ++o) {
            if (o == s->position_output) {
                st->output_slot[o] = SLOT_POSITION;
                continue;
            }
            Varying v;
            v.interp = s->flat_output[o] ? Interp::flat : Interp::smooth;
            st->output_slot[o] = st->layout.varying_slot(st->layout.outputs.add_varying(v));
        }
        st->outputs_in_order = true;
        for (unsigned o = 0; o < s->num_outputs; ++o)
            st->outputs_in_order &= st->output_slot[o] == SLOT_POSITION + 4 * o;
        if (s->fill_front > 2 || s->fill_back > 2) return refuse("an unknown polygon mode");
        const bool unfilled = s->fill_front != 0 || s->fill_back != 0;
        RasterState r;
        if (unfilled) {
            // Mesa keeps the edge flag in the vertex header; drawpipe reads it from a varying.
            if (s->edgeflag_bit >= 32) return refuse("no edge flag bit");
            if (s->num_outputs > kMaxVaryings) return refuse("no varying left for the edge flag");
            // Read where primitives are assembled, before any stage: its interpolation never
            // matters (a flat one would only add the flatshade stage).
            const uint32_t i = st->layout.outputs.add_varying(Varying{});
            st->edge_slot = st->layout.varying_slot(i);
            st->edgeflag_bit = s->edgeflag_bit;
            st->edge_flags = true;
            r.edge_flag_varying = int32_t(i);
        }
        if (s->face_output >= 0) {
            if (unsigned(s->face_output) != s->num_outputs)
                return refuse("a front-face slot that is not the first after the outputs");
            if (st->layout.varying_count() >= kMaxVaryings)
                return refuse("no varying left for the front face");
            const uint32_t i = st->layout.outputs.add_varying(Varying{});
            st->face_slot = st->layout.varying_slot(i);
            r.front_face_varying = int32_t(i);
        }
        static const PolygonMode mode[3] = {PolygonMode::fill, PolygonMode::line,
                                            PolygonMode::point};
        r.front_mode = mode[s->fill_front];
        r.back_mode = mode[s->fill_back];
        r.offset_fill = s->offset_tri;
        r.offset_line = s->offset_line;
        r.offset_point = s->offset_point;
        r.offset_factor = s->offset_scale;
        r.offset_units = s->offset_units;
        r.offset_units_r = s->offset_units_r;
        r.offset_clamp = s->offset_clamp;
        if (s->line_stipple) {
            r.line_stipple = true;
            r.stipple_factor = s->stipple_factor;
            r.stipple_pattern = s->stipple_pattern;
        }
        if (s->light_twoside) {
            r.two_side = true;
            for (unsigned c = 0; c < 2; ++c) {
                const int f = s->twoside_front[c], b = s->twoside_back[c];
                if (f < 0 || b < 0) continue;
                if (unsigned(f) >= s->num_outputs || unsigned(b) >= s->num_outputs ||
                    unsigned(f) == s->position_output || unsigned(b) == s->position_output)
                    return refuse("a two-sided colour pair of no output");
                // drawpipe names varyings; the position is not one, so outputs after it
                // are one lower.
                auto varying = [&](int o) {
                    return int32_t(unsigned(o) > s->position_output ? o - 1 : o);
                };
                r.two_side_colors[c] = {varying(f), varying(b)};
            }
        }
        for (unsigned a = 0; a < s->num_attribs; ++a) {
            const unsigned o = s->attrib_output[a];
            if (st->face_slot && s->face_output >= 0 && o == unsigned(s->face_output)) {
                st->attrib_slot.push_back(st->face_slot);
                continue;
            }
            if (o != ~0u && o >= s->num_outputs) return refuse("an attribute of no output");
            st->attrib_slot.push_back(o == ~0u ? ~0u : st->output_slot[o]);
        }
        for (uint32_t m = 0; m < 64; ++m)
            for (uint32_t b = 0; b < 6; ++b)
                if (m & (1u << b)) st->clip_bits[m] |= kMesaPlane[b];
        static_assert(CLIP_USER0 == 1u << 6, "Mesa's user-plane bits are drawpipe's");
        r.clip_plane_enable = s->clip_plane_enable;
        if (s->clipvertex_output >= 0) {
            const unsigned o = unsigned(s->clipvertex_output);
            if (o >= s->num_outputs || o == s->position_output)
                return refuse("a clip vertex of no output");
            // Varyings are the outputs but the position, in order.
            r.clip_vertex_varying = int32_t(o > s->position_output ? o - 1 : o);
        }
        for (unsigned i = 0; i < kMaxClipDistances; ++i)
            for (unsigned c = 0; c < 4; ++c) r.clip_planes[i][c] = s->planes[i][c];
        st->user_bits = (s->clip_plane_enable << 6) & st->clipmask_mask;
        // The viewport's corners matter only to the transform, which Mesa's replaces below;
        // the state still wants a valid one.
        r.viewport = {0, 0, 1, 1, 0, 1};
        // Mesa's cull stage: det < 0 is counter-clockwise in its window space, drawpipe's
        // window_det is positive for counter-clockwise; so Mesa's front_ccw is drawpipe's cw.
        r.front_face = s->front_ccw ? FrontFace::cw : FrontFace::ccw;
        static const CullFace cull[4] = {CullFace::none, CullFace::front, CullFace::back,
                                         CullFace::front_and_back};
        r.cull = cull[s->cull_face & 3];
        r.depth_clamp = !s->clip_z;
        r.clip_depth = s->clip_halfz ? ClipDepth::zero_to_one : ClipDepth::negative_one_to_one;
        r.wide_line_threshold = 10000.0f; // llvmpipe draws every line width itself
        st->stages = std::make_unique<PipelineStages>(
            r, st->layout, s->provoking_first ? Provoking::first : Provoking::last);
        st->stages->set_viewport_transform(0, {s->scale[0], s->scale[1], s->scale[2]},
                                           {s->translate[0], s->translate[1], s->translate[2]});
        return st.release();
    } catch (const std::exception &e) {
        return refuse(e.what());
    }
}

extern "C" void dp_stages_destroy(struct dp_stages *stages) {
    delete stages;
}

extern "C" bool dp_stages_takes(const struct dp_stages *stages, unsigned prim) {
    return stages->stages->takes(Prim(prim));
}

extern "C" struct dp_staged *dp_staged_create(void) {
    try {
        return new dp_staged;
    } catch (const std::exception &) {
        return nullptr;
    }
}

extern "C" void dp_staged_destroy(struct dp_staged *staged) {
    delete staged;
}

namespace {

// The staged lists as the render takes them: only the records the lists use, in first use, as
// Mesa's vbuf stage emits them (a clipped segment often drops most of its vertices), in
// pieces of at most 65535 vertices cut between primitives, as Mesa's vbuf stage flushes when
// its buffer is full (line stipple and wide lines make a few vertices per pixel).
void hand_on(const dp_stages &st, dp_staged &out) {
    const StagedLists &l = out.lists;
    const uint32_t stride = st.layout.stride();
    const size_t n_attr = st.attrib_slot.size();
    out.attribs = n_attr;
    out.place.assign(l.vertex_count, 0);
    out.source.clear(), out.elts.clear();
    out.elts.reserve(l.elts.size());
    out.first.clear(), out.count.clear(), out.prim.clear();
    out.piece_vertex.assign(1, 0), out.piece_vertex_count.assign(1, 0), out.piece_range.assign(1, 0);
    uint32_t piece = 1, used = 0; // the current piece (+1) and its vertices so far
    for (const StagedRange &sr : l.ranges) {
        const unsigned n = sr.prim == Prim::points ? 1 : sr.prim == Prim::lines ? 2 : 3;
        bool open = false; // this range has an entry in the current piece
        for (uint32_t i = 0; i + n <= sr.count; i += n) {
            const uint32_t *e = l.elts.data() + sr.first + i;
            unsigned fresh = 0;
            for (unsigned k = 0; k < n; ++k) fresh += (out.place[e[k]] >> 16) != piece;
            if (used + fresh > 0xFFFF) { // the next piece
                out.piece_vertex_count.back() = used;
                out.piece_range.push_back(unsigned(out.first.size()));
                out.piece_vertex.push_back(out.piece_vertex.back() + used);
                out.piece_vertex_count.push_back(0);
                ++piece, used = 0, open = false;
            }
            if (!open) {
                out.first.push_back(unsigned(out.elts.size()));
                out.count.push_back(0);
                out.prim.push_back(unsigned(sr.prim));
                open = true;
            }
            for (unsigned k = 0; k < n; ++k) {
                uint32_t &p = out.place[e[k]];
                if ((p >> 16) != piece) {
                    p = piece << 16 | used++;
                    out.source.push_back(e[k]);
                }
                out.elts.push_back(uint16_t(p & 0xFFFF));
            }
            out.count.back() += n;
        }
    }
    out.piece_vertex_count.back() = used;
    out.piece_range.push_back(unsigned(out.first.size()));
    // The vertices in the render's layout, sized once.
    out.vertices.resize(out.source.size() * 4 * n_attr);
    float *to = out.vertices.data();
    for (const uint32_t v : out.source) {
        const uint32_t *r = out.batch.vertices.data() + size_t(v) * stride;
        for (size_t a = 0; a < n_attr; ++a, to += 4) {
            const uint32_t slot = st.attrib_slot[a];
            if (slot == ~0u)
                std::memset(to, 0, 16);
            else
                std::memcpy(to, r + slot, 16);
        }
    }
}

// dp_stages_run's body; `in_order` runs the stages in place of PipelineStages::run when given.
bool run_stages(const dp_stages *st, PipelineStages::InOrder *in_order, const void *verts,
                unsigned count, unsigned prim, unsigned flags, const uint16_t *elts,
                unsigned draw_count, dp_staged *out) {
    try {
        const uint32_t stride = st->layout.stride();
        ShadedBatch &b = out->batch;
        b.clear();
        ClipResults &clip = out->clip;
        clip.clip_or = 0;
        clip.clip_mask.resize(count, boost::container::default_init);
        clip.clip_pos.resize(size_t(count) * 4, boost::container::default_init);
        const auto *base = static_cast<const unsigned char *>(verts);
        const unsigned char *src = base;
        for (unsigned v = 0; v < count; ++v, src += st->vertex_size) {
            uint32_t bits;
            std::memcpy(&bits, src, 4);
            float *pos = &clip.clip_pos[4 * size_t(v)];
            std::memcpy(pos, src + st->clip_pos_offset, 16);
            uint32_t m = st->clip_bits[bits & st->clipmask_mask & 63] | (bits & st->user_bits);
            if (!(std::isfinite(pos[0]) && std::isfinite(pos[1]) && std::isfinite(pos[2]) &&
                  std::isfinite(pos[3])))
                m |= CLIP_NONFINITE;
            clip.clip_mask[v] = uint16_t(m);
        }
        // DRAW_LINE_LOOP_AS_STRIP: a line loop's piece, drawn as the strip it is.
        const Prim p = (flags & 4) ? Prim::line_strip : Prim(prim);
        // A triangle list's triangles whose three vertices are outside one plane are dropped
        // here, as the clip stage drops them first, and only the vertices of the others
        // become records: a clipped segment is often mostly outside.
        std::vector<uint32_t> &in_use = out->place;
        in_use.assign(count, p == Prim::triangles ? 0 : 1);
        uint32_t *e = b.append_unset_elts(draw_count);
        unsigned kept = 0;
        if (p == Prim::triangles) {
            for (unsigned i = 0; i + 2 < draw_count; i += 3) {
                const unsigned a = elts ? elts[i] : i, c = elts ? elts[i + 1] : i + 1,
                               d = elts ? elts[i + 2] : i + 2;
                if (clip.clip_mask[a] & clip.clip_mask[c] & clip.clip_mask[d]) continue;
                in_use[a] = in_use[c] = in_use[d] = 1;
                e[kept++] = a, e[kept++] = c, e[kept++] = d;
            }
            b.elts.resize(kept);
        } else {
            for (unsigned i = 0; i < draw_count; ++i) e[i] = elts ? elts[i] : i;
            kept = draw_count;
        }
        // Records for the vertices used; the others' are never read.
        uint32_t *rec = b.append_unset_vertices(count, stride);
        src = base;
        for (unsigned v = 0; v < count; ++v, src += st->vertex_size, rec += stride) {
            if (!in_use[v]) continue;
            clip.clip_or |= clip.clip_mask[v];
            std::memset(rec, 0, 4 * SLOT_POSITION); // the header: no ids
            if (st->edge_flags) {
                uint32_t bits;
                std::memcpy(&bits, src, 4);
                rec[st->edge_slot] = float_dword((bits >> st->edgeflag_bit) & 1 ? 1.0f : 0.0f);
            }
            if (st->face_slot) std::memset(rec + st->face_slot, 0, 16);
            for (size_t i = 0; i < st->clipdist_src.size(); ++i)
                std::memcpy(rec + st->layout.clip_distance_slot() + i, src + st->clipdist_src[i],
                            4);
            const unsigned char *data = src + st->data_offset;
            if (st->outputs_in_order)
                std::memcpy(rec + SLOT_POSITION, data, 16 * size_t(st->num_outputs));
            else
                for (unsigned o = 0; o < st->num_outputs; ++o)
                    std::memcpy(rec + st->output_slot[o], data + 16 * size_t(o), 16);
        }
        b.prims.push_back({p, uint8_t(flags & 3), 0, kept});

        if (in_order)
            in_order->run(b, clip, out->lists);
        else
            st->stages->run(b, clip, out->lists);
        hand_on(*st, *out);
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

} // namespace

extern "C" bool dp_stages_run(const struct dp_stages *st, const void *verts, unsigned count,
                              unsigned prim, unsigned flags, const uint16_t *elts,
                              unsigned draw_count, struct dp_staged *out) {
    return run_stages(st, nullptr, verts, count, prim, flags, elts, draw_count, out);
}

extern "C" bool dp_stages_run_in_order(struct dp_stages *st, const void *verts, unsigned count,
                                       unsigned prim, unsigned flags, const uint16_t *elts,
                                       unsigned draw_count, struct dp_staged *out) {
    try {
        if (!st->in_order) st->in_order = std::make_unique<PipelineStages::InOrder>(*st->stages);
    } catch (const std::exception &) {
        return false;
    }
    return run_stages(st, st->in_order.get(), verts, count, prim, flags, elts, draw_count, out);
}

extern "C" unsigned dp_staged_pieces(const struct dp_staged *staged) {
    return unsigned(staged->piece_vertex.size());
}

extern "C" unsigned dp_staged_piece(const struct dp_staged *staged, unsigned piece,
                                    const float **vertices, unsigned *vertex_count,
                                    const uint16_t **elts, const unsigned **first,
                                    const unsigned **count, const unsigned **prim) {
    const unsigned r0 = staged->piece_range[piece], r1 = staged->piece_range[piece + 1];
    *vertices = staged->vertices.data() + size_t(staged->piece_vertex[piece]) * 4 * staged->attribs;
    *vertex_count = staged->piece_vertex_count[piece];
    *elts = staged->elts.data();
    *first = staged->first.data() + r0;
    *count = staged->count.data() + r0;
    *prim = staged->prim.data() + r0;
    return r1 - r0;
}

extern "C" unsigned dp_cull_small_triangles(const float *records, unsigned stride,
                                            unsigned prim, bool provoking_first,
                                            const uint16_t *elts, unsigned count,
                                            unsigned probe_min, uint16_t *out,
                                            unsigned *triangles) {
    // The triangles in the order llvmpipe's setup takes them from draw_elements and
    // draw_arrays: drawpipe's for the rasterizer (GL's strip and fan orders per convention).
    unsigned t = 0;
    for_each_rasterized_whole(Prim(prim), provoking_first ? Provoking::first : Provoking::last,
                              count, [&](uint32_t n, const uint32_t *pos) {
                                  for (uint32_t k = 0; k < n; ++k)
                                      out[3 * t + k] = elts ? elts[pos[k]] : uint16_t(pos[k]);
                                  ++t;
                              });
    *triangles = t;
    // A probe of the first triangles first: a segment of larger triangles, nearly all kept (a
    // mesh at a large window), is handed over whole, without the test's cost.
    constexpr unsigned kProbe = 32;
    if (probe_min && t > 2 * kProbe) {
        unsigned missed = 0;
        for (unsigned i = 0; i < kProbe; ++i) {
            const uint16_t *e = out + 3 * i;
            missed += drawpipe::misses_pixel_centres(records + size_t(e[0]) * stride,
                                                     records + size_t(e[1]) * stride,
                                                     records + size_t(e[2]) * stride);
        }
        if (missed < probe_min) return t;
    }
    return drawpipe::cull_small_triangles(records, stride, out, t, out);
}
