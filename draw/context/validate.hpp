// Checks on a draw before it is split: each throws Error with a message naming the field.
// A draw that passed all three may be handed to FrontEnd::begin, or replay a cached split.
#pragma once

#include "draw/front_end/front_end.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/types.hpp"

#include <optional>

namespace drawpipe {

// The draw's own fields: enums in range, positions within 32 bits, the index buffer
// present and, unless `robust_indices` (DrawOptions::robust_indices), long enough.
void validate_draw(const DrawInfo& draw, bool robust_indices = false);

// What the front end needs to split a validated draw under `options`: a nonzero vertex
// limit, a primitive the geometry shader's input type accepts, and a limit no smaller
// than one primitive needs. `gs` names the geometry shader in the error, when there is one.
void check_split(const DrawInfo& draw, const FrontEndOptions& options,
                 const GeometryShader* gs = nullptr);

// The index values of a validated draw (nothing to check when it is not indexed): that
// base vertex carries none out of [0, 2^32), and in debug builds that a given index_range
// bounds them. The bounds come from `known` (a cached split's recorded range), else the
// draw's index_range, else a scan of the indices.
void check_indices(const DrawInfo& draw, const std::optional<IndexRange>& known);

} // namespace drawpipe
