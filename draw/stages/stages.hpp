// The built-in pipeline stages of drawpipe/extend/stage.hpp that the draw module itself builds:
// clip, cull, flatshade and emit (to the backend). StageChain (draw/stages/stage_chain.hpp)
// strings them together per draw.
#pragma once

#include "draw/shade/draw_batch.hpp"
#include "draw/shade/raster_plan.hpp"
#include "draw/stages/backend_calls.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/extend/stage.hpp"

#include <vector>

namespace drawpipe {

class EmitStage;

// A stage that hands on what it does not override: the built-in ones each change one kind.
class PassStage : public Stage {
  public:
    void point(const StagePrim& prim) override { next()->point(prim); }
    void line(const StagePrim& prim) override { next()->line(prim); }
    void triangle(const StagePrim& prim) override { next()->triangle(prim); }
};

// Clips primitives with a vertex outside (DrawBatch::clip) against the view volume
// and the enabled user planes, in clip space; everything else passes untouched. New vertices
// interpolate every output (flat ones keep the provoking vertex's value) and get window
// coordinates. Frustum edges of a clipped polygon are not boundary edges, user-plane edges
// are (as Mesa and NVIDIA draw them in polygon mode line).
//
// Points and lines are clipped exactly, against every plane, x and y included, as Mesa
// 22.3's llvmpipe does for desktop GL: its driver asks the draw module to leave x and y to
// the rasterizer (draw_set_driver_clipping(..., bypass_clip_points_lines = true)), but the
// draw module honours that only when the GL state tracker sets the rasterizer's
// point_line_tri_clip, which it does for GLES 2 point sprites alone; llvmpipe's rasterizer
// then scissors to the framebuffer, not the viewport. So a point is kept or dropped by its
// centre whatever its size, a line is cut where it leaves the view (Mesa's do_clip_line
// arithmetic, each end moved towards the other), and a wide point or line whose centre or
// clipped axis is inside still lights pixels outside the viewport. Checked pixel by pixel
// against llvmpipe (tests/mesa/compare_render.py, docs/pipeline-stages.md).
class ClipStage final : public Stage {
  public:
    explicit ClipStage(const RasterPlan& plan);
    void set_batch(const DrawBatch& batch) { batch_ = &batch; }
    void point(const StagePrim& prim) override;
    void line(const StagePrim& prim) override;
    void triangle(const StagePrim& prim) override;
    // Primitives made minus primitives dropped since the last call (pipeline statistics).
    int64_t take_delta() {
        const int64_t d = delta_;
        delta_ = 0;
        return d;
    }

  private:
    struct ClipVertex;
    // A batch record's index: its dword offset is an exact multiple of the stride, so the
    // division is a shift and a multiplication by the inverse of the stride's odd part
    // modulo 2^32 (a division per vertex was a tenth of a clipped batch's time).
    uint32_t index_of(const uint32_t* v) const {
        return (uint32_t(v - batch_->shaded.vertices.data()) >> index_shift_) * index_inverse_;
    }
    uint32_t mask_of(const uint32_t* v) const;
    const float* clip_pos_of(const uint32_t* v) const;
    uint32_t* window(uint32_t* record) const; // sets the record's window position from clip
    void copy_flat(uint32_t* dst, const uint32_t* provoking) const;
    // Per-primitive viewports: `prim` with its corners in the viewport of its vertex
    // `provoking` (each itself when post_shade placed it there, else a copy placed again);
    // `prim` unchanged when the draw has no per-primitive viewport.
    StagePrim place_in_viewport(const StagePrim& prim, uint32_t corners, uint32_t provoking) {
        return plan_.viewport_per_primitive ? place_apart(prim, corners, provoking) : prim;
    }
    StagePrim place_apart(const StagePrim& prim, uint32_t corners, uint32_t provoking);
    const uint32_t* in_viewport(const uint32_t* v);

