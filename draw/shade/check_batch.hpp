// What a middle end hands back for a segment, checked before anything reads it: a model of new
// hardware with a bug is then an Error(middle_end_failure) naming it, the draw and the segment,
// never a read past its vertices.
#pragma once

#include "drawpipe/extend/shaded.hpp"

#include <cstdint>
#include <string_view>

namespace drawpipe {

// Where a batch came from, for the error's text.
struct BatchSource {
    std::string_view middle_end; // its registered name
    uint64_t draw = 0;           // the draw's place among the context's (BatchOrder::draw)
    uint64_t segment = 0;        // Segment::sequence
};

// Throws Error(middle_end_failure) when `batch` is not what the contract
// (drawpipe/extend/shaded.hpp) says: vertex_count records of `stride` dwords, primitive ranges
// inside `elts` with a valid type and stream, and every element of every range below vertex_count.
// One pass over the elements, vectorised (about 2 % of W1's draw; bench/README.md "Checked middle
// ends").
void check_batch(const ShadedBatch& batch, uint32_t stride, const BatchSource& from);

} // namespace drawpipe
