#include "bench/mesh.hpp"

#include "drawpipe/error.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace drawpipe::bench {

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
                        (errno == ENOENT ? " (and not a workload id: W1..W7)" : ""));
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
    Workload w;
    w.id = std::filesystem::path(path).filename().string();
    w.name = "mesh";
    w.prim = Prim::triangles;
    w.count = uint32_t(indices.size());
    w.vertex_count = uint32_t(vertices);
    w.positions = std::move(positions);
    if (vertices <= 65536) {
        w.index_type = IndexType::u16;
        w.indices16.assign(indices.begin(), indices.end());
    } else {
        w.index_type = IndexType::u32;
        w.indices32 = std::move(indices);
    }
    return w;
}

Workload load_input(const std::string& id_or_path) {
    if (is_workload_id(id_or_path)) return make_workload(id_or_path);
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

} // namespace drawpipe::bench
