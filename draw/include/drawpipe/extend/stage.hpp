// Pipeline stages, shaped like Mesa's draw_stage: with a RasterState bound, the decomposed
// points, lines and triangles of stream 0 pass a chain of stages (clip, cull, offset,
// flatshade, unfilled, stipple, wide line, wide point) built per draw from the state, then
// the backend. A driver may append its own stage before the backend (Context::add_stage).
//
// When a draw has no stream output and no line stipple, and every driver stage it has can
// be copied (Stage::clone), the stages run on the shading threads, each thread its own chain
// over whole batches, and the backend still receives their output in draw order; otherwise
// they run on one thread, in draw order. Vertex records are VertexLayout's
// (drawpipe/extend/shaded.hpp), positions in window coordinates (drawpipe/raster_state.hpp).
#pragma once

#include "drawpipe/raster_state.hpp"
#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

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
        arena_.reset();
    }
    virtual void end_draw() {
        if (next_) next_->end_draw();
    }
    // A stage whose work on a primitive depends on no earlier primitive may run on the
    // shading threads: it returns a fresh copy of itself here (its settings, none of its
    // per-draw state), and each thread runs its own copy over whole batches (begin_draw
    // before each batch, flush after it), the backend still receiving everything in draw
    // order. clone() is called from several threads at once. Null (the default): the stage
    // runs in order, on one thread.
    virtual std::unique_ptr<Stage> clone() const { return nullptr; }

    void set_next(Stage* next) { next_ = next; }
    Stage* next() const { return next_; }

  protected:
    // A record of the layout's stride, a copy of `from` when given; valid until flush() or
    // until a release() to a mark taken before it. Records come from a per-stage arena whose
    // blocks are kept from batch to batch, so making a vertex allocates nothing once warm.
    uint32_t* new_vertex(const uint32_t* from = nullptr) {
        const uint32_t stride = draw_.layout->stride();
        uint32_t* r = arena_.take(stride);
        if (from)
            std::copy(from, from + stride, r);
        else
            std::fill(r, r + stride, 0u);
        return r;
    }
    // Where new_vertex() stands now; release(mark()) after handing a primitive's new vertices
    // on frees them for the next primitive, as Mesa's stages reuse their temporary vertices.
    // A stage that keeps a vertex it was handed beyond the call copies it.
    struct VertexMark {
        size_t block = 0, used = 0;
    };
    VertexMark mark() const { return {arena_.block, arena_.used}; }
    void release(VertexMark m) {
        arena_.block = m.block;
        arena_.used = m.used;
    }
    // release(mark()) when the scope ends: the vertices a primitive made, once handed on.
    class VertexScope {
      public:
        explicit VertexScope(Stage& s) : stage_(s), mark_(s.mark()) {}
        ~VertexScope() { stage_.release(mark_); }
        VertexScope(const VertexScope&) = delete;
        VertexScope& operator=(const VertexScope&) = delete;

      private:
        Stage& stage_;
        VertexMark mark_;
    };

    StageDraw draw_;

  private:
    // Blocks of records with stable addresses; a record never straddles two blocks.
    struct VertexArena {
        std::vector<std::unique_ptr<uint32_t[]>> blocks;
        std::vector<size_t> sizes;  // dwords per block
        size_t block = 0, used = 0; // the block being filled and its dwords in use

        uint32_t* take(uint32_t stride) {
            while (block < blocks.size() && used + stride > sizes[block]) {
                ++block;
                used = 0;
            }
            if (block == blocks.size()) {
                // Each block as large as all before it: few blocks, and a stage that makes
                // no vertex allocates nothing.
                size_t n = size_t(stride) * 32;
                for (const size_t s : sizes) n += s;
                blocks.emplace_back(new uint32_t[n]); // new_vertex writes every dword
                sizes.push_back(n);
                used = 0;
            }
            uint32_t* r = blocks[block].get() + used;
            used += stride;
            return r;
        }
        void reset() { block = used = 0; }
    };

    Stage* next_ = nullptr;
    VertexArena arena_;
};

} // namespace drawpipe
