// The tessellation level grid that tests/data/tess_golden.txt records from llvmpipe
// (mesa_tess record) and tests/draw/tess/tessellator_test.cpp replays through drawpipe::tessellate:
// every mode x spacing x winding x point mode over levels that cover clamping, rounding,
// culling and every fractional step that changes a parity or a split. No GL, no drawpipe: both
// sides include it. docs/tessellation.md, "Testing".
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tess_grid {

// In the order of drawpipe's TessMode, TessSpacing and TessWinding.
constexpr const char* kModes[] = {"triangles", "quads", "isolines"};
constexpr const char* kSpacings[] = {"equal_spacing", "fractional_even_spacing",
                                     "fractional_odd_spacing"};
constexpr const char* kWindings[] = {"ccw", "cw"};

struct Combo {
    int mode = 0, spacing = 0, winding = 0;
    bool point_mode = false;
};

struct Levels {
    std::array<float, 4> outer{1, 1, 1, 1};
    std::array<float, 2> inner{1, 1};
};

inline std::vector<Combo> combos() {
    std::vector<Combo> out;
    for (int m = 0; m < 3; ++m)
        for (int s = 0; s < 3; ++s)
            for (int w = 0; w < 2; ++w)
                for (int p = 0; p < 2; ++p) out.push_back({m, s, w, p != 0});
    return out;
}

inline std::string combo_name(const Combo& c) {
    return std::string(kModes[c.mode]) + " " + kSpacings[c.spacing] + " " + kWindings[c.winding] +
           (c.point_mode ? " point_mode" : "");
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// One level across the whole range: culling and "acts as the minimum" values, fractions on
// each side of the parities' breakpoints, every quarter from 2 to 8, a spread up to 64 and
// past it.
inline std::vector<float> main_levels() {
    std::vector<float> l = {-1.0f, 0.0f, kNaN, 1e-40f, 0.5f, 1.0f, 1.00001f, 1.1f, 1.5f, 1.9f};
    for (int q = 8; q <= 32; ++q) l.push_back(float(q) / 4.0f);
    for (float v : {8.6f, 9.5f, 12.0f, 15.7f, 16.0f, 23.3f, 31.0f, 32.5f, 33.0f, 47.9f, 62.6f,
                    63.0f, 63.5f, 64.0f, 70.0f, 1e9f, kInf})
        l.push_back(v);
    return l;
}

// The combinations that also sweep one level finely (winding and point mode only reorder
// what the sweep checks, so one of them is enough).
inline bool sweeps(const Combo& c) {
    return c.winding == 0 && !c.point_mode;
}

// The cases of one combination, in the order the golden file lists them.
inline std::vector<Levels> cases(const Combo& c) {
    std::vector<Levels> out;
    const std::vector<float> main = main_levels();
    if (c.mode == 2) { // isolines: outer 0 (line count) x outer 1 (points along a line)
        for (float density : main)
            for (float detail : main) {
                Levels l;
                l.outer = {density, detail, kNaN, 0.0f}; // unused levels never cull
                l.inner = {kNaN, -1.0f};
                out.push_back(l);
            }
        // Every level in steps of 1/64 along one line: each point placement of every spacing.
        if (sweeps(c))
            for (int k = 32; k <= 65 * 64; ++k) {
                Levels l;
                l.outer = {1.0f, float(k) / 64.0f, 1.0f, 1.0f};
                out.push_back(l);
            }
        return out;
    }
    const int edges = c.mode == 0 ? 3 : 4;
    auto all = [&](float outer, float in0, float in1) {
        Levels l;
        for (int e = 0; e < 4; ++e) l.outer[size_t(e)] = e < edges ? outer : kNaN;
        l.inner = {in0, c.mode == 0 ? kNaN : in1};
        return l;
    };
    // Every level alike.
    for (float v : main) out.push_back(all(v, v, v));
    // Outer levels alike against a spread of inner ones.
    if (c.mode == 0) {
        for (float o : main)
            for (float in :
                 {kNaN, -1.0f, 0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 7.3f, 64.0f, 70.0f})
                out.push_back(all(o, in, in));
    } else {
        const float pairs[][2] = {{1, 1},        {kNaN, -1}, {0.5f, 2},  {2, 0.5f},
                                  {1.5f, 1.5f},  {3, 2},     {2, 3},     {3.3f, 7.25f},
                                  {7.25f, 3.3f}, {6, 6},     {64.5f, 9}, {1, 5}};
        for (float o : main)
            for (const auto& p : pairs) out.push_back(all(o, p[0], p[1]));
    }
    // Outer levels each on their own.
    const std::vector<float> side = c.mode == 0 ? std::vector<float>{1, 1.3f, 2, 2.7f, 3, 4.5f, 8}
                                                : std::vector<float>{1, 1.6f, 3, 4.4f};
    const std::vector<std::array<float, 2>> inner =
        c.mode == 0 ? std::vector<std::array<float, 2>>{{1, kNaN}, {2.2f, kNaN}, {5, kNaN}}
                    : std::vector<std::array<float, 2>>{{1, 1}, {2.5f, 4}, {5, 2.5f}};
    const size_t n = side.size();
    size_t total = 1;
    for (int e = 0; e < edges; ++e) total *= n;
    for (size_t k = 0; k < total; ++k)
        for (const auto& in : inner) {
            Levels l;
            size_t rest = k;
            for (int e = 0; e < 4; ++e) {
                l.outer[size_t(e)] = e < edges ? side[rest % n] : kNaN;
                if (e < edges) rest /= n;
            }
            l.inner = in;
            out.push_back(l);
        }
    // Inner levels on their own (quads), the outer ones at 3.
    if (c.mode == 1) {
        for (float a : {1.0f, 1.2f, 2.0f, 2.5f, 3.0f, 4.75f, 8.0f, 17.0f, 40.1f, 64.0f})
            for (float b : {1.0f, 1.2f, 2.0f, 2.5f, 3.0f, 4.75f, 8.0f, 17.0f, 40.1f, 64.0f})
                out.push_back(all(3.0f, a, b));
    }
    // The inner levels in steps of 1/16 (triangles) or 1/8 (quads, the two axes apart): every
    // ring count and inner spacing against fixed outer edges.
    if (sweeps(c)) {
        const int step = c.mode == 0 ? 16 : 8;
        for (int k = step / 2; k <= 65 * step; ++k) {
            const float v = float(k) / float(step);
            out.push_back(all(c.mode == 0 ? 2.5f : 5.0f, v, v * 0.75f + 1.0f));
        }
    }
    // One outer level culls the patch: zero, negative or NaN on each edge in turn.
    for (int e = 0; e < edges; ++e)
        for (float bad : {0.0f, -1.0f, kNaN}) {
            Levels l = all(3.0f, 3.0f, 3.0f);
            l.outer[size_t(e)] = bad;
            out.push_back(l);
        }
    return out;
}

// 64-bit FNV-1a over the bytes of the captured floats (little-endian), in capture order.
struct Digest {
    uint64_t h = 0xcbf29ce484222325ull;
    void add(float f) {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        for (int b = 0; b < 4; ++b) {
            h ^= (bits >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
};

inline std::string levels_text(const Levels& l) {
    std::string s = "outer";
    char buf[32];
    for (float v : l.outer) {
        std::snprintf(buf, sizeof buf, " %.9g", double(v));
        s += buf;
    }
    s += " inner";
    for (float v : l.inner) {
        std::snprintf(buf, sizeof buf, " %.9g", double(v));
        s += buf;
    }
    return s;
}

} // namespace tess_grid