    const RasterPlan& plan_;
    const DrawBatch* batch_ = nullptr;
    const ViewportXform* xform_ = nullptr; // the current primitive's viewport
    uint32_t viewport_ = 0;
    int64_t delta_ = 0;
    uint32_t index_shift_ = 0, index_inverse_ = 1; // index_of
};

// Twice a window-space triangle's signed area, as Mesa's cull stage computes it (edges from
// v2); y points up, so counter-clockwise is positive.
inline float window_det(float x0, float y0, float x1, float y1, float x2, float y2) {
    return (x0 - x2) * (y1 - y2) - (y0 - y2) * (x1 - x2);
}

// The sign that makes window_det positive for a front face (RasterState::front_face): the one
// facing rule the cull stage, cull_triangles and the two-side stage share.
inline float front_sign(const RasterState& s) {
    return s.front_face == FrontFace::ccw ? 1.0f : -1.0f;
}

// Twice a triangle's window-space area, positive for a front face, negative for a back face;
// 0 without area, NaN without a facing.
inline float facing_det(const RasterState& s, const StagePrim& prim) {
    auto x = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION]); };
    auto y = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION + 1]); };
    return front_sign(s) * window_det(x(0), y(0), x(1), y(1), x(2), y(2));
}

// Whether a triangle of window_det `det` is a front face for the polygon mode and offset
// stages: there a triangle without area counts as counter-clockwise, and one without a facing
// (NaN) as clockwise, as llvmpipe picks their modes; culling (facing_det) calls it a back face.
inline bool front_by_winding(const RasterState& s, float det) {
    return (s.front_face == FrontFace::ccw) == (det >= 0);
}

// Drops triangles by window-space winding (RasterState::cull, front_face).
class CullStage final : public PassStage {
  public:
    explicit CullStage(const RasterPlan& plan) : plan_(plan) {}
    void triangle(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
};

// The cull stage over a whole range of a triangle class primitive whose vertices are all
// inside the view volume, when no other stage works on primitives: each decomposed triangle
// the state keeps goes to `emit` by position, in one loop instead of a call per triangle
// through the chain. Keeps exactly what CullStage keeps.
void cull_triangles(const RasterState& state, Prim prim, Provoking pv, const VertexView& vertices,
                    std::span<const uint32_t> elts, EmitStage& emit);

// Two-sided colour (RasterState::two_side, Mesa's draw_pipe_twoside): a back-facing triangle
// goes on with copies of its vertices whose front colour outputs hold the back ones. After
// cull (a culled face needs no colour) and before flatshade and unfilled, so the lines and
// points polygon mode makes of a back face, and its provoking vertex, carry the back colour.
class TwoSideStage final : public PassStage {
  public:
    explicit TwoSideStage(const RasterPlan& plan);
    void triangle(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
    std::vector<std::pair<uint32_t, uint32_t>> copies_; // (front, back) record dwords
};

// Polygon offset on window depth (RasterState::offset_*), before unfilled.
class OffsetStage final : public PassStage {
  public:
    explicit OffsetStage(const RasterPlan& plan) : plan_(plan) {}
    void triangle(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
};

// Polygon mode line / point (RasterState::front_mode, back_mode): a triangle becomes its
// edges with an edge flag as lines, or their first vertices as points.
class UnfilledStage final : public PassStage {
  public:
    explicit UnfilledStage(const RasterPlan& plan) : plan_(plan) {}
    void triangle(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
};

// Line stipple (RasterState::line_stipple): each line becomes the sub-lines its pattern
// keeps on, the counter running on along strips (draw/stages/stipple_stage.cpp).
class StippleStage final : public PassStage {
  public:
    explicit StippleStage(const RasterPlan& plan) : plan_(plan) {}
    void line(const StagePrim& prim) override;
    // Points and triangles passing restart the pattern, as in Mesa's stipple stage.
    void point(const StagePrim& prim) override {
        counter_ = 0;
        next()->point(prim);
    }
    void triangle(const StagePrim& prim) override {
        counter_ = 0;
        next()->triangle(prim);
    }
    void reset_stipple() override {
        counter_ = 0;
        PassStage::reset_stipple();
    }

