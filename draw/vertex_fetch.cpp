#include "drawpipe/vertex_fetch.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/limits.hpp"

#include <cstring>
#include <string>

namespace drawpipe {

void fetch_attrib(const VertexBuffer& buffer, const VertexAttrib& a, uint64_t element,
                  uint32_t out[4]) {
    const uint32_t size = format_size(a.format);
    const uint64_t base = uint64_t(buffer.offset) + a.offset; // < 2^33: exact
    // Robust access: an element any byte of which lies past `buffer.size` reads as zeros.
    // Checked by division, because element * stride can exceed 64 bits (element < 2^33).
    const bool inside =
        buffer.data != nullptr && base <= buffer.size && size <= buffer.size - base &&
        (buffer.stride == 0 || element <= (buffer.size - base - size) / buffer.stride);
    if (!inside) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    const uint64_t at = base + element * buffer.stride; // <= buffer.size - size

    const auto* src = static_cast<const unsigned char*>(buffer.data) + at;
    if (a.format == Format::unorm8x4) {
        for (int c = 0; c < 4; ++c) {
            const float f = float(src[c]) / 255.0f;
            std::memcpy(&out[c], &f, 4);
        }
        return;
    }
    const uint32_t comps = format_components(a.format);
    const bool is_float = a.format <= Format::float32x4;
    const float one = 1.0f;
    out[0] = out[1] = out[2] = 0;
    std::memcpy(&out[3], &one, 4);
    if (!is_float) out[3] = 1;
    std::memcpy(out, src, 4 * comps);
}

void validate_vertex_input(const VertexInput& input) {
    if (input.attribs.size() > kMaxAttribs)
        throw Error(ErrorCode::invalid_value, "attribs: " + std::to_string(input.attribs.size()) +
                                                  " attributes, at most " +
                                                  std::to_string(kMaxAttribs));
    for (size_t i = 0; i < input.attribs.size(); ++i) {
        const VertexAttrib& a = input.attribs[i];
        if (a.buffer >= input.buffers.size())
            throw Error(ErrorCode::invalid_value, "attrib " + std::to_string(i) + ": buffer " +
                                                      std::to_string(a.buffer) + " is not bound");
        if (uint32_t(a.format) > uint32_t(Format::unorm8x4))
            throw Error(ErrorCode::invalid_value,
                        "attrib " + std::to_string(i) + ": unknown format");
    }
}

} // namespace drawpipe
