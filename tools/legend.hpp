// A key drawn into a picture before it is written: what its colours mean (a few lines of
// text, and a swatch per key colour with its number), or a one-line caption. Text is
// stb_easy_font's (Debian's libstb-dev), so the PNG explains itself without a font file.
#pragma once

#include "drawpipe/backends/raster.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace drawpipe::cli {

struct Legend {
    std::vector<std::string> lines;                   // top to bottom
    std::vector<std::array<float, 3>> swatch_colours; // a swatch per key, in order
    std::vector<std::string> swatch_labels;           // the number beside each
    std::string more;                                 // after the swatches ("and 40 more")
    bool caption = false; // one line at the bottom instead of a box at the top left
};

// Rows a legend of `lines` lines of text and up to two rows of swatches covers at the top of a
// picture `width` wide: a framing camera leaves them free.
uint32_t legend_reserve(uint32_t width, size_t lines);

// Writes `image` as PNG to `path` with `legend` drawn over it (nothing drawn for an empty
// legend). The image itself is not changed: --pixels prints the picture without the key.
// Throws Error(io_error) naming `option`, the path and the OS's reason when it cannot write.
void write_png_with_legend(const RasterBackend& image, const Legend& legend,
                           const std::string& path, const std::string& option);

} // namespace drawpipe::cli
