// PNG files: stb's PNG writer (Debian's libstb-dev), compiled into png.cpp alone and static,
// so it cannot clash with a driver's own copy.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace drawpipe {

// Writes `rgba` (width x height pixels, RGBA8 as bytes R, G, B, A in memory, the top row
// first) to `path` as PNG. Throws Error(invalid_value) when the image cannot be encoded and
// Error(io_error) with the OS's reason when the file cannot be opened or written whole (a
// full disk included).
void write_rgba_png(const std::string& path, uint32_t width, uint32_t height,
                    std::span<const uint32_t> rgba);

} // namespace drawpipe
