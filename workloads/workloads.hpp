// The standard front-end and pipeline workloads W1-W7 (docs/workloads.md).
//
// Every benchmark names its draw by these ids so figures stay comparable across versions
// and against other draw modules measured on the same definitions. They are generated in
// code, never shipped as files.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe::workloads {

// splitmix64 as docs/workloads.md defines it: advances `state`, then mixes it.
uint64_t splitmix64(uint64_t& state);

// One generated workload: an index buffer (or none) and the draw that uses it.
struct Workload {
    std::string id;   // "W1"
    std::string name; // "grid-tris-u32"
    Prim prim = Prim::triangles;
    IndexType index_type = IndexType::none;
    uint32_t count = 0; // indices (vertices when not indexed)
    bool primitive_restart = false;
    uint32_t restart_index = 0;
    uint32_t vertex_count = 0;       // largest vertex id referenced + 1
    std::vector<uint16_t> indices16; // filled when index_type == u16
    std::vector<uint32_t> indices32; // filled when index_type == u32
    std::vector<float> positions;    // xyz per vertex for meshes; empty for W1-W7

    // The draw call for this workload; it points into this object's index storage, so the
    // Workload must outlive the DrawInfo. Single instance, base vertex 0.
    DrawInfo draw() const;

    // Sum of every index value (restart indices included); the check value of docs/workloads.md.
    // For a non-indexed workload, the sum of the vertex ids 0..count-1.
    uint64_t index_sum() const;

    // "W1 grid-tris-u32"
    std::string label() const { return id + " " + name; }
};

// The ids in order: "W1" ... "W7".
std::span<const std::string_view> workload_ids();

// Generates a workload by id ("W3"), name ("random-tris-u32") or label ("W3 random-tris-u32"),
// case-insensitively. Throws drawpipe::Error(not_found) naming the input otherwise.
// Takes up to ~50 ms for the large ones; callers generate once and reuse.
Workload make_workload(std::string_view id_or_name);

// True when make_workload accepts `id_or_name`.
bool is_workload_id(std::string_view id_or_name);

// The float4 positions of the grid W1-W7 index (kGridSide x kGridSide vertices, row by row):
// (x * scale, y * scale, 0.5, 1) for column x and row y.
inline constexpr uint32_t kGridSide = 1024;
std::vector<float> grid_positions(float scale);

} // namespace drawpipe::workloads
