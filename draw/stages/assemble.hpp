// Primitive assembly for the pipeline stages: one primitive range of a batch decomposed into
// points, lines and triangles in GL order, each with GL's per-primitive flags. Edge flags and
// stipple resets come only from the range's SplitFlags and each primitive's place in its run,
// so a split draw assembles exactly as the unsplit one.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/extend/stage.hpp"
#include "drawpipe/prim.hpp"

#include <span>

namespace drawpipe {

// `edge_flag_slot`: the record dword holding the per-vertex edge flag, or -1 (all true).
// `order`: which triangle of each quad of a quad strip comes first (for_each_rasterized).
void assemble(Prim prim, uint8_t split_flags, Provoking pv, const VertexView& vertices,
              std::span<const uint32_t> elts, int32_t edge_flag_slot, Stage& first,
              QuadStripOrder order = QuadStripOrder::pipeline);

} // namespace drawpipe
