// One row per Format: its name, how its components are stored, and how each converts to a
// 32-bit component (docs/vertex-formats.md). types.cpp answers the public queries from it,
// vertex_fetch.cpp decodes with it.
#pragma once

#include "drawpipe/types.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace drawpipe::detail {

// The conversion GL applies to one stored component.
enum class Conv : uint8_t {
    float32, // the bits as they are
    float16, // half float, converted exactly
    float64, // double, rounded to the nearest float
    fixed,   // GL_FIXED: signed 16.16
    unorm,   // c / (2^b - 1)
    snorm,   // max(c / (2^(b-1) - 1), -1)
    uscaled, // c as a float
    sscaled, // signed c as a float
    uint,    // zero-extended bits
    sint,    // sign-extended bits
    ufloat,  // unsigned small float: 5-bit exponent, b - 5 bits of mantissa
};

struct FormatInfo {
    Format format;
    std::string_view name;
    Conv conv;
    uint8_t components;              // 1-4
    uint8_t bits;                    // bits per component of a plain format: 8, 16, 32 or 64
    bool packed = false;             // the components share one 32-bit word, x from bit 0 up
    bool bgra = false;               // components 0 and 2 swap (GL_BGRA)
    std::array<uint8_t, 4> widths{}; // a packed format's component widths

    constexpr uint32_t size() const { return packed ? 4 : components * bits / 8u; }
};

namespace table {
constexpr FormatInfo plain(Format f, std::string_view name, Conv conv, int comps, int bits) {
    return {f, name, conv, uint8_t(comps), uint8_t(bits)};
}
constexpr FormatInfo packed(Format f, std::string_view name, Conv conv, bool bgra,
                            std::array<uint8_t, 4> widths, int comps = 4) {
    return {f, name, conv, uint8_t(comps), 32, true, bgra, widths};
}
} // namespace table

