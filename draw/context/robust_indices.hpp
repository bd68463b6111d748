// DrawOptions::robust_indices: a draw whose index positions reach past its index buffer reads
// those positions as index 0 (Mesa's vsplit, what llvmpipe draws), by drawing a copy of its
// indices padded with zeros, so that every path (the splitters, the range path, the split
// cache, tessellation and the geometry shader) reads a buffer long enough.
#pragma once

#include "drawpipe/types.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace drawpipe {

// Whether `draw` reads an index position past its index buffer.
bool reads_past_indices(const DrawInfo& draw);

// The draw with its indices [start, start + count) copied into `copy` (those past the buffer
// 0), start 0 and no split-cache buffer id; its index range, when given, takes in 0. `draw`
// itself when it reads nothing past its buffer (`copy` then untouched).
DrawInfo robust_draw(const DrawInfo& draw, std::shared_ptr<const std::vector<std::byte>>& copy);

} // namespace drawpipe
