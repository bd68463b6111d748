// The Adreno A4xx middle end: fetch and shade as the reference does, then run a bound
// geometry shader the way the A4xx does (a4xx_gs.hpp): one run per output vertex, each
// reading its inputs from the local-memory model, ended by a kill; the fixed function
// assembles strips from the runs' prim_info words. Draws without a GS pass through as in
// fetch_shade.
#pragma once

#include "drawpipe/middle_end.hpp"
#include "middle_ends/adreno_a4xx/a4xx_gs.hpp"
#include "drawpipe/fetch_shade.hpp"

#include <optional>

namespace drawpipe::a4xx {

class A4xxMiddleEnd final : public MiddleEnd {
  public:
    // `mode` forces naive or switch-rewritten runs; by default a shader that declares
    // independent_vertices runs switch-rewritten, any other naive.
    explicit A4xxMiddleEnd(std::optional<Mode> mode = std::nullopt, uint32_t max_vertices = 4096);

    std::string_view name() const override {
        return forced_ == Mode::naive ? "a4xx_naive" : "a4xx";
    }
    // Throws Error(unsupported) when switch mode is forced on a shader that does not
    // declare independent_vertices, and as fetch_shade does for bad draws.
    MiddleEndLimits prepare(const DrawState& state) override;
    const VertexLayout& layout() const override;
    std::unique_ptr<Scratch> make_scratch() const override;
    void run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const override;
    // invocations, kills, vertices, steps_naive, steps_switch (0 unless the shader
    // declares independent_vertices); invocations and kills are the same in both modes.
    std::span<const std::string_view> counter_names() const override;
    Mode mode() const { return mode_; } // valid after prepare with a GS

  private:
    std::optional<Mode> forced_;
    uint32_t max_vertices_;
    FetchShade plain_; // draws without a GS
    DrawState state_;
    VertexLayout in_layout_, out_layout_;
    Mode mode_ = Mode::naive;
};

} // namespace drawpipe::a4xx
