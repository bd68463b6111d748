#include "workloads/mesh.hpp"

#include "drawpipe/error.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <random>
#if DRAWPIPE_WITH_MESHOPTIMIZER
#include <meshoptimizer.h>
#endif

namespace drawpipe::workloads {

namespace {

// An indexed triangle list workload: u16 indices when the vertex count allows, else u32.
Workload triangle_list(std::string id, std::vector<uint32_t> indices,
                       std::vector<float> positions) {
    Workload w;
    w.id = std::move(id);
    w.name = "mesh";
    w.prim = Prim::triangles;
    w.count = uint32_t(indices.size());
    w.vertex_count = uint32_t(positions.size() / 3);
    w.positions = std::move(positions);
    if (w.vertex_count <= 65536) {
        w.index_type = IndexType::u16;
        w.indices16.assign(indices.begin(), indices.end());
    } else {
        w.index_type = IndexType::u32;
        w.indices32 = std::move(indices);
    }
    return w;
}

} // namespace

Workload load_mesh(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(ErrorCode::not_found, "mesh '" + path + "': is a directory");
    // A file that cannot be opened says why, in the OS's words ("No such file or directory",
    // "Permission denied", "Not a directory"), before assimp's less telling message.
    if (std::FILE* f = std::fopen(path.c_str(), "rb"))
        std::fclose(f);
    else
        throw Error(ErrorCode::not_found,
                    "mesh '" + path + "': " + std::strerror(errno) +
                        (errno == ENOENT ? " (and not a workload id, W1..W7, or sphere:N)" : ""));
    Assimp::Importer importer;
    // Joining identical vertices gives the index buffer a driver would draw; points and lines
    // are dropped so that only triangles remain.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                                aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* scene = importer.ReadFile(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (!scene || !scene->mRootNode)
        throw Error(ErrorCode::parse_error,
                    "mesh: assimp cannot read '" + path + "': " + importer.GetErrorString());
    std::vector<uint32_t> indices;
    std::vector<float> positions;
    uint64_t vertices = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh* mesh = scene->mMeshes[m];
        const uint32_t base = uint32_t(vertices);
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const aiFace& face = mesh->mFaces[f];
            if (face.mNumIndices != 3) continue;
            for (unsigned i = 0; i < 3; ++i) indices.push_back(base + face.mIndices[i]);
        }
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            const aiVector3D& p = mesh->mVertices[v];
            positions.insert(positions.end(), {p.x, p.y, p.z});
        }
        vertices += mesh->mNumVertices;
        if (vertices > UINT32_MAX)
            throw Error(ErrorCode::unsupported, "mesh: '" + path + "' has more than 2^32 vertices");
    }
    if (indices.empty())
        throw Error(ErrorCode::parse_error, "mesh: '" + path + "' holds no triangles");
    return triangle_list(std::filesystem::path(path).filename().string(), std::move(indices),
                         std::move(positions));
}

Workload generated_mesh(const std::string& spec) {
    // sphere:N[:random]; N with an optional k or m suffix.
    auto bad = [&](const char* why) {
        return Error(ErrorCode::invalid_value,
                     "generated mesh '" + spec + "': " + why +
                         " (sphere:N or sphere:N:random, N triangles, e.g. sphere:100k)");
    };
    const size_t colon = spec.find(':');
    const std::string rest = spec.substr(colon + 1);
    const size_t c2 = rest.find(':');
    const std::string count = rest.substr(0, c2),
                      order = c2 == std::string::npos ? "" : rest.substr(c2 + 1);
    if (spec.substr(0, colon) != "sphere") throw bad("unknown shape");
    if (!order.empty() && order != "random") throw bad("unknown order");
    uint64_t tris = 0;
    size_t i = 0;
    for (; i < count.size() && count[i] >= '0' && count[i] <= '9'; ++i)
        tris = std::min<uint64_t>(tris * 10 + uint64_t(count[i] - '0'), uint64_t(1) << 40);
    const std::string suffix = count.substr(i);
    if (i == 0 || (suffix != "" && suffix != "k" && suffix != "m")) throw bad("bad triangle count");
    tris *= suffix == "k" ? 1000 : suffix == "m" ? 1000000 : 1;
    if (tris < 8 || tris > 100'000'000) throw bad("triangle count outside 8 .. 100m");

    // A UV sphere of about `tris` triangles: `rings` x `segments` quads, two triangles each.
    const uint32_t rings = std::max<uint32_t>(2, uint32_t(std::sqrt(double(tris) / 4)));
    const uint32_t segments = std::max<uint32_t>(4, uint32_t(tris / (2 * uint64_t(rings))));
    std::vector<float> positions;
    for (uint32_t r = 0; r <= rings; ++r)
        for (uint32_t sgm = 0; sgm <= segments; ++sgm) {
            const double th = std::numbers::pi * r / rings,
                         ph = 2 * std::numbers::pi * sgm / segments;
            positions.insert(positions.end(),
                             {float(std::sin(th) * std::cos(ph)), float(std::cos(th)),
                              float(std::sin(th) * std::sin(ph))});
        }
    std::vector<uint32_t> indices;
    indices.reserve(6 * size_t(rings) * segments);
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t sgm = 0; sgm < segments; ++sgm) {
            const uint32_t a = r * (segments + 1) + sgm, b = a + segments + 1;
            for (uint32_t v : {a, b, a + 1, a + 1, b, b + 1}) indices.push_back(v);
        }
    const size_t vertex_count = positions.size() / 3;
    if (order == "random") {
        // Triangles shuffled (each keeps its winding): no two neighbours share vertices.
        std::mt19937_64 rng(0x5eed);
        for (size_t t = indices.size() / 3; t > 1; --t) {
            const size_t u = std::uniform_int_distribution<size_t>(0, t - 1)(rng);
            std::swap_ranges(indices.begin() + 3 * (t - 1), indices.begin() + 3 * t,
                             indices.begin() + 3 * u);
        }
    } else {
#if DRAWPIPE_WITH_MESHOPTIMIZER
        // Vertex-cache order, as a content pipeline would store it.
        meshopt_optimizeVertexCache(indices.data(), indices.data(), indices.size(), vertex_count);
#endif
    }
    return triangle_list(spec, std::move(indices), std::move(positions));
}

Workload load_input(const std::string& id_or_path) {
    if (is_workload_id(id_or_path)) return make_workload(id_or_path);
    if (id_or_path.starts_with("sphere:")) return generated_mesh(id_or_path);
    // "W9" is a mistyped workload, not a missing mesh file.
    const bool looks_like_id = id_or_path.size() >= 2 && id_or_path[0] == 'W' &&
                               id_or_path.find_first_not_of("0123456789", 1) == std::string::npos;
    if (looks_like_id && !std::filesystem::exists(id_or_path)) {
        std::string known;
        for (std::string_view id : workload_ids())
            known += (known.empty() ? "" : ", ") + std::string(id);
        throw Error(ErrorCode::not_found,
                    "unknown workload '" + id_or_path + "' (workloads: " + known + ")");
    }
    return load_mesh(id_or_path);
}

} // namespace drawpipe::workloads