// clang-format off
inline constexpr std::array<FormatInfo, kFormatCount> kFormats = [] {
    using enum Format;
    using table::plain, table::packed;
    constexpr std::array<uint8_t, 4> k1010102 = {10, 10, 10, 2};
    std::array<FormatInfo, kFormatCount> t = {
        plain(float32x1, "float32x1", Conv::float32, 1, 32),
        plain(float32x2, "float32x2", Conv::float32, 2, 32),
        plain(float32x3, "float32x3", Conv::float32, 3, 32),
        plain(float32x4, "float32x4", Conv::float32, 4, 32),
        plain(uint32x1, "uint32x1", Conv::uint, 1, 32),
        plain(uint32x2, "uint32x2", Conv::uint, 2, 32),
        plain(uint32x3, "uint32x3", Conv::uint, 3, 32),
        plain(uint32x4, "uint32x4", Conv::uint, 4, 32),
        plain(sint32x1, "sint32x1", Conv::sint, 1, 32),
        plain(sint32x2, "sint32x2", Conv::sint, 2, 32),
        plain(sint32x3, "sint32x3", Conv::sint, 3, 32),
        plain(sint32x4, "sint32x4", Conv::sint, 4, 32),
        plain(float16x1, "float16x1", Conv::float16, 1, 16),
        plain(float16x2, "float16x2", Conv::float16, 2, 16),
        plain(float16x3, "float16x3", Conv::float16, 3, 16),
        plain(float16x4, "float16x4", Conv::float16, 4, 16),
        plain(float64x1, "float64x1", Conv::float64, 1, 64),
        plain(float64x2, "float64x2", Conv::float64, 2, 64),
        plain(float64x3, "float64x3", Conv::float64, 3, 64),
        plain(float64x4, "float64x4", Conv::float64, 4, 64),
        plain(fixed32x1, "fixed32x1", Conv::fixed, 1, 32),
        plain(fixed32x2, "fixed32x2", Conv::fixed, 2, 32),
        plain(fixed32x3, "fixed32x3", Conv::fixed, 3, 32),
        plain(fixed32x4, "fixed32x4", Conv::fixed, 4, 32),
        plain(unorm8x1, "unorm8x1", Conv::unorm, 1, 8),
        plain(unorm8x2, "unorm8x2", Conv::unorm, 2, 8),
        plain(unorm8x3, "unorm8x3", Conv::unorm, 3, 8),
        plain(unorm8x4, "unorm8x4", Conv::unorm, 4, 8),
        plain(unorm16x1, "unorm16x1", Conv::unorm, 1, 16),
        plain(unorm16x2, "unorm16x2", Conv::unorm, 2, 16),
        plain(unorm16x3, "unorm16x3", Conv::unorm, 3, 16),
        plain(unorm16x4, "unorm16x4", Conv::unorm, 4, 16),
        plain(unorm32x1, "unorm32x1", Conv::unorm, 1, 32),
        plain(unorm32x2, "unorm32x2", Conv::unorm, 2, 32),
        plain(unorm32x3, "unorm32x3", Conv::unorm, 3, 32),
        plain(unorm32x4, "unorm32x4", Conv::unorm, 4, 32),
        plain(snorm8x1, "snorm8x1", Conv::snorm, 1, 8),
        plain(snorm8x2, "snorm8x2", Conv::snorm, 2, 8),
        plain(snorm8x3, "snorm8x3", Conv::snorm, 3, 8),
        plain(snorm8x4, "snorm8x4", Conv::snorm, 4, 8),
        plain(snorm16x1, "snorm16x1", Conv::snorm, 1, 16),
        plain(snorm16x2, "snorm16x2", Conv::snorm, 2, 16),
        plain(snorm16x3, "snorm16x3", Conv::snorm, 3, 16),
        plain(snorm16x4, "snorm16x4", Conv::snorm, 4, 16),
        plain(snorm32x1, "snorm32x1", Conv::snorm, 1, 32),
        plain(snorm32x2, "snorm32x2", Conv::snorm, 2, 32),
        plain(snorm32x3, "snorm32x3", Conv::snorm, 3, 32),
        plain(snorm32x4, "snorm32x4", Conv::snorm, 4, 32),
        plain(uscaled8x1, "uscaled8x1", Conv::uscaled, 1, 8),
        plain(uscaled8x2, "uscaled8x2", Conv::uscaled, 2, 8),
        plain(uscaled8x3, "uscaled8x3", Conv::uscaled, 3, 8),
        plain(uscaled8x4, "uscaled8x4", Conv::uscaled, 4, 8),
        plain(uscaled16x1, "uscaled16x1", Conv::uscaled, 1, 16),
        plain(uscaled16x2, "uscaled16x2", Conv::uscaled, 2, 16),
        plain(uscaled16x3, "uscaled16x3", Conv::uscaled, 3, 16),
        plain(uscaled16x4, "uscaled16x4", Conv::uscaled, 4, 16),
        plain(uscaled32x1, "uscaled32x1", Conv::uscaled, 1, 32),
        plain(uscaled32x2, "uscaled32x2", Conv::uscaled, 2, 32),
        plain(uscaled32x3, "uscaled32x3", Conv::uscaled, 3, 32),
        plain(uscaled32x4, "uscaled32x4", Conv::uscaled, 4, 32),
        plain(sscaled8x1, "sscaled8x1", Conv::sscaled, 1, 8),
        plain(sscaled8x2, "sscaled8x2", Conv::sscaled, 2, 8),
        plain(sscaled8x3, "sscaled8x3", Conv::sscaled, 3, 8),
        plain(sscaled8x4, "sscaled8x4", Conv::sscaled, 4, 8),
        plain(sscaled16x1, "sscaled16x1", Conv::sscaled, 1, 16),
        plain(sscaled16x2, "sscaled16x2", Conv::sscaled, 2, 16),
        plain(sscaled16x3, "sscaled16x3", Conv::sscaled, 3, 16),
        plain(sscaled16x4, "sscaled16x4", Conv::sscaled, 4, 16),
        plain(sscaled32x1, "sscaled32x1", Conv::sscaled, 1, 32),
        plain(sscaled32x2, "sscaled32x2", Conv::sscaled, 2, 32),
        plain(sscaled32x3, "sscaled32x3", Conv::sscaled, 3, 32),
        plain(sscaled32x4, "sscaled32x4", Conv::sscaled, 4, 32),
        plain(uint8x1, "uint8x1", Conv::uint, 1, 8),
        plain(uint8x2, "uint8x2", Conv::uint, 2, 8),
        plain(uint8x3, "uint8x3", Conv::uint, 3, 8),
        plain(uint8x4, "uint8x4", Conv::uint, 4, 8),
        plain(uint16x1, "uint16x1", Conv::uint, 1, 16),
        plain(uint16x2, "uint16x2", Conv::uint, 2, 16),
        plain(uint16x3, "uint16x3", Conv::uint, 3, 16),
        plain(uint16x4, "uint16x4", Conv::uint, 4, 16),
        plain(sint8x1, "sint8x1", Conv::sint, 1, 8),
        plain(sint8x2, "sint8x2", Conv::sint, 2, 8),
        plain(sint8x3, "sint8x3", Conv::sint, 3, 8),
        plain(sint8x4, "sint8x4", Conv::sint, 4, 8),
        plain(sint16x1, "sint16x1", Conv::sint, 1, 16),
        plain(sint16x2, "sint16x2", Conv::sint, 2, 16),
        plain(sint16x3, "sint16x3", Conv::sint, 3, 16),
        plain(sint16x4, "sint16x4", Conv::sint, 4, 16),
        packed(unorm10_10_10_2, "unorm10_10_10_2", Conv::unorm, false, k1010102),
        packed(snorm10_10_10_2, "snorm10_10_10_2", Conv::snorm, false, k1010102),
        packed(uscaled10_10_10_2, "uscaled10_10_10_2", Conv::uscaled, false, k1010102),
        packed(sscaled10_10_10_2, "sscaled10_10_10_2", Conv::sscaled, false, k1010102),
        packed(ufloat11_11_10, "ufloat11_11_10", Conv::ufloat, false, {11, 11, 10, 0}, 3),
        {bgra_unorm8x4, "bgra_unorm8x4", Conv::unorm, 4, 8, false, true, {}},
        packed(bgra_unorm10_10_10_2, "bgra_unorm10_10_10_2", Conv::unorm, true, k1010102),
        packed(bgra_snorm10_10_10_2, "bgra_snorm10_10_10_2", Conv::snorm, true, k1010102),
    };
    return t;
}();
// clang-format on

// Row i describes Format(i).
static_assert([] {
    for (int i = 0; i < kFormatCount; ++i)
        if (kFormats[size_t(i)].format != Format(i)) return false;
    return true;
}());

// The row of a known format (format < kFormatCount).
inline const FormatInfo& format_info(Format format) {
    return kFormats[size_t(format)];
}

} // namespace drawpipe::detail
