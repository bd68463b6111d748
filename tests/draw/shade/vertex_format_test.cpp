// Every vertex format against a scalar reference written here from GL 4.5's conversion
// rules (section "Vertex Attributes"; "Conversion from Normalized Fixed-Point"), not from
// the library: exhaustively for 8-, 10-, 11- and 16-bit components, sampled and at the edges
// for 32- and 64-bit ones. Also the defaults of missing components, BGRA, packed bit
// positions, disabled arrays, robust access for every element size, and validation.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace drawpipe;

namespace drawpipe {
// GoogleTest prints a Format parameter by name.
void PrintTo(Format f, std::ostream* os) {
    *os << format_name(f);
}
} // namespace drawpipe

namespace {

// ---- What a format is, read from its name ------------------------------------------------

enum class Kind {
    float32,
    half,
    float64,
    fixed,
    unorm,
    snorm,
    uscaled,
    sscaled,
    uint,
    sint,
    ufloat
};

struct Spec {
    Kind kind = Kind::float32;
    int bits = 0;  // per component of a plain format
    int comps = 0; // 1-4
    bool packed = false;
    bool is_11_11_10 = false;
    bool bgra = false;
    uint32_t size() const { return packed ? 4u : uint32_t(comps * bits / 8); }
};

Spec spec_of(Format f) {
    std::string n(format_name(f));
    Spec s;
    if (n.starts_with("bgra_")) {
        s.bgra = true;
        n = n.substr(5);
    }
    const auto kind_of = [](const std::string& k, int bits) {
        if (k == "float")
            return bits == 16 ? Kind::half : bits == 64 ? Kind::float64 : Kind::float32;
        if (k == "fixed") return Kind::fixed;
        if (k == "unorm") return Kind::unorm;
        if (k == "snorm") return Kind::snorm;
        if (k == "uscaled") return Kind::uscaled;
        if (k == "sscaled") return Kind::sscaled;
        if (k == "uint") return Kind::uint;
        if (k == "sint") return Kind::sint;
        if (k == "ufloat") return Kind::ufloat;
        ADD_FAILURE() << "kind " << k;
        return Kind::float32;
    };
    const size_t digit = n.find_first_of("0123456789");
    const std::string kind = n.substr(0, digit), rest = n.substr(digit);
    if (rest == "10_10_10_2" || rest == "11_11_10") {
        s.packed = true;
        s.is_11_11_10 = rest == "11_11_10";
        s.comps = s.is_11_11_10 ? 3 : 4;
        s.kind = kind_of(kind, 0);
        return s;
    }
    const size_t x = rest.find('x');
    s.bits = std::stoi(rest.substr(0, x));
    s.comps = std::stoi(rest.substr(x + 1));
    s.kind = kind_of(kind, s.bits);
    return s;
}

// ---- The reference ---------------------------------------------------------------------

// An expected dword: exact bits, or "any NaN" where GL leaves the NaN's bits open.
struct Expect {
    uint32_t bits = 0;
    bool any_nan = false;
};

Expect of_float(float f) {
    if (std::isnan(f)) return {0, true};
    return {std::bit_cast<uint32_t>(f), false};
}

int64_t signed_value(uint64_t raw, int bits) {
    return raw >= (uint64_t(1) << (bits - 1)) ? int64_t(raw) - (int64_t(1) << bits) : int64_t(raw);
}

// An unsigned float with a 5-bit exponent (bias 15) and `m` mantissa bits: 0 and denormals
// are m * 2^(-14-m), exponent 31 is infinity (m = 0) or NaN.
float small_float_value(uint32_t v, int m) {
    const uint32_t e = v >> m, man = v & ((1u << m) - 1);
    if (e == 31)
        return man ? std::numeric_limits<float>::quiet_NaN()
                   : std::numeric_limits<float>::infinity();
    if (e == 0) return float(std::ldexp(double(man), -14 - m));
    return float(std::ldexp(double((1u << m) + man), int(e) - 15 - m));
}

// One stored component of `bits` bits as GL converts it.
Expect convert(Kind kind, uint64_t raw, int bits) {
    const double unsigned_max = std::ldexp(1.0, bits) - 1;   // 2^b - 1
    const double signed_max = std::ldexp(1.0, bits - 1) - 1; // 2^(b-1) - 1
    switch (kind) {
    case Kind::float32:
        return {uint32_t(raw), false}; // the bits, NaN payloads included
    case Kind::half: {
        const float mag = small_float_value(uint32_t(raw & 0x7FFF), 10);
        return of_float(raw & 0x8000 ? -mag : mag);
    }
    case Kind::float64: {
        double d;
        std::memcpy(&d, &raw, 8);
        return of_float(float(d));
    }
    case Kind::ufloat:
        return of_float(small_float_value(uint32_t(raw), bits - 5));
    case Kind::fixed:
        return of_float(float(double(int32_t(uint32_t(raw))) / 65536.0));
    case Kind::unorm:
        return of_float(float(double(raw) / unsigned_max));
    case Kind::snorm: {
        const double v = double(signed_value(raw, bits)) / signed_max;
        return of_float(float(v < -1.0 ? -1.0 : v));
    }
    case Kind::uscaled:
        return of_float(float(uint32_t(raw)));
    case Kind::sscaled:
        return of_float(float(int32_t(signed_value(raw, bits))));
    case Kind::uint:
        return {uint32_t(raw), false};
    case Kind::sint:
        return {uint32_t(int32_t(signed_value(raw, bits))), false};
    }
    return {};
}

// GL reads buffers in the host's byte order; this reference assumes a little-endian host.
static_assert(std::endian::native == std::endian::little);

uint64_t read_le(const unsigned char* p, int bytes) {
    uint64_t v = 0;
    std::memcpy(&v, p, size_t(bytes));
    return v;
}

// The four dwords GL gives for the element at `p`.
std::array<Expect, 4> reference(const Spec& s, const unsigned char* p) {
    const bool integer = s.kind == Kind::uint || s.kind == Kind::sint;
    std::array<Expect, 4> e = {Expect{}, Expect{}, Expect{},
                               integer ? Expect{1, false} : of_float(1.0f)};
    if (s.packed) {
        const uint32_t w = uint32_t(read_le(p, 4));
        if (s.is_11_11_10) {
            e[0] = convert(s.kind, w & 0x7FF, 11);
            e[1] = convert(s.kind, (w >> 11) & 0x7FF, 11);
            e[2] = convert(s.kind, w >> 22, 10);
        } else {
            e[0] = convert(s.kind, w & 0x3FF, 10);
            e[1] = convert(s.kind, (w >> 10) & 0x3FF, 10);
            e[2] = convert(s.kind, (w >> 20) & 0x3FF, 10);
            e[3] = convert(s.kind, w >> 30, 2);
        }
    } else {
        for (int c = 0; c < s.comps; ++c)
            e[size_t(c)] = convert(s.kind, read_le(p + c * s.bits / 8, s.bits / 8), s.bits);
    }
    if (s.bgra) std::swap(e[0], e[2]);
    return e;
}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%x", v);
    return b;
}

