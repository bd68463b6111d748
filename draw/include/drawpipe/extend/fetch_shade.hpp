// The GL-semantics reference middle end (Mesa's fetch-shade-emit): fetch every listed
// vertex with exact GL attribute rules, run the vertex shader, run a bound geometry shader
// with the reference executor (drawpipe/extend/gs_executor.hpp), and emit the primitives. Every
// hardware middle end is checked against it. Always registered as "fetch_shade".
//
// FetchShadeSimd ("fetch_shade_simd", also always registered) draws the same, bit for bit,
// with the vectorised path of drawpipe/extend/simd_shade.hpp for draws without a geometry shader
// (with one it is fetch_shade). fetch_shade stays the readable reference it is checked
// against.
#pragma once

#include "drawpipe/extend/middle_end.hpp"

namespace drawpipe {

class FetchShade final : public MiddleEnd {
  public:
    // The counters shade() adds into ShadedBatch::counters with a GS (none without one), by
    // index; counters() names them.
    enum Counter : uint32_t {
        COUNTER_GS_INVOCATIONS, // GS invocations: input primitives × invocations
        COUNTER_GS_EMITTED,     // vertices the GS emitted, every stream
        COUNTER_GS_DROPPED,     // emits past max_vertices, dropped
        COUNTER_COUNT,          // how many there are (not a counter)
    };

    explicit FetchShade(uint32_t max_vertices = 4096) : max_vertices_(max_vertices) {}

    std::string_view name() const override { return "fetch_shade"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override;
    std::unique_ptr<MiddleEndScratch> make_scratch() const override;
    // gs_invocations, gs_emitted, gs_dropped (Counter order).
    std::span<const std::string_view> counters() const override;
    uint32_t max_vertices() const { return max_vertices_; }

  private:
    uint32_t max_vertices_;
};

class FetchShadeSimd final : public MiddleEnd {
  public:
    explicit FetchShadeSimd(uint32_t max_vertices = 4096) : reference_(max_vertices) {}

    std::string_view name() const override { return "fetch_shade_simd"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override;
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return reference_.make_scratch();
    }
    std::span<const std::string_view> counters() const override { return reference_.counters(); }

  private:
    FetchShade reference_; // draws with a geometry shader, and the limits
};

} // namespace drawpipe
