// The scene of the whole-draw benchmarks (pipeline_bench, multi_draw_bench): W1-W7's grid as
// float4 positions over [0, 1]^2 (z 0.5, w 1) in vertex buffer 0, read by attribute 0, and the
// matrix vertex shader (bench/matrix_shader.hpp) with a fixed perspective-like matrix.
#pragma once

#include "bench/matrix_shader.hpp"
#include "drawpipe/context.hpp"
#include "workloads/workloads.hpp"

#include <vector>

namespace drawpipe::bench {

inline constexpr float kSceneMatrix[16] = {1.2f, 0.0f, 0.1f,  0.0f,  0.0f, 1.6f, 0.2f,  0.0f,
                                           0.0f, 0.0f, -1.0f, -0.2f, 0.0f, 0.0f, -1.0f, 1.0f};

inline void scene_vs(const ShaderBlock& b) {
    matrix_block(b, kSceneMatrix);
}

class MatrixScene {
  public:
    MatrixScene()
        : positions_(workloads::grid_positions(1.0f / (workloads::kGridSide - 1))),
          buffer_{positions_.data(), positions_.size() * sizeof(float), 16, 0} {}
    MatrixScene(const MatrixScene&) = delete; // the buffer points into the positions
    MatrixScene& operator=(const MatrixScene&) = delete;

    VertexInput input() const { return {{&buffer_, 1}, {&attrib_, 1}}; }
    const VertexShader& vs() const { return vs_; }
    // Binds the buffer, the attribute and the shader, as a driver would.
    void bind(Context& ctx) const {
        ctx.set_vertex_buffers({&buffer_, 1});
        ctx.set_vertex_attribs({&attrib_, 1});
        ctx.bind_vertex_shader(vs_);
    }

  private:
    std::vector<float> positions_;
    VertexBuffer buffer_;
    VertexAttrib attrib_{0, 0, Format::float32x4, 0};
    VertexShader vs_{{}, scene_vs};
};

// The one scene of a process, made on first use (64 MiB of positions: once is enough).
inline const MatrixScene& scene() {
    static const MatrixScene s;
    return s;
}

} // namespace drawpipe::bench
