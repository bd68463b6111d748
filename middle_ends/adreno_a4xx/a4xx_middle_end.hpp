// The Adreno A4xx middle end: fetch and shade as the reference does, then run a bound
// geometry shader the way the A4xx does (a4xx_gs.hpp): one launch per output vertex, each
// reading its inputs from the local-memory model, ended by a kill; the fixed function
// assembles strips from the launches' prim_info words. Draws without a GS pass through as in
// fetch_shade.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "middle_ends/adreno_a4xx/a4xx_gs.hpp"

#include <optional>

namespace drawpipe::a4xx {

// The counters shade() adds into ShadedBatch::counters, by index; counters() names them.
enum A4xxCounter : uint32_t {
    COUNTER_INVOCATIONS,  // shader launches, one per output vertex tried
    COUNTER_KILLS,        // of those, launches that ended in a kill instead of a vertex
    COUNTER_VERTICES,     // of those, launches that wrote a vertex
    COUNTER_STEPS_NAIVE,  // shader steps the launches cost naive, whichever mode executed
    COUNTER_STEPS_SWITCH, // the same switch-rewritten (0 unless independent_vertices)
    COUNTER_COUNT,        // how many there are (not a counter)
};

class A4xxMiddleEnd final : public MiddleEnd {
  public:
    // `mode` forces naive or switch-rewritten launches; by default a shader that declares
    // independent_vertices runs switch-rewritten, any other naive.
    explicit A4xxMiddleEnd(std::optional<Mode> mode = std::nullopt, uint32_t max_vertices = 4096)
        : forced_(mode), max_vertices_(max_vertices) {}

    std::string_view name() const override {
        return forced_ == Mode::naive ? "a4xx_naive" : "a4xx";
    }
    // Throws Error(unsupported) when switch mode is forced on a shader that does not
    // declare independent_vertices, and as fetch_shade does for bad draws. A draw with a
    // GS prepares into an A4xxGsDraw.
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override;
    std::unique_ptr<MiddleEndScratch> make_scratch() const override;
    // invocations, kills, vertices, steps_naive, steps_switch (0 unless the shader
    // declares independent_vertices); invocations and kills are the same in both modes.
    // A draw without a GS writes none.
    std::span<const std::string_view> counters() const override;

  private:
    std::optional<Mode> forced_;
    uint32_t max_vertices_;
};

// A draw with a geometry shader, prepared: the launches for each segment's input primitives,
// staged kPrimSlots at a time into local memory.
class A4xxGsDraw final : public MiddleEndDraw {
  public:
    A4xxGsDraw(const DrawState& state, Mode mode, uint32_t max_vertices);
    void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override;
    Mode mode() const { return mode_; }

  private:
    DrawState state_;
    VertexLayout in_layout_;
    Mode mode_;
};

} // namespace drawpipe::a4xx
