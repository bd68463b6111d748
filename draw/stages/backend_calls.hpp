// The draw module's one way of calling a backend with primitives, so that the ordered sink,
// the emit stage and the shading threads call it alike.
#pragma once

#include "draw/base/callback_scope.hpp"
#include "drawpipe/backend.hpp"

namespace drawpipe {

// Hands a batch's backend calls on: draw_elements, or draw_elements_at with the batch's place
// and a part number per call when the backend takes parallel batches.
class BackendCalls {
  public:
    explicit BackendCalls(Backend& backend)
        : backend_(backend), parallel_(backend.takes_parallel_batches()) {}
    void begin_draw(const DrawInfo& draw, uint64_t ordinal) {
        draw_ = &draw;
        at_ = {ordinal, 0, 0};
    }
    void begin_batch(uint64_t segment) {
        at_.segment = segment;
        at_.part = 0;
    }
    void operator()(Prim prim, uint8_t flags, const VertexView& vertices,
                    std::span<const uint32_t> elts) {
        if (!parallel_) {
            const detail::CallbackScope in("draw_elements");
            return backend_.draw_elements(prim, flags, vertices, elts);
        }
        const detail::CallbackScope in("draw_elements_at");
        backend_.draw_elements_at(at_, *draw_, prim, flags, vertices, elts);
        ++at_.part;
    }

  private:
    Backend& backend_;
    const DrawInfo* draw_ = nullptr;
    BatchOrder at_;
    bool parallel_;
};

} // namespace drawpipe
