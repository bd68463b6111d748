#include "drawpipe/shader.hpp"

#include "drawpipe/error.hpp"

#include <string>

namespace drawpipe {

void validate_outputs(const ShaderOutputs& o) {
    if (o.varying_count > kMaxVaryings)
        throw Error(ErrorCode::invalid_value, "outputs: " + std::to_string(o.varying_count) +
                                                  " varyings, at most " +
                                                  std::to_string(kMaxVaryings));
    if (o.clip_distances > kMaxClipDistances)
        throw Error(ErrorCode::invalid_value, "outputs: " + std::to_string(o.clip_distances) +
                                                  " clip distances, at most " +
                                                  std::to_string(kMaxClipDistances));
    for (uint32_t i = 0; i < o.varying_count; ++i)
        if (o.varyings[i].components < 1 || o.varyings[i].components > 4)
            throw Error(ErrorCode::invalid_value,
                        "outputs: varying " + std::to_string(i) + " has " +
                            std::to_string(o.varyings[i].components) + " components, not 1-4");
}

VertexShader per_vertex_shader(const ShaderOutputs& outputs,
                               std::function<void(const float* in, float* out, uint32_t vertex_id,
                                                  uint32_t instance, uint32_t draw_id)>
                                   main) {
    VertexShader vs;
    vs.outputs = outputs;
    vs.run = [main = std::move(main)](const ShaderBlock& b) {
        float in[4 * kMaxAttribs];
        float out[kMaxRecordDwords];
        for (uint32_t l = 0; l < b.count; ++l) {
            for (uint32_t r = 0; r < b.in_count; ++r) in[r] = b.in[r][l];
            for (uint32_t r = 0; r < b.out_count; ++r) out[r] = b.out[r][l];
            main(in, out, b.vertex_id[l], b.instance_id[l], b.draw_id);
            for (uint32_t r = 0; r < b.out_count; ++r) b.out[r][l] = out[r];
        }
    };
    return vs;
}

VertexShader per_vertex_shader(
    const ShaderOutputs& outputs,
    std::function<void(const float* in, float* out, uint32_t vertex_id, uint32_t instance)> main) {
    return per_vertex_shader(
        outputs,
        [main = std::move(main)](const float* in, float* out, uint32_t vertex_id, uint32_t instance,
                                 uint32_t) { main(in, out, vertex_id, instance); });
}

} // namespace drawpipe
