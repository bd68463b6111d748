// Many small draws with one bound state (issue 29): the second and later draws of a run that
// differ from the first only in where they start reuse what the first was prepared with
// (the prepared middle end, its split options, the stream-output and raster plans), so the
// calling thread does per draw only the checks that depend on the draw itself.
#pragma once

#include "draw/context/prepared_draw.hpp"

namespace drawpipe {

// Whether a draw `next` may be prepared like the prepared draw `like` (prepare_draw_like):
// every field of their DrawInfo but `start` and `draw_id` is equal (the draw id reaches the
// middle end through Segment::draw_id, so the sub-draws of a multi-draw share a
// preparation). The caller also guarantees that the bound state (vertex input, shaders,
// middle end, stream output, raster state, stages, options) has not changed since `like`
// was prepared: a middle end's prepare() may read any of it, and any field of the draw but
// where it starts and its draw id (Mali's reads the count).
bool same_but_start(const DrawInfo& like, const DrawInfo& next);

// `state` prepared as prepare_draw would, given that a draw satisfying same_but_start was
// prepared with the same bound state into `like`: every check that depends on where the draw
// starts runs again (validate_draw, the split limits, the split cache, base vertex against
// the indices), the rest is `like`'s. Throws Error as prepare_draw does.
// `validated`: the caller has run validate_draw on state.draw already (a multi-draw's first
// pass), so it is not run twice.
PreparedDraw prepare_draw_like(const PreparedDraw& like, const DrawState& state,
                               const DrawOptions& options, bool validated = false);

} // namespace drawpipe
