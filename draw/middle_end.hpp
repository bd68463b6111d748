// The middle-end interface: fetch, shade and emit one segment at a time.
//
// A middle end is prepared once per draw (it keeps the immutable per-draw state), then
// `run` is called for every segment, possibly on several threads at once, each with scratch
// of its own from make_scratch(). Results land in a ShadedBatch the caller owns.
#pragma once

#include "draw/segment.hpp"
#include "draw/shaded.hpp"
#include "draw/types.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace drawpipe {

class GeometryShader; // draw/gs.hpp

// A vertex shader rewrites one shaded vertex in place: on entry the header holds the vertex
// and instance ids and the attributes hold the fetched values; it may write anything but
// the ids. It must be safe to call from several threads at once.
using VertexShader = std::function<void(uint32_t* vertex, const VertexLayout& layout)>;

// Everything a middle end may read about the current draw. Valid from prepare to finish.
struct DrawState {
    const DrawInfo* draw = nullptr;
    VertexInput input;
    const VertexShader* vs = nullptr;   // null: pass attributes through, position = attrib 0
    const GeometryShader* gs = nullptr; // null: no geometry stage
};

struct MiddleEndLimits {
    uint32_t max_vertices = 4096;    // most vertices one segment may ask to fetch
    bool handles_instancing = false; // segments carry every instance at once
    // Deliver whole input primitives of this list type (points, lines, lines_adjacency,
    // triangles, triangles_adjacency), as a geometry shader consumes them.
    std::optional<Prim> assemble_as;
    // With handles_instancing: keep GL order (all of instance 0 first) by giving every
    // instance at once only to a draw that is one segment; a draw that splits gets one
    // pass per instance instead.
    bool instancing_single_segment_only = false;
};

class MiddleEnd {
  public:
    struct Scratch {
        virtual ~Scratch() = default;
    };

    virtual ~MiddleEnd() = default;
    virtual std::string_view name() const = 0;

    // Validates the draw state for this middle end and returns its limits. Throws Error.
    virtual MiddleEndLimits prepare(const DrawState& state) = 0;
    // Layout of the vertices `run` produces; valid after prepare.
    virtual const VertexLayout& layout() const = 0;
    // Per-thread scratch for run(); null when none is needed.
    virtual std::unique_ptr<Scratch> make_scratch() const { return nullptr; }
    // Fetches, shades and assembles one segment into `out` (cleared by the caller). Must be
    // safe to call concurrently with distinct scratch and out.
    virtual void run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const = 0;
    // Called once after the last segment of a draw.
    virtual void finish() {}
    // Names of the per-segment counters this middle end writes into ShadedBatch::counters.
    virtual std::span<const std::string_view> counter_names() const { return {}; }
};

} // namespace drawpipe
