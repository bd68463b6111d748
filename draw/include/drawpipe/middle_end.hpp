// A middle end as a driver holds it: bound to a Context (by registered name or as an
// instance), named, its counters read after a draw. Authors implement it with the types of
// <drawpipe/extend/middle_end.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

struct DrawState;        // drawpipe/extend/middle_end.hpp
class MiddleEndDraw;     // drawpipe/extend/middle_end.hpp
struct MiddleEndScratch; // drawpipe/extend/middle_end.hpp

// A figure a middle end derives from its summed counters (Mali's waste ratio, say).
struct DerivedFigure {
    std::string name;
    double value = 0;
};

class MiddleEnd {
  public:
    virtual ~MiddleEnd() = default;
    virtual std::string_view name() const = 0;

    // Prepares the draw. `state` has passed the draw module's checks (the draw, the vertex
    // input, the shaders, tessellation and the GS link: prepare_draw); a middle end refuses
    // only what it cannot do, with Error. The GS feed is checked after it, against its
    // limits().assemble_as.
    virtual std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const = 0;
    // Per-thread scratch for MiddleEndDraw::shade; null when none is needed.
    virtual std::unique_ptr<MiddleEndScratch> make_scratch() const;
    // Names of the per-segment counters shade() writes into ShadedBatch::counters, in order.
    virtual std::span<const std::string_view> counters() const { return {}; }
    // Figures derived from a draw's (or a flush's) summed counters.
    virtual std::vector<DerivedFigure> derived(std::span<const uint64_t> /*counters*/) const {
        return {};
    }
};

} // namespace drawpipe
