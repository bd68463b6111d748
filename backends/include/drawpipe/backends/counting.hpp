// The counting backend: totals of what reached it, and a checksum, for benchmarks and tests
// that need no text. Ordered (the default), the checksum follows every primitive in the order
// received; made with `parallel_batches`, it takes batches from the shading threads
// (Backend::takes_parallel_batches) and the checksum is a sum over calls keyed by their
// BatchOrder, counted from the first draw since reset(): the same whatever order they arrive
// in, for every thread count, and for the same draws drawn again.
#pragma once

#include "drawpipe/backend.hpp"

#include <array>
#include <mutex>

namespace drawpipe {

class CountingBackend final : public Backend {
  public:
    struct Totals {
        uint64_t calls = 0;    // draw_elements calls
        uint64_t elements = 0; // elements received (a shared vertex counts once per use)
        uint64_t points = 0, lines = 0, triangles = 0;
        uint64_t checksum = 0; // of every decomposed primitive's vertex ids (see above)
    };

    explicit CountingBackend(bool parallel_batches = false) : parallel_(parallel_batches) {}

    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override;
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override;
    bool takes_parallel_batches() const override { return parallel_; }
    void draw_elements_at(const BatchOrder& at, const DrawInfo& draw, Prim prim, uint8_t flags,
                          const VertexView& vertices, std::span<const uint32_t> elts) override;
    Totals totals() const;
    void reset();

  private:
    static constexpr size_t kSlots = 64;
    struct alignas(64) Slot {
        mutable std::mutex mutex;
        Totals totals;
        uint64_t first_draw = UINT64_MAX; // the lowest BatchOrder::draw of its calls
    };
    bool parallel_;
    Totals totals_;                  // ordered calls
    std::array<Slot, kSlots> slots_; // parallel calls, by thread
    Provoking provoking_ = Provoking::last;
};

} // namespace drawpipe
