// Generators for W1-W7, written directly from the table in docs/workloads.md.
#include "workloads/workloads.hpp"

#include "drawpipe/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>

namespace drawpipe::workloads {
namespace {

constexpr std::array<std::string_view, 7> kIds = {"W1", "W2", "W3", "W4", "W5", "W6", "W7"};
constexpr std::array<std::string_view, 7> kNames = {
    "grid-tris-u32", "grid-tris-u16", "random-tris-u32",  "strip-u16",
    "fan-u32",       "linear-tris",   "strip-restart-u32"};

bool iequal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// Position 0..6 of the workload `s` names, or -1.
int find_workload(std::string_view s) {
    for (size_t i = 0; i < kIds.size(); ++i) {
        const std::string label = std::string(kIds[i]) + " " + std::string(kNames[i]);
        if (iequal(s, kIds[i]) || iequal(s, kNames[i]) || iequal(s, label)) return int(i);
    }
    return -1;
}

// Two triangles per cell of a w x w vertex grid, cells row by row (W1, W2).
template <class T> std::vector<T> grid_triangles(uint32_t w) {
    std::vector<T> out;
    out.reserve(size_t(w - 1) * (w - 1) * 6);
    for (uint32_t y = 0; y + 1 < w; ++y) {
        for (uint32_t x = 0; x + 1 < w; ++x) {
            const uint32_t v00 = y * w + x, v10 = v00 + 1, v01 = v00 + w, v11 = v01 + 1;
            for (uint32_t v : {v00, v10, v01, v10, v11, v01}) out.push_back(T(v));
        }
    }
    return out;
}

} // namespace

uint64_t splitmix64(uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

DrawInfo Workload::draw() const {
    DrawInfo d;
    d.prim = prim;
    d.index_type = index_type;
    d.count = count;
    d.primitive_restart = primitive_restart;
    d.restart_index = restart_index;
    if (index_type == IndexType::u16) d.indices = indices16.data();
    if (index_type == IndexType::u32) d.indices = indices32.data();
    d.index_buffer_count = index_type == IndexType::none ? 0 : count;
    return d;
}

uint64_t Workload::index_sum() const {
    switch (index_type) {
    case IndexType::u16:
        return std::accumulate(indices16.begin(), indices16.end(), uint64_t{0});
    case IndexType::u32:
        return std::accumulate(indices32.begin(), indices32.end(), uint64_t{0});
    default:
        return count == 0 ? 0 : uint64_t(count) * (count - 1) / 2;
    }
}

std::span<const std::string_view> workload_ids() {
    return kIds;
}

bool is_workload_id(std::string_view id_or_name) {
    return find_workload(id_or_name) >= 0;
}

std::vector<float> grid_positions(float scale) {
    std::vector<float> p;
    p.reserve(size_t(kGridSide) * kGridSide * 4);
    for (uint32_t y = 0; y < kGridSide; ++y)
        for (uint32_t x = 0; x < kGridSide; ++x)
            p.insert(p.end(), {float(x) * scale, float(y) * scale, 0.5f, 1.0f});
    return p;
}

Workload make_workload(std::string_view id_or_name) {
    const int which = find_workload(id_or_name);
    if (which < 0)
        throw Error(ErrorCode::not_found,
                    "workload: unknown id '" + std::string(id_or_name) + "' (expected W1..W7)");
    Workload w;
    w.id = kIds[size_t(which)];
    w.name = kNames[size_t(which)];
    switch (which) {
    case 0: // W1: 1024 x 1024 grid, u32
        w.index_type = IndexType::u32;
        w.indices32 = grid_triangles<uint32_t>(1024);
        w.vertex_count = 1024 * 1024;
        break;
    case 1: // W2: 256 x 256 grid, u16
        w.index_type = IndexType::u16;
        w.indices16 = grid_triangles<uint16_t>(256);
        w.vertex_count = 256 * 256;
        break;
    case 2: { // W3: 6M random indices below 2^20
        w.index_type = IndexType::u32;
        w.indices32.resize(6'000'000);
        uint64_t state = 1;
        for (uint32_t& i : w.indices32) i = uint32_t(splitmix64(state) % 1'048'576);
        w.vertex_count = 1'048'576;
        break;
    }
    case 3: // W4: strip, index i mod 65535, u16
        w.prim = Prim::triangle_strip;
        w.index_type = IndexType::u16;
        w.indices16.resize(1'000'000);
        for (uint32_t i = 0; i < w.indices16.size(); ++i) w.indices16[i] = uint16_t(i % 65535);
        w.vertex_count = 65535;
        break;
    case 4: // W5: fan, index i, u32
        w.prim = Prim::triangle_fan;
        w.index_type = IndexType::u32;
        w.indices32.resize(1'000'000);
        std::iota(w.indices32.begin(), w.indices32.end(), 0u);
        w.vertex_count = 1'000'000;
        break;
    case 5: // W6: non-indexed triangles
        w.count = 6'000'000;
        w.vertex_count = 6'000'000;
        break;
    case 6: { // W7: one strip per grid row of W1, rows separated by restart
        w.prim = Prim::triangle_strip;
        w.index_type = IndexType::u32;
        w.primitive_restart = true;
        w.restart_index = 0xFFFFFFFFu;
        w.indices32.reserve(2'096'126);
        for (uint32_t y = 0; y < 1023; ++y) {
            if (y > 0) w.indices32.push_back(w.restart_index);
            for (uint32_t x = 0; x < 1024; ++x) {
                w.indices32.push_back(y * 1024 + x);
                w.indices32.push_back((y + 1) * 1024 + x);
            }
        }
        w.vertex_count = 1024 * 1024;
        break;
    }
    }
    if (w.index_type == IndexType::u16) w.count = uint32_t(w.indices16.size());
    if (w.index_type == IndexType::u32) w.count = uint32_t(w.indices32.size());
    return w;
}

} // namespace drawpipe::workloads