::testing::AssertionResult matches(const std::array<Expect, 4>& want, const uint32_t got[4]) {
    for (int c = 0; c < 4; ++c) {
        const Expect& e = want[size_t(c)];
        const bool ok = e.any_nan ? std::isnan(std::bit_cast<float>(got[c])) : got[c] == e.bits;
        if (!ok)
            return ::testing::AssertionFailure() << "component " << c << ": got " << hex(got[c])
                                                 << ", want " << (e.any_nan ? "NaN" : hex(e.bits));
    }
    return ::testing::AssertionSuccess();
}

// ---- The inputs --------------------------------------------------------------------------

std::vector<uint32_t> samples32() {
    std::vector<uint32_t> v = {
        0,          1,          2,          0x7F,       0x80,       0xFF,       0x7FFF,
        0x8000,     0xFFFF,     0x10000,    0x18000,    0xFFFF0000, 0x00FFFFFF, 0x01000000,
        0x01000001, 0x7FFFFFFF, 0x7FFFFFFE, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE,
        0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001,
        0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x40490FDB, 0x55555555, 0xAAAAAAAA};
    std::mt19937 rng(14);
    for (int i = 0; i < 20000; ++i) v.push_back(uint32_t(rng()));
    return v;
}

std::vector<uint64_t> samples64() {
    const auto d = [](double x) { return std::bit_cast<uint64_t>(x); };
    const double fmax = std::numeric_limits<float>::max();
    const double fmax_half_ulp = std::ldexp(1.0, 103); // half of FLT_MAX's ulp
    std::vector<uint64_t> v = {d(0.0),
                               d(-0.0),
                               d(1.0),
                               d(-1.0),
                               d(0.1),
                               d(1e-50),
                               d(-1e-50),
                               d(std::ldexp(1.0, -149)),
                               d(std::ldexp(1.0, -150)),
                               d(std::ldexp(1.5, -150)),
                               d(fmax),
                               d(fmax + fmax_half_ulp),
                               d(fmax + fmax_half_ulp / 2),
                               d(-fmax - fmax_half_ulp),
                               d(1e300),
                               d(-1e300),
                               d(1.0 + std::ldexp(1.0, -24)),
                               d(1.0 + std::ldexp(3.0, -24)),
                               d(1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -52)),
                               d(std::numeric_limits<double>::infinity()),
                               d(-std::numeric_limits<double>::infinity()),
                               d(std::numeric_limits<double>::quiet_NaN()),
                               0x7FF0000000000001ull,
                               0xFFF8000000000123ull,
                               1,
                               0x8000000000000001ull};
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> real(-1e6, 1e6);
    for (int i = 0; i < 5000; ++i) {
        v.push_back(rng());
        v.push_back(d(real(rng)));
        // A tie between two floats, and just either side of it.
        const double f = double(float(real(rng)));
        const double tie = f + std::ldexp(1.0, std::ilogb(f) - 24);
        v.push_back(d(tie));
        v.push_back(d(std::nextafter(tie, 0.0)));
        v.push_back(d(std::nextafter(tie, 1e9)));
    }
    return v;
}

