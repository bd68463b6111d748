// tessellate(): the domain's tessellator, after the patch's primitive type for the output.
#include "drawpipe/tessellator.hpp"

#include "draw/tess/tess_detail.hpp"

namespace drawpipe {

bool tessellate(const TessState& state, const TessLevels& levels, TessDomain& out) {
    // No clear() first: each domain resizes the vectors to their exact new sizes, so a patch
    // as large as the last one zero-fills nothing before overwriting it.
    out.prim = state.point_mode                   ? Prim::points
               : state.mode == TessMode::isolines ? Prim::lines
                                                  : Prim::triangles;
    bool drawn = false;
    switch (state.mode) {
    case TessMode::triangles:
        drawn = tess::tessellate_triangles(state, levels, out);
        break;
    case TessMode::quads:
        drawn = tess::tessellate_quads(state, levels, out);
        break;
    case TessMode::isolines:
        drawn = tess::tessellate_isolines(state, levels, out);
        break;
    }
    if (!drawn) {
        out.coords.clear();
        out.elements.clear();
    }
    return drawn;
}

} // namespace drawpipe
