// The backend interface, shaped like Gallium's vbuf_render: told the draw (its primitive
// and provoking convention) and the vertex layout, then handed vertex batches with element
// lists in draw order, from one thread at a time.
#pragma once

#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <span>

namespace drawpipe {

struct VertexView {
    const uint32_t* data = nullptr;
    uint32_t count = 0;
    uint32_t stride = 0; // dwords
    const uint32_t* vertex(uint32_t i) const { return data + size_t(i) * stride; }
};

// Where a backend call sits in draw order, for a backend that takes batches from any thread:
// calls are ordered by draw, then segment, then part.
struct BatchOrder {
    uint64_t draw = 0;    // the draw's place among the context's draws (draw_serial: 0)
    uint64_t segment = 0; // the batch's segment within the draw (Segment::sequence)
    uint32_t part = 0;    // the call's place among its batch's calls
    auto operator<=>(const BatchOrder&) const = default;
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual void begin_draw(const DrawInfo& draw, const VertexLayout& layout) = 0;
    // Primitives of type `prim` over `vertices`, as elements into them. `flags` are the
    // segment's SplitFlags (0 for geometry-shader output strips).
    virtual void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                               std::span<const uint32_t> elts) = 0;
    virtual void end_draw() {}

    // A backend that returns true receives every primitive through draw_elements_at instead
    // of draw_elements, with its place in draw order, as a binning rasterizer bins (llvmpipe's
    // scene): for a draw that needs nothing ordered after shading (no stream output, line
    // stipple, driver stage or quad strip), from the shading threads, many at once, in any
    // order; otherwise in order from one thread. begin_draw and end_draw still come in order
    // from one thread; a draw's calls may arrive before its begin_draw (they carry the draw),
    // never after its end_draw. What arrives, and at which BatchOrder, is the same for every
    // thread count; a backend that needs draw order restores it from BatchOrder
    // (docs/backends.md).
    virtual bool takes_parallel_batches() const { return false; }
    virtual void draw_elements_at(const BatchOrder& at, const DrawInfo& draw, Prim prim,
                                  uint8_t flags, const VertexView& vertices,
                                  std::span<const uint32_t> elts) {
        (void)at, (void)draw;
        draw_elements(prim, flags, vertices, elts);
    }
};

} // namespace drawpipe