// The elements one format is tested on, one after another (size bytes each).
std::vector<unsigned char> elements_for(const Spec& s) {
    std::vector<unsigned char> out;
    const auto put = [&out](uint64_t v, int bytes) {
        const size_t at = out.size();
        out.resize(at + size_t(bytes));
        std::memcpy(out.data() + at, &v, size_t(bytes));
    };
    std::mt19937 rng(41);
    if (s.packed && !s.is_11_11_10) {
        // Every 10-bit value in x, y and z, every 2-bit value in w; then random words.
        for (uint32_t k = 0; k < 1024; ++k)
            put((k & 0x3FF) | ((k * 3 + 5) & 0x3FF) << 10 | ((k * 5 + 11) & 0x3FF) << 20 |
                    (k & 3) << 30,
                4);
        for (int k = 0; k < 4096; ++k) put(rng(), 4);
    } else if (s.packed) {
        // Every 11-bit value in R and G, every 10-bit value in B; then random words.
        for (uint32_t k = 0; k < 2048; ++k)
            put((k & 0x7FF) | ((k * 3 + 7) & 0x7FF) << 11 | ((k * 5 + 1) & 0x3FF) << 22, 4);
        for (int k = 0; k < 4096; ++k) put(rng(), 4);
    } else if (s.bits <= 16) {
        // Every value in every component.
        const uint32_t n = 1u << s.bits, mask = n - 1;
        for (uint32_t k = 0; k < n; ++k)
            for (int c = 0; c < s.comps; ++c) put((k + 40503u * uint32_t(c)) & mask, s.bits / 8);
    } else if (s.bits == 32) {
        const std::vector<uint32_t> v = samples32();
        for (size_t k = 0; k < v.size(); ++k)
            for (int c = 0; c < s.comps; ++c) put(v[(k + 7 * size_t(c)) % v.size()], 4);
    } else {
        const std::vector<uint64_t> v = samples64();
        for (size_t k = 0; k < v.size(); ++k)
            for (int c = 0; c < s.comps; ++c) put(v[(k + 7 * size_t(c)) % v.size()], 8);
    }
    return out;
}

std::vector<Format> all_formats() {
    std::vector<Format> v;
    for (int f = 0; f < kFormatCount; ++f) v.push_back(Format(f));
    return v;
}

