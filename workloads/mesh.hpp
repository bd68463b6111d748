// Real meshes for the benchmarks: any file assimp reads (OBJ, PLY, 3DS, glTF, ...) as one
// indexed triangle list, so they can be measured beside W1-W7.
#pragma once

#include "workloads/workloads.hpp"

#include <string>

namespace drawpipe::workloads {

// Loads every mesh of the scene in `path`, triangulated with identical vertices joined, as
// one triangle list (meshes concatenated, their vertices offset). Indices are u16 when the
// vertex count allows, else u32. The Workload's id is the file name ("bunny.obj"), its name
// "mesh". Throws Error(not_found) for a missing file and Error(parse_error) when assimp
// cannot read it or it holds no triangles.
Workload load_mesh(const std::string& path);

// A generated mesh: "sphere:N" (a UV sphere of about N triangles, N with an optional k or m
// suffix, in vertex-cache order when meshoptimizer is built in, else row by row) or
// "sphere:N:random" (its triangles shuffled). The Workload's id is `spec`. Throws
// Error(invalid_value) for a malformed spec.
Workload generated_mesh(const std::string& spec);

// A workload id (W1..W7, see workloads.hpp), a generated mesh ("sphere:..."), or else a mesh
// file.
Workload load_input(const std::string& id_or_path);

} // namespace drawpipe::workloads