  private:
    void segment(const StagePrim& prim, float t0, float t1);
    const RasterPlan& plan_;
    uint32_t counter_ = 0;
};

// Lines of a width above one (RasterState::line_width, rounded) as that many thin lines side
// by side across the minor axis.
class WideLineStage final : public PassStage {
  public:
    explicit WideLineStage(const RasterPlan& plan) : plan_(plan) {}
    void line(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
};

// Points of a size above one (the last shader stage's point size output, else
// RasterState::point_size) as squares of two triangles.
class WidePointStage final : public PassStage {
  public:
    explicit WidePointStage(const RasterPlan& plan) : plan_(plan) {}
    void point(const StagePrim& prim) override;

  private:
    const RasterPlan& plan_;
};

// Gives every vertex of a primitive the provoking vertex's flat outputs (all outputs under
// RasterState::flatshade), so later stages may reorder or split vertices freely.
class FlatshadeStage final : public PassStage {
  public:
    explicit FlatshadeStage(const RasterPlan& plan);
    void line(const StagePrim& prim) override { flatten(prim, 2); }
    void triangle(const StagePrim& prim) override { flatten(prim, 3); }

  private:
    void flatten(const StagePrim& prim, uint32_t n);
    std::vector<uint32_t> flat_dwords_; // record dwords to copy
};

// The last stage: gathers the primitives as point, line and triangle lists in order, referring
// to the batch's records and copying the new ones after them. At the end of a batch it either
// hands them to the backend (the ordered sink) or leaves them in the batch as its staged
// ranges (stages run on the shading thread, DrawBatch::staged).
class EmitStage final : public Stage {
  public:
    // `calls` null: record into the batch.
    explicit EmitStage(BackendCalls* calls) : calls_(calls) {}
    // Recording, elements go straight into the batch's staged list.
    void set_batch(DrawBatch& batch) {
        batch_ = &batch;
        out_ = calls_ ? &elts_ : &batch.staged_elts;
    }
    void point(const StagePrim& prim) override { add(Prim::points, prim, 1); }
    void line(const StagePrim& prim) override { add(Prim::lines, prim, 2); }
    void triangle(const StagePrim& prim) override { add(Prim::triangles, prim, 3); }
    // Room for n triangles of the batch's own records, by position (the cull-only path):
    // write them from the returned pointer, then commit_triangles(those written).
    uint32_t* reserve_triangles(uint32_t n) {
        if (lists_.empty() || lists_.back().prim != Prim::triangles)
            lists_.push_back({Prim::triangles, uint32_t(out_->size()), 0});
        const size_t at = out_->size();
        out_->resize(at + size_t(n) * 3, boost::container::default_init);
        return out_->data() + at;
    }
    void commit_triangles(uint32_t reserved, uint32_t written) {
        out_->erase(out_->end() - std::ptrdiff_t(reserved - written) * 3, out_->end());
        lists_.back().count += written * 3;
    }
    void flush() override;

  private:
    // New records the sink's emit holds before handing what it has to the backend mid-batch,
    // so that a batch whose stages make a vertex per dash or pixel (line stipple, wide lines)
    // needs bounded memory.
    static constexpr uint32_t kMaxHeldRecords = 16384;
    void add(Prim prim, const StagePrim& p, uint32_t n);
    void deliver(const VertexView& view);
    // One list of the gathered elements: `count` of them from `first`, all of `prim`.
    struct List {
        Prim prim;
        uint32_t first, count;
    };
    BackendCalls* calls_;
    DrawBatch* batch_ = nullptr;
    std::vector<List> lists_;
    boost::container::vector<uint32_t> elts_;          // handing on: the elements held
    boost::container::vector<uint32_t>* out_ = &elts_; // elts_, or the batch's staged list
    std::vector<uint32_t> extra_;                      // records of new vertices, after the batch's
    std::vector<uint32_t> joined_; // the batch's records and extra_, for a mid-batch delivery
};

} // namespace drawpipe