uint32_t fbits(float f) {
    return std::bit_cast<uint32_t>(f);
}

// Fetches element 0 of `bytes` read as `format`.
std::array<uint32_t, 4> fetch_one(Format format, const std::vector<unsigned char>& bytes) {
    const VertexBuffer vb{bytes.data(), bytes.size(), 0, 0};
    VertexAttrib a;
    a.format = format;
    std::array<uint32_t, 4> out{};
    fetch_attrib(vb, a, 0, out.data());
    return out;
}

std::vector<unsigned char> bytes_of_u32(uint32_t v) {
    std::vector<unsigned char> b(4);
    std::memcpy(b.data(), &v, 4);
    return b;
}

// ---- Tests -------------------------------------------------------------------------------

class VertexFormat : public ::testing::TestWithParam<Format> {};

TEST_P(VertexFormat, MatchesTheGlReference) {
    const Format format = GetParam();
    const Spec s = spec_of(format);
    const std::vector<unsigned char> elements = elements_for(s);
    const uint32_t size = s.size();
    ASSERT_EQ(elements.size() % size, 0u);
    const size_t n = elements.size() / size;
    // Elements one byte apart from each other and from the start: nothing is aligned.
    std::vector<unsigned char> buffer(3 + n * (size + 1));
    for (size_t k = 0; k < n; ++k)
        std::memcpy(&buffer[3 + k * (size + 1)], &elements[k * size], size);
    const VertexBuffer vb{buffer.data(), buffer.size(), size + 1, 1};
    VertexAttrib a;
    a.format = format;
    a.offset = 2;
    size_t failures = 0;
    for (size_t k = 0; k < n && failures < 10; ++k) {
        uint32_t out[4];
        fetch_attrib(vb, a, k, out);
        const auto r = matches(reference(s, &elements[k * size]), out);
        if (!r) {
            ++failures;
            ADD_FAILURE() << format_name(format) << " element " << k << ": " << r.message();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Every, VertexFormat, ::testing::ValuesIn(all_formats()),
                         [](const auto& info) { return std::string(format_name(info.param)); });

TEST(VertexFormats, NamesSizesComponentsAndValueTypes) {
    std::set<std::string_view> names;
    for (Format f : all_formats()) {
        const std::string_view name = format_name(f);
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(parse_format(name), f) << name;
        const Spec s = spec_of(f);
        EXPECT_EQ(format_size(f), s.size()) << name;
        EXPECT_EQ(format_components(f), uint32_t(s.comps)) << name;
        const ValueType want = s.kind == Kind::uint   ? ValueType::uint32
                               : s.kind == Kind::sint ? ValueType::sint32
                                                      : ValueType::float32;
        EXPECT_EQ(format_value_type(f), want) << name;
    }
    EXPECT_EQ(names.size(), size_t(kFormatCount));
    // 3 float kinds + fixed, 6 integer flavours at 3 widths (pure integer at 32 bits is
    // uint32 / sint32), 1-4 components each; 4 packed 10_10_10_2, 11_11_10, 3 BGRA.
    EXPECT_EQ(kFormatCount, 4 * 4 + 6 * 3 * 4 + 4 + 1 + 3);
    for (std::string_view kept : {"float32x4", "uint32x1", "sint32x3", "unorm8x4"})
        EXPECT_TRUE(parse_format(kept).has_value()) << kept;
    EXPECT_EQ(parse_format("unorm8x5"), std::nullopt);
    EXPECT_EQ(format_name(Format(kFormatCount)), "unknown");
    EXPECT_EQ(format_size(Format(255)), 0u);
    EXPECT_EQ(format_components(Format(255)), 0u);
}

TEST(VertexFormats, MissingComponentsAreZeroZeroZeroOne) {
    EXPECT_EQ(fetch_one(Format::uint8x1, {200}),
              (std::array<uint32_t, 4>{200, 0, 0, 1})); // integer 1
    EXPECT_EQ(fetch_one(Format::sint16x2, {0xFF, 0xFF, 2, 0}),
              (std::array<uint32_t, 4>{0xFFFFFFFF, 2, 0, 1}));
    EXPECT_EQ(fetch_one(Format::sscaled8x2, {0xFE, 3}),
              (std::array<uint32_t, 4>{fbits(-2.0f), fbits(3.0f), 0, fbits(1.0f)}));
    EXPECT_EQ(fetch_one(Format::float16x3, {0, 0x3C, 0, 0xC0, 0, 0}),
              (std::array<uint32_t, 4>{fbits(1.0f), fbits(-2.0f), 0, fbits(1.0f)}));
    EXPECT_EQ(fetch_one(Format::ufloat11_11_10, bytes_of_u32(0))[3], fbits(1.0f));
    // Every format with fewer than four components fills the rest the same way.
    for (Format f : all_formats()) {
        const Spec s = spec_of(f);
        const std::vector<unsigned char> zeros(format_size(f), 0);
        const auto out = fetch_one(f, zeros);
        const bool integer = s.kind == Kind::uint || s.kind == Kind::sint;
        for (int c = s.comps; c < 3; ++c) EXPECT_EQ(out[size_t(c)], 0u) << format_name(f);
        if (s.comps < 4) {
            EXPECT_EQ(out[3], integer ? 1u : fbits(1.0f)) << format_name(f);
        }
    }
}

TEST(VertexFormats, GlValuesAtTheEdges) {
    const auto f0 = [](Format f, std::vector<unsigned char> b) { return fetch_one(f, b)[0]; };
    EXPECT_EQ(f0(Format::snorm8x1, {0x80}), fbits(-1.0f)); // -128 clamps
    EXPECT_EQ(f0(Format::snorm8x1, {0x81}), fbits(-1.0f)); // -127
    EXPECT_EQ(f0(Format::snorm8x1, {0x7F}), fbits(1.0f));
    EXPECT_EQ(f0(Format::snorm8x1, {0x01}), fbits(float(1.0 / 127.0)));
    EXPECT_EQ(f0(Format::unorm16x1, {0xFF, 0xFF}), fbits(1.0f));
    EXPECT_EQ(f0(Format::unorm32x1, {0xFF, 0xFF, 0xFF, 0xFF}), fbits(1.0f));
    EXPECT_EQ(f0(Format::snorm32x1, {0, 0, 0, 0x80}), fbits(-1.0f));
    EXPECT_EQ(f0(Format::snorm32x1, {0xFF, 0xFF, 0xFF, 0x7F}), fbits(1.0f));
    EXPECT_EQ(f0(Format::fixed32x1, bytes_of_u32(0x00018000)), fbits(1.5f));
    EXPECT_EQ(f0(Format::fixed32x1, bytes_of_u32(0xFFFF0000)), fbits(-1.0f));
    EXPECT_EQ(f0(Format::fixed32x1, bytes_of_u32(1)), fbits(1.0f / 65536));
    EXPECT_EQ(f0(Format::float16x1, {0x01, 0x00}), fbits(std::ldexp(1.0f, -24)));
    EXPECT_EQ(f0(Format::float16x1, {0x00, 0x7C}), fbits(std::numeric_limits<float>::infinity()));
    EXPECT_EQ(f0(Format::float16x1, {0x00, 0xFC}), fbits(-std::numeric_limits<float>::infinity()));
    EXPECT_EQ(f0(Format::float16x1, {0x00, 0x80}), fbits(-0.0f));
    EXPECT_EQ(f0(Format::float16x1, {0xFF, 0x7B}), fbits(65504.0f));
    EXPECT_TRUE(std::isnan(std::bit_cast<float>(f0(Format::float16x1, {0x00, 0x7E}))));
    EXPECT_EQ(f0(Format::uint8x1, {0xFF}), 0xFFu); // zero-extended
    EXPECT_EQ(f0(Format::sint8x1, {0xFF}), 0xFFFFFFFFu);
    EXPECT_EQ(f0(Format::sint16x1, {0x00, 0x80}), 0xFFFF8000u);
    EXPECT_EQ(f0(Format::uscaled32x1, bytes_of_u32(0xFFFFFFFF)), fbits(4294967296.0f));
    EXPECT_EQ(f0(Format::sscaled32x1, bytes_of_u32(0x80000000)), fbits(-2147483648.0f));
    std::vector<unsigned char> d(8);
    const double third = 1.0 / 3.0;
    std::memcpy(d.data(), &third, 8);
    EXPECT_EQ(f0(Format::float64x1, d), fbits(float(third)));
}

TEST(VertexFormats, PackedBitPositions) {
    // unorm: one field at its maximum gives 1.0 in its component only.
    const uint32_t fields[4] = {0x3FFu, 0x3FFu << 10, 0x3FFu << 20, 3u << 30};
    for (int c = 0; c < 4; ++c) {
        const auto out = fetch_one(Format::unorm10_10_10_2, bytes_of_u32(fields[c]));
        for (int k = 0; k < 4; ++k)
            EXPECT_EQ(out[size_t(k)], k == c ? fbits(1.0f) : 0u) << c << " " << k;
        const auto scaled = fetch_one(Format::uscaled10_10_10_2, bytes_of_u32(fields[c]));
        EXPECT_EQ(scaled[size_t(c)], fbits(c == 3 ? 3.0f : 1023.0f)) << c;
        const auto sscaled = fetch_one(Format::sscaled10_10_10_2, bytes_of_u32(fields[c]));
        EXPECT_EQ(sscaled[size_t(c)], fbits(-1.0f)) << c;
    }
    // snorm: -512 and -511 are both -1, 511 is 1; the 2-bit w: -2 and -1 are -1, 1 is 1.
    const auto snorm = [](uint32_t word) {
        return fetch_one(Format::snorm10_10_10_2, bytes_of_u32(word));
    };
    EXPECT_EQ(snorm(0x200)[0], fbits(-1.0f));
    EXPECT_EQ(snorm(0x201u << 10)[1], fbits(-1.0f));
    EXPECT_EQ(snorm(0x1FFu << 20)[2], fbits(1.0f));
    EXPECT_EQ(snorm(2u << 30)[3], fbits(-1.0f));
    EXPECT_EQ(snorm(3u << 30)[3], fbits(-1.0f));
    EXPECT_EQ(snorm(1u << 30)[3], fbits(1.0f));
    EXPECT_EQ(snorm(0)[3], 0u);
    // ufloat11_11_10: 1.0 is exponent 15, mantissa 0, in R (bits 0-10), G (11-21), B (22-31).
    const uint32_t one11 = 15u << 6, one10 = 15u << 5;
    const auto uf =
        fetch_one(Format::ufloat11_11_10, bytes_of_u32(one11 | (16u << 6) << 11 | one10 << 22));
    EXPECT_EQ(uf[0], fbits(1.0f));
    EXPECT_EQ(uf[1], fbits(2.0f));
    EXPECT_EQ(uf[2], fbits(1.0f));
    const auto uf0 = [](uint32_t word) {
        return fetch_one(Format::ufloat11_11_10, bytes_of_u32(word));
    };
    EXPECT_TRUE(std::isnan(std::bit_cast<float>(uf0(0x7FF)[0])));
    EXPECT_EQ(uf0(31u << 6)[0], fbits(std::numeric_limits<float>::infinity()));
    EXPECT_EQ(uf0(0x7BF)[0], fbits(65024.0f));                 // largest finite 11-bit value
    EXPECT_EQ(uf0(0x3DFu << 22)[2], fbits(64512.0f));          // largest finite 10-bit value
    EXPECT_EQ(uf0(1u << 11)[1], fbits(std::ldexp(1.0f, -20))); // smallest 11-bit denormal
    EXPECT_EQ(uf0(1u << 22)[2], fbits(std::ldexp(1.0f, -19))); // smallest 10-bit denormal
}

TEST(VertexFormats, BgraSwapsComponentsZeroAndTwo) {
    const std::vector<unsigned char> b = {0x00, 0x33, 0xFF, 0x66};
    const auto rgba = fetch_one(Format::unorm8x4, b), bgra = fetch_one(Format::bgra_unorm8x4, b);
    EXPECT_EQ(rgba, (std::array<uint32_t, 4>{0, fbits(0.2f), fbits(1.0f), fbits(0.4f)}));
    EXPECT_EQ(bgra, (std::array<uint32_t, 4>{fbits(1.0f), fbits(0.2f), 0, fbits(0.4f)}));
    const auto u = fetch_one(Format::bgra_unorm10_10_10_2, bytes_of_u32(0x3FF | 3u << 30));
    EXPECT_EQ(u, (std::array<uint32_t, 4>{0, 0, fbits(1.0f), fbits(1.0f)}));
    const auto s = fetch_one(Format::bgra_snorm10_10_10_2, bytes_of_u32(0x1FFu << 20 | 0x200));
    EXPECT_EQ(s, (std::array<uint32_t, 4>{fbits(1.0f), 0, fbits(-1.0f), 0}));
}

TEST(VertexFormats, ElementsCrossingTheBufferEndReadZeros) {
    for (Format f : all_formats()) {
        const uint32_t size = format_size(f);
        // Exactly three elements, allocated to the byte, none of them zero.
        std::vector<unsigned char> mem(3 * size);
        for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(0x41 + 3 * i);
        const Spec s = spec_of(f);
        VertexAttrib a;
        a.format = f;
        const auto read = [&](const VertexBuffer& vb, uint64_t element) {
            std::array<uint32_t, 4> out;
            fetch_attrib(vb, a, element, out.data());
            return out;
        };
        const std::array<uint32_t, 4> zeros{};
        const VertexBuffer whole{mem.data(), mem.size(), size, 0};
        EXPECT_TRUE(matches(reference(s, &mem[2 * size]), read(whole, 2).data())) << format_name(f);
        EXPECT_EQ(read(whole, 3), zeros) << format_name(f);
        // One byte short: the last element crosses the end.
        const VertexBuffer short_by_one{mem.data(), mem.size() - 1, size, 0};
        EXPECT_TRUE(matches(reference(s, &mem[size]), read(short_by_one, 1).data()));
        EXPECT_EQ(read(short_by_one, 2), zeros) << format_name(f);
        // Shifted by one byte, through the attribute's or the buffer's offset.
        a.offset = 1;
        EXPECT_TRUE(matches(reference(s, &mem[size + 1]), read(whole, 1).data()));
        EXPECT_EQ(read(whole, 2), zeros) << format_name(f);
        a.offset = 0;
        const VertexBuffer shifted{mem.data(), mem.size(), size, 1};
        EXPECT_EQ(read(shifted, 2), zeros) << format_name(f);
        // Stride 0: every element is element 0, however far.
        const VertexBuffer alias{mem.data(), size, 0, 0};
        EXPECT_TRUE(matches(reference(s, mem.data()), read(alias, (uint64_t(1) << 33) - 1).data()));
        const VertexBuffer too_small{mem.data(), size - 1, 0, 0};
        EXPECT_EQ(read(too_small, 0), zeros) << format_name(f);
    }
}

TEST(VertexFormats, DisabledArrayReadsTheCurrentValue) {
    VertexAttrib a;
    EXPECT_TRUE(a.enabled);
    EXPECT_EQ(a.current_type, ValueType::float32);
    EXPECT_EQ(a.current, (std::array<uint32_t, 4>{0, 0, 0, fbits(1.0f)})); // GL's initial value
    a.enabled = false;
    a.buffer = 9; // not bound: a disabled array reads no buffer
    a.format = Format(250);
    a.current = {fbits(0.5f), 2, 3, 4};
    const uint32_t data[4] = {7, 7, 7, 7};
    const VertexBuffer vb{data, sizeof data, 4, 0};
    const VertexInput input{{&vb, 1}, {&a, 1}};
    EXPECT_NO_THROW(validate_vertex_input(input));
    for (uint32_t divisor : {0u, 1u, 3u, 0xFFFFFFFFu}) {
        a.divisor = divisor;
        for (uint32_t instance : {0u, 1u, 5u, 1000u}) {
            for (uint32_t vertex : {0u, 1u, 0xFFFFFFFFu}) {
                uint32_t out[4] = {};
                fetch_vertex_attrib(input, a, vertex, instance, 7, out);
                EXPECT_EQ(std::vector<uint32_t>(out, out + 4),
                          std::vector<uint32_t>(a.current.begin(), a.current.end()));
                fetch_attrib(vb, a, vertex, out);
                EXPECT_EQ(out[0], fbits(0.5f));
            }
        }
    }
    // Passed through, it is a four-component varying of its current type.
    a.current_type = ValueType::sint32;
    const ShaderOutputs o = attribute_outputs(input);
    ASSERT_EQ(o.varying_count, 1u);
    EXPECT_EQ(o.varyings[0].type, ValueType::sint32);
    EXPECT_EQ(o.varyings[0].components, 4);
    VertexAttrib enabled;
    enabled.format = Format::uint16x3;
    const ShaderOutputs e = attribute_outputs({{&vb, 1}, {&enabled, 1}});
    EXPECT_EQ(e.varyings[0].type, ValueType::uint32);
    EXPECT_EQ(e.varyings[0].components, 3);
}

TEST(VertexFormats, DisabledArraysInEveryMiddleEnd) {
    register_builtin_middle_ends();
    const float pos[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    const VertexBuffer vb{pos, sizeof pos, 8, 0};
    std::vector<VertexAttrib> attribs(4);
    attribs[0].format = Format::float32x2;
    attribs[1].enabled = false; // glVertexAttribI4i(1, -5, 7, 8, 9), per vertex
    attribs[1].current_type = ValueType::sint32;
    attribs[1].current = {uint32_t(-5), 7, 8, 9};
    attribs[2].enabled = false; // never set: (0, 0, 0, 1), per instance
    attribs[2].divisor = 1;
    attribs[3].enabled = false; // glVertexAttribI4ui(3, 1, 2, 3, 4), divisor 3, no buffer
    attribs[3].divisor = 3;
    attribs[3].buffer = 7;
    attribs[3].current_type = ValueType::uint32;
    attribs[3].current = {1, 2, 3, 0xFFFFFFFF};
    DrawInfo info;
    info.prim = Prim::triangles;
    info.count = 3;
    info.instance_count = 4;
    info.base_instance = 2;
    std::string want;
    for (int i = 0; i < 4; ++i) {
        want += "tri";
        for (int v = 0; v < 3; ++v)
            want += " " + std::to_string(v) + "/" + std::to_string(i) + "[" +
                    (v == 1   ? "1,0"
                     : v == 2 ? "0,1"
                              : "0,0") +
                    ",-5,7,8,9,0,0,0,1,1,2,3,4294967295]";
        want += "\n";
    }
    const DrawState state{info, {{&vb, 1}, attribs}, nullptr, nullptr};
    for (const auto& entry : MiddleEndRegistry::global().entries()) {
        TraceBackend trace;
        draw_serial(state, *entry.middle, trace);
        EXPECT_EQ(trace.text(), want) << entry.name;
    }
}

TEST(VertexFormats, ValidationNamesTheAttribute) {
    const uint32_t data[4] = {};
    const VertexBuffer vb{data, sizeof data, 4, 0};
    const auto expect_error = [&](const std::vector<VertexAttrib>& attribs,
                                  const std::string& what) {
        try {
            validate_vertex_input({{&vb, 1}, attribs});
            FAIL() << "expected an error about " << what;
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::invalid_value);
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    std::vector<VertexAttrib> attribs(2);
    attribs[1].format = Format(kFormatCount);
    expect_error(attribs, "attrib 1: unknown format " + std::to_string(kFormatCount));
    attribs[1].format = Format(255);
    expect_error(attribs, "attrib 1: unknown format 255");
    attribs[1].format = Format::bgra_snorm10_10_10_2;
    EXPECT_NO_THROW(validate_vertex_input({{&vb, 1}, attribs}));
    attribs[0].enabled = false;
    attribs[0].current_type = ValueType(3);
    expect_error(attribs, "attrib 0: unknown current_type 3");
    // Through a draw: the error reaches the caller and nothing is drawn.
    attribs[0].current_type = ValueType::float32;
    attribs[1].format = Format(200);
    DrawInfo info;
    info.count = 3;
    const DrawState state{info, {{&vb, 1}, attribs}, nullptr, nullptr};
    FetchShade middle;
    TraceBackend trace;
    EXPECT_THROW(draw_serial(state, middle, trace), Error);
    EXPECT_EQ(trace.text(), "");
}

} // namespace
