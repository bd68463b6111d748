#include "tools/inputs.hpp"

#include "drawpipe/error.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/progress.hpp"
#include "tools/render_mesh.hpp"
#include "workloads/mesh.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace drawpipe::cli {

namespace {

// Rates measured on this project's build machine (RelWithDebInfo), for the loading estimates:
// assimp reading an OBJ joins identical vertices; a vertex-cache-ordered sphere runs
// meshoptimizer, a random one only shuffles.
constexpr double kMeshBytesPerSecond = 4e6;
constexpr double kSphereTrianglesPerSecond = 1.8e6;
constexpr double kRandomSphereTrianglesPerSecond = 5e6;

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// The first key of a text file (its first word that is not in a comment), or "" for a file
// that is not text or holds no key.
std::string first_key(const std::string& path) {
    std::string text;
    try {
        text = read_text_file(path, "input");
    } catch (const Error&) {
        return "";
    }
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string word;
        if (words >> word) return word;
    }
    return "";
}

bool is_description_key(const std::string& word) {
    std::string keys = kDescriptionKeys;
    std::replace(keys.begin(), keys.end(), ';', ',');
    std::istringstream in(keys);
    for (std::string k; std::getline(in, k, ',');) {
        k.erase(0, k.find_first_not_of(' '));
        if (k.rfind("for drawpipe render: ", 0) == 0) k = k.substr(21);
        if (k == word) return true;
    }
    return false;
}

} // namespace

InputKind input_kind(const std::string& arg, const std::string& what) {
    if (arg == "-") return InputKind::description;
    if (arg.starts_with("sphere:")) return InputKind::generated;
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool looks_like_id = arg.size() >= 2 && (arg[0] == 'W' || arg[0] == 'w') &&
                               arg.find_first_not_of("0123456789", 1) == std::string::npos;
    if (workloads::is_workload_id(arg) || (looks_like_id && !fs::exists(arg, ec)))
        return InputKind::workload; // load_input names the workloads for a mistyped one
    const std::string ext = lower_extension(arg);
    if (ext == ".txt") return InputKind::description;
    if (is_mesh_path(arg)) return InputKind::mesh;
    // Any other name: a directory or an unreadable file says why in the OS's words.
    read_input_file(arg, what);
    if (is_description_key(first_key(arg))) return InputKind::description;
    throw Error(
        ErrorCode::invalid_value,
        "'" + arg + "': " +
            (ext.empty() ? std::string("no extension") : "unknown extension '" + ext + "'") +
            ", and not a draw description; drawpipe reads " + kInputFormats);
}

InputKind check_input(const std::string& arg, const std::string& command, bool descriptions,
                      bool meshes) {
    const InputKind kind = input_kind(arg, descriptions ? "draw description" : "mesh");
    if (kind == InputKind::description && !descriptions)
        throw Error(ErrorCode::invalid_value,
                    "'" + arg + "' is a draw description; " + command +
                        " reads meshes (.obj, .ply, ...), workloads W1..W7 and sphere:N "
                        "(drawpipe trace and render read descriptions)");
    if (kind != InputKind::description && !meshes)
        throw Error(ErrorCode::invalid_value,
                    "'" + arg + "' is " +
                        (kind == InputKind::mesh       ? "a mesh"
                         : kind == InputKind::workload ? "a workload"
                                                       : "a generated mesh") +
                        "; " + command +
                        " reads draw descriptions (.txt, or '-' for stdin; drawpipe render and "
                        "bench read meshes, W1..W7 and sphere:N)");
    return kind;
}

workloads::Workload load_drawable_input(const std::string& arg) {
    workloads::Workload w = workloads::load_input(arg);
    if (w.positions.empty()) {
        // W1..W7 are index buffers over a square grid of vertex ids, row by row (W1, W7:
        // 1024 x 1024; W2: 256 x 256): the vertices are laid out on the smallest square
        // grid that holds them, flat, one unit across.
        const auto side = uint32_t(std::ceil(std::sqrt(double(std::max(w.vertex_count, 1u)))));
        w.positions.resize(size_t(w.vertex_count) * 3);
        for (uint32_t v = 0; v < w.vertex_count; ++v) {
            w.positions[3 * size_t(v)] = float(v % side) / float(side);
            w.positions[3 * size_t(v) + 1] = float(v / side) / float(side);
            w.positions[3 * size_t(v) + 2] = 0.0f;
        }
    }
    return w;
}

workloads::Workload load_with_progress(const std::string& arg, Progress& progress, bool positions) {
    const auto load = [&] {
        return positions ? load_drawable_input(arg) : workloads::load_input(arg);
    };
    if (!progress.shown()) return load();
    const InputKind kind = input_kind(arg);
    const std::string name = std::filesystem::path(arg).filename().string();
    if (kind == InputKind::mesh) {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(arg, ec);
        progress.phase("loading " + name, 0, ec ? 0 : double(bytes) / kMeshBytesPerSecond);
    } else if (kind == InputKind::generated) {
        // sphere:N[k|m][:random]: the triangles asked for, as generated_mesh reads them.
        const std::string count = arg.substr(7, arg.find(':', 7) - 7);
        double tris = std::atof(count.c_str());
        tris *= count.ends_with("m") ? 1e6 : count.ends_with("k") ? 1e3 : 1;
        const bool random = arg.ends_with(":random");
        progress.phase("generating " + arg, 0,
                       tris /
                           (random ? kRandomSphereTrianglesPerSecond : kSphereTrianglesPerSecond));
    } else {
        progress.phase("generating " + arg);
    }
    workloads::Workload w = load();
    progress.done();
    return w;
}

} // namespace drawpipe::cli
