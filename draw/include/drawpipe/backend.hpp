// The backend interface, shaped like Gallium's vbuf_render: told the draw (its primitive
// and provoking convention) and the vertex layout, then handed vertex batches with element
// lists in draw order, from one thread at a time.
#pragma once

#include "drawpipe/shaded.hpp"
#include "drawpipe/types.hpp"

#include <span>

namespace drawpipe {

struct VertexView {
    const uint32_t* data = nullptr;
    uint32_t count = 0;
    uint32_t stride = 0; // dwords
    const uint32_t* vertex(uint32_t i) const { return data + size_t(i) * stride; }
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
};

} // namespace drawpipe
