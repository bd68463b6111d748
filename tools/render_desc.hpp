// A draw description drawn the way `drawpipe render` draws it: through clipping, the
// viewport, the stages its state needs and the raster backend. Shared by the CLI and
// fuzz_render.
#pragma once

#include "drawpipe/backends/raster.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/strategy.hpp"
#include "tools/common/draw_text.hpp"

#include <memory>
#include <string>

namespace drawpipe::cli {

struct DescRender {
    uint32_t width = 64, height = 64; // the image, at most 16384 each
    std::string middle_end = "fetch_shade";
    Strategy strategy;
    uint32_t max_vertices = 0; // 0: the middle end's own limit
    uint32_t threads = 1;
    const GeometryShader* gs = nullptr;      // its first output is taken as the colour
    std::shared_ptr<const MiddleEnd> middle; // given: drawn with it instead of middle_end's
};

// The largest vertex id the draw can read, plus one: positions, colours and edge flags are
// stored up to it, so that ids without a value read the defaults. A restart index is no
// vertex id: with restart on, indices equal to it are not counted.
uint64_t vertex_span(const DrawDesc& desc);

// Vertex ids past 2^24, or an image larger than 16384, are an Error(invalid_value).
RasterBackend render_description(const DrawDesc& desc, const DescRender& how);

} // namespace drawpipe::cli
