#include "drawpipe/extend/vertex_fetch.hpp"

#include "draw/shade/format_table.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

namespace drawpipe {

namespace {

using detail::Conv;
using detail::FormatInfo;

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559);

uint32_t bits_of(float f) {
    return std::bit_cast<uint32_t>(f);
}
// Rounded to the nearest float, ties to even (the IEEE default the library runs under).
uint32_t bits_of(double d) {
    return bits_of(float(d));
}

// The low `bits` bits of `raw` as a signed number.
int64_t sign_extend(uint64_t raw, uint32_t bits) {
    return int64_t(raw << (64 - bits)) >> (64 - bits);
}

// An unsigned small float with a 5-bit exponent (bias 15) above `mantissa` bits: half's
// magnitude, and the 11- and 10-bit fields of ufloat11_11_10. Exact in a float.
uint32_t small_float(uint32_t v, uint32_t mantissa) {
    const uint32_t exp = v >> mantissa, man = v & ((1u << mantissa) - 1);
    if (exp == 0) return bits_of(std::ldexp(float(man), -14 - int(mantissa))); // zero, denormal
    if (exp == 31) return 0x7F800000u | man << (23 - mantissa);                // inf, NaN
    return (exp - 15 + 127) << 23 | man << (23 - mantissa);
}

// One stored component (its `bits` low bits in `raw`) as GL converts it.
//
// The normalized conversions are computed in double and rounded once to float. For
// components of 16 bits or fewer this is the correctly rounded quotient (both operands are
// exact floats, and a double carries more than twice a float's precision, so rounding twice
// changes nothing); for 32 bits it is this rule exactly, which GL leaves to the
// implementation. fixed32 and the scaled conversions round once, the same way.
uint32_t convert(Conv conv, uint64_t raw, uint32_t bits) {
    switch (conv) {
    case Conv::float32:
    case Conv::uint:
        return uint32_t(raw);
    case Conv::sint:
        return uint32_t(sign_extend(raw, bits));
    case Conv::float16:
        return uint32_t(raw & 0x8000) << 16 | small_float(uint32_t(raw & 0x7FFF), 10);
    case Conv::float64:
        return bits_of(std::bit_cast<double>(raw));
    case Conv::ufloat:
        return small_float(uint32_t(raw), bits - 5);
    case Conv::fixed:
        return bits_of(double(sign_extend(raw, 32)) / 65536.0);
    case Conv::unorm:
        return bits_of(double(raw) / double((uint64_t(1) << bits) - 1));
    case Conv::snorm:
        return bits_of(std::max(
            double(sign_extend(raw, bits)) / double((uint64_t(1) << (bits - 1)) - 1), -1.0));
    case Conv::uscaled:
        return bits_of(double(raw));
    case Conv::sscaled:
        return bits_of(double(sign_extend(raw, bits)));
    }
    return 0;
}

// Component c of a plain format, as stored (host byte order, as GL buffers are).
uint64_t load(const unsigned char* src, uint32_t bits, uint32_t c) {
    switch (bits) {
    case 8:
        return src[c];
    case 16: {
        uint16_t v;
        std::memcpy(&v, src + 2 * c, 2);
        return v;
    }
    case 32: {
        uint32_t v;
        std::memcpy(&v, src + 4 * c, 4);
        return v;
    }
    default: {
        uint64_t v;
        std::memcpy(&v, src + 8 * c, 8);
        return v;
    }
    }
}

} // namespace

void fetch_attrib(const VertexBuffer& buffer, const VertexAttrib& a, uint64_t element,
                  uint32_t out[4]) {
    if (!a.enabled) {
        std::copy(a.current.begin(), a.current.end(), out);
        return;
    }
    // validate_vertex_input refuses unknown formats; a caller that skipped it reads zeros
    // rather than past the format table.
    if (uint32_t(a.format) >= uint32_t(kFormatCount)) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    const FormatInfo& f = detail::format_info(a.format);
    const uint32_t size = f.size();
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

    // Missing components are (0, 0, 0, 1): 1.0f, or integer 1 for the pure-integer formats.
    const bool integer = f.conv == Conv::uint || f.conv == Conv::sint;
    out[0] = out[1] = out[2] = 0;
    out[3] = integer ? 1u : bits_of(1.0f);
    if (f.packed) {
        uint32_t word;
        std::memcpy(&word, src, 4);
        for (uint32_t c = 0, shift = 0; c < f.components; shift += f.widths[c++]) {
            const uint32_t w = f.widths[c];
            out[c] = convert(f.conv, (word >> shift) & ((1u << w) - 1), w);
        }
    } else {
        for (uint32_t c = 0; c < f.components; ++c)
            out[c] = convert(f.conv, load(src, f.bits, c), f.bits);
    }
    if (f.bgra) std::swap(out[0], out[2]);
}

void fetch_vertex_attrib(const VertexInput& input, const VertexAttrib& a, uint32_t vertex_id,
                         uint32_t instance, uint32_t base_instance, uint32_t out[4]) {
    if (!a.enabled) return fetch_attrib({}, a, 0, out);
    fetch_attrib(input.buffers[a.buffer], a, attrib_element(a, vertex_id, instance, base_instance),
                 out);
}

void validate_vertex_input(const VertexInput& input) {
    if (input.attribs.size() > kMaxAttribs)
        throw Error(ErrorCode::invalid_value, "attribs: " + std::to_string(input.attribs.size()) +
                                                  " attributes, at most " +
                                                  std::to_string(kMaxAttribs));
    for (size_t i = 0; i < input.attribs.size(); ++i) {
        const VertexAttrib& a = input.attribs[i];
        const auto fail = [i](const std::string& what) {
            throw Error(ErrorCode::invalid_value, "attrib " + std::to_string(i) + ": " + what);
        };
        if (!a.enabled) { // only the current value is read
            if (uint32_t(a.current_type) > uint32_t(ValueType::uint32))
                fail("unknown current_type " + std::to_string(int(a.current_type)));
            continue;
        }
        if (a.buffer >= input.buffers.size())
            fail("buffer " + std::to_string(a.buffer) + " is not bound");
        if (int(a.format) >= kFormatCount) fail("unknown format " + std::to_string(int(a.format)));
    }
}

} // namespace drawpipe
