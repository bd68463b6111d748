// What a command's input argument is, decided the same way in every command: a draw
// description, a mesh file, a standard workload (W1..W7) or a generated mesh (sphere:N), so
// that `render W1` works as `bench W1` does and an unknown file type is named as such.
#pragma once

#include "workloads/workloads.hpp"

#include <string>

namespace drawpipe::cli {

enum class InputKind { description, mesh, workload, generated };

// The formats every command reads, for errors.
inline constexpr const char* kInputFormats =
    "draw descriptions (.txt, or '-' for stdin), meshes (.obj, .ply, .3ds, .stl, .gltf, .glb, "
    ".dae, .fbx, .off), workloads W1..W7, generated meshes sphere:N or sphere:N:random";

// Classifies `arg`: '-' and .txt are descriptions; a mesh extension is a mesh; W1..W7 (or
// anything W<digits> that is no file) a workload; sphere:... a generated mesh. A file with
// another extension is a description when it is text whose first key is a description key
// (test scripts write descriptions under other names); otherwise Error(invalid_value) naming
// the file, its extension and kInputFormats. A file that cannot be opened says why, calling it
// `what` ("draw description", "mesh": what the command expects).
InputKind input_kind(const std::string& arg, const std::string& what = "input");

// input_kind, then Error(invalid_value) when the kind is not what `command` reads: trace and
// gen7-header read descriptions, bench everything but descriptions.
InputKind check_input(const std::string& arg, const std::string& command, bool descriptions,
                      bool meshes);

// A mesh, workload or generated mesh with xyz positions for every vertex it reads: W1..W7,
// which have none, get a flat square grid (vertex id y * side + x), the grid W1, W2 and W7
// index.
workloads::Workload load_drawable_input(const std::string& arg);

class Progress;

// load_drawable_input (workloads::load_input without `positions`), with a progress phase (and an
// estimate from the file's size or the triangles asked for) while it loads or generates.
workloads::Workload load_with_progress(const std::string& arg, Progress& progress,
                                       bool positions = true);

} // namespace drawpipe::cli
