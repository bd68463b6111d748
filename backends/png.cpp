#include "backends/png.hpp"

#include "drawpipe/error.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace drawpipe {

void write_rgba_png(const std::string& path, uint32_t width, uint32_t height,
                    std::span<const uint32_t> rgba) {
    // Encoded in memory, then written here: stb's own file writer does not report a failed
    // write (a full disk), and a picture that was not written must not pass for one.
    std::vector<unsigned char> png;
    const auto append = [](void* to, void* data, int size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        static_cast<std::vector<unsigned char>*>(to)->insert(
            static_cast<std::vector<unsigned char>*>(to)->end(), bytes, bytes + size);
    };
    if (!stbi_write_png_to_func(append, &png, int(width), int(height), 4, rgba.data(),
                                int(width * 4)))
        throw Error(ErrorCode::invalid_value, "png: cannot encode '" + path + "'");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw Error(ErrorCode::io_error, "png '" + path + "': " + std::strerror(errno));
    errno = 0;
    const bool wrote = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    const int write_error = errno;
    const bool closed = std::fclose(f) == 0; // flushes: a full disk may show only here
    if (!wrote || !closed)
        throw Error(ErrorCode::io_error,
                    "png '" + path + "': " + std::strerror(wrote ? errno : write_error));
}

} // namespace drawpipe
