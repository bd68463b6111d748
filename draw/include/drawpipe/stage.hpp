// Pipeline stages, shaped like Mesa's draw_stage: with a RasterState bound, the decomposed
// points, lines and triangles of stream 0 pass a chain of stages (clip, cull, offset,
// flatshade, unfilled, stipple, wide line, wide point) built per draw from the state, then
// the backend. A driver may append its own stage before the backend (Context::add_stage).
//
// Stages run on one thread, in draw order. Vertex records are VertexLayout's
// (drawpipe/shaded.hpp), positions in window coordinates (drawpipe/raster_state.hpp).
#pragma once

#include "drawpipe/raster_state.hpp"
#include "drawpipe/shaded.hpp"
#include "drawpipe/types.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace drawpipe {

// Per-primitive flags set by primitive assembly.
enum PrimFlags : uint8_t {
    PRIM_EDGE_0 = 0x1, // edge v0-v1 is a boundary edge (drawn in polygon mode line / point)
    PRIM_EDGE_1 = 0x2, // edge v1-v2
    PRIM_EDGE_2 = 0x4, // edge v2-v0
    PRIM_EDGE_MASK = 0x7,
    PRIM_RESET_STIPPLE = 0x8, // this line starts a new stipple pattern
};

// One decomposed primitive: 1, 2 or 3 vertex records (v[n..2] unused) and its flags.
struct StagePrim {
    const uint32_t* v[3] = {};
    uint8_t flags = 0;
};

// What every stage of a draw's chain shares.
struct StageDraw {
    const DrawInfo* draw = nullptr;
    const VertexLayout* layout = nullptr;
    const RasterState* raster = nullptr;
};

class Stage {
  public:
    virtual ~Stage() = default;

    virtual void begin_draw(const StageDraw& draw) {
        draw_ = draw;
        if (next_) next_->begin_draw(draw);
    }
    virtual void point(const StagePrim& prim) = 0;
    virtual void line(const StagePrim& prim) = 0;
    virtual void triangle(const StagePrim& prim) = 0;
    // The stipple counter restarts (a new draw, line or restart run).
    virtual void reset_stipple() {
        if (next_) next_->reset_stipple();
    }
    // End of a batch: records handed on so far, and those from new_vertex(), go stale.
    virtual void flush() {
        if (next_) next_->flush(); // the later stages may still refer to this one's vertices
        vertices_.clear();
    }
    virtual void end_draw() {
        if (next_) next_->end_draw();
    }

    void set_next(Stage* next) { next_ = next; }
    Stage* next() const { return next_; }

  protected:
    // A record of the layout's stride, a copy of `from` when given; valid until flush().
    uint32_t* new_vertex(const uint32_t* from = nullptr) {
        const uint32_t stride = draw_.layout->stride();
        auto& block = vertices_.emplace_back(std::make_unique<uint32_t[]>(stride));
        if (from) std::copy(from, from + stride, block.get());
        return block.get();
    }

    StageDraw draw_;

  private:
    Stage* next_ = nullptr;
    std::vector<std::unique_ptr<uint32_t[]>> vertices_; // stable addresses until flush()
};

} // namespace drawpipe
