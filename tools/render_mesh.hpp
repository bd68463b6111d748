// `drawpipe render MESH`: a real mesh (any format assimp reads) through the whole pipeline
// with a model-view-projection vertex shader and per-vertex lighting, depth-tested.
#pragma once

#include "drawpipe/backends/raster.hpp"
#include "drawpipe/extend/serial.hpp"
#include "workloads/workloads.hpp"

#include <set>
#include <string>
#include <vector>

namespace drawpipe::cli {

class Progress;

// What each triangle's colour shows (`--color-by`).
enum class MeshColours { shading, segment, instance, middle_end_thread };

struct MeshView {
    uint32_t width = 1024, height = 768;
    float azimuth = 30, elevation = 20; // degrees around the mesh's centre
    float distance = 0;                 // 0: framing the mesh's bounds
    MeshColours colours = MeshColours::shading;
    // Key colours (segment, instance, thread) as they are, unlit: exactly one colour per key,
    // for comparing pixels. Otherwise they are lit like the shading, so the shape shows.
    bool flat = false;
    uint32_t instances = 1; // copies side by side along x, the instance id moving each
    std::string middle_end = "fetch_shade";
    DrawOptions options;
    uint32_t threads = 1;
    Progress* progress = nullptr; // phases and the draw's progress, when shown
    uint32_t top_reserved = 0;    // rows at the top the framing leaves free (for a legend)
};

// True for a file `drawpipe render` draws as a mesh rather than reading as a description.
bool is_mesh_path(const std::string& path);

struct MeshPicture {
    RasterBackend image;
    size_t colours = 0;      // distinct segments, instances or threads coloured (0: lit)
    std::set<uint32_t> keys; // those segments, instances or threads (thread slots)
    uint64_t triangles = 0;  // in the draw, every instance
};

// The vertex ids of a workload's triangles, three by three, as GL decomposes its primitive
// type (restart runs kept apart); points and lines give none.
std::vector<uint32_t> decomposed_triangles(const workloads::Workload& w);

// Renders a mesh in memory: xyz positions for every vertex id it reads, any primitive type
// (triangles lit; points and lines drawn in the key colour unlit).
MeshPicture render_mesh(const workloads::Workload& mesh, const MeshView& view);

// A generated torus around the y axis (`rings` around it, `sides` around the tube), as an
// indexed u32 triangle list walking ring after ring: the demo's mesh, no data files needed.
workloads::Workload torus_mesh(uint32_t rings, uint32_t sides);

} // namespace drawpipe::cli
