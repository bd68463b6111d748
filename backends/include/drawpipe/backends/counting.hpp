// The counting backend: totals of what reached it, and an order-sensitive checksum, for
// benchmarks and tests that need no text.
#pragma once

#include "drawpipe/backend.hpp"

namespace drawpipe {

class CountingBackend final : public Backend {
  public:
    struct Totals {
        uint64_t calls = 0;    // draw_elements calls
        uint64_t elements = 0; // elements received (a shared vertex counts once per use)
        uint64_t points = 0, lines = 0, triangles = 0;
        uint64_t checksum = 0; // of every decomposed primitive's vertex ids, in order
    };

    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override;
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override;
    const Totals& totals() const { return totals_; }
    void reset() { totals_ = {}; }

  private:
    Totals totals_;
    Provoking provoking_ = Provoking::last;
};

} // namespace drawpipe
