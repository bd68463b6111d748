#include "tools/common/vs_library.hpp"

#include "drawpipe/error.hpp"

#include <string>
#include <vector>

namespace drawpipe {

namespace {

VertexShader color_shader() {
    ShaderOutputs outputs;
    outputs.add_varying({ValueType::float32, Interp::smooth, 4});
    return {outputs, [](const ShaderBlock& b) {
                for (uint32_t l = 0; l < b.count; ++l) {
                    const float id = float(b.vertex_id[l]);
                    b.out[4][l] = 0.5f * id;
                    b.out[5][l] = float(b.instance_id[l]) + 0.25f;
                    b.out[6][l] = -id;
                    b.out[7][l] = 1.0f;
                }
            }};
}

const std::vector<NamedVertexShader>& library() {
    static const std::vector<NamedVertexShader> lib = {{"color", color_shader()}};
    return lib;
}

} // namespace

std::span<const NamedVertexShader> vs_library() {
    return library();
}

const VertexShader& find_vs(std::string_view name) {
    std::string known;
    for (const NamedVertexShader& vs : library()) {
        if (vs.name == name) return vs.shader;
        known += (known.empty() ? "" : ", ") + std::string(vs.name);
    }
    throw Error(ErrorCode::not_found,
                "vs: unknown vertex shader '" + std::string(name) + "' (known: " + known + ")");
}

} // namespace drawpipe
