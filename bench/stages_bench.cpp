// stages_bench: what the pipeline stages cost a draw that needs none of them (issue 15).
// W1 (workloads/workloads.hpp) over a 1024 x 1024 grid of float4 positions through a one-thread
// Context with fetch_shade_simd, a matrix vertex shader and the counting backend,
// interleaved round by round:
//
//   none     no RasterState bound: the draw as it was before the stages existed
//   stages   a RasterState with every stage off (fill, no cull, no stipple, width 1, no
//            offset): the per-vertex clip test and viewport transform run, nothing is
//            outside the view volume, so no primitive reaches the clipper
//   clipped  the same with a user clip plane that keeps every vertex
//
// and prints each configuration's median per-round ratio to `none`. `--smoke`: a small W1,
// one round.
#include "bench/rounds.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "workloads/workloads.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace drawpipe;

namespace {

// x' = 1.2 x - 0.6, y' = 1.5 y - 0.75, z' = -0.5, w = 1: the grid's [0, 1]^2 well inside.
// Written as a driver's SIMD shader would be (rows as non-aliasing pointers, lanes in chunks
// of 8 that GCC vectorises): a shader storing one lane at a time would make every later
// vector load of its rows wait for those stores (no store forwarding), which is the
// shader's cost, not the stages'.
template <uint32_t kChunk>
inline void transform(const float* __restrict x, const float* __restrict y,
                      const float* __restrict w, float* __restrict ox, float* __restrict oy,
                      float* __restrict oz, float* __restrict ow) {
    for (uint32_t l = 0; l < kChunk; ++l) {
        ox[l] = 1.2f * x[l] - 0.6f * w[l];
        oy[l] = 1.5f * y[l] - 0.75f * w[l];
        oz[l] = -0.5f * w[l];
        ow[l] = w[l];
    }
}

void matrix(const ShaderBlock& b) {
    uint32_t l = 0;
    for (; l + 8 <= b.count; l += 8)
        transform<8>(b.in[0] + l, b.in[1] + l, b.in[3] + l, b.out[0] + l, b.out[1] + l,
                     b.out[2] + l, b.out[3] + l);
    for (; l < b.count; ++l)
        transform<1>(b.in[0] + l, b.in[1] + l, b.in[3] + l, b.out[0] + l, b.out[1] + l,
                     b.out[2] + l, b.out[3] + l);
}

ContextOptions one_thread() {
    ContextOptions o;
    o.threads = 1;
    return o;
}

struct Config {
    explicit Config(const char* n) : name(n) {}
    const char* name;
    Context ctx{one_thread()};
    CountingBackend backend;
    std::vector<double> seconds;
};

} // namespace

int main(int argc, char** argv) {
    const bool smoke = argc > 1 && std::string_view(argv[1]) == "--smoke";
    // `--only K`: rounds of configuration K (0-2) alone, for a profiler.
    const int only = argc > 2 && std::string_view(argv[1]) == "--only" ? std::atoi(argv[2]) : -1;
    const uint32_t rounds = smoke ? 1 : 75;
    workloads::Workload w = workloads::make_workload("W1");
    if (smoke) w.indices32.resize(w.count = 6000);
    const std::vector<float> positions =
        workloads::grid_positions(1.0f / (workloads::kGridSide - 1));
    const VertexBuffer vb{positions.data(), positions.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    const DrawInfo draw = w.draw();

    Config configs[3] = {Config("none"), Config("stages"), Config("clipped")};
    for (Config& c : configs) {
        c.ctx.bind_middle_end("fetch_shade_simd");
        c.ctx.bind_backend(c.backend);
        c.ctx.set_vertex_buffers({&vb, 1});
        c.ctx.set_vertex_attribs({&attrib, 1});
        c.ctx.bind_vertex_shader(VertexShader{{}, matrix});
    }
    RasterState r;
    r.viewport = {0, 0, 1024, 1024, 0, 1};
    configs[1].ctx.set_raster_state(r);
    r.clip_plane_enable = 1;
    r.clip_planes[0] = {0.0f, 0.0f, 0.0f, 1.0f}; // w >= 0: every vertex inside
    configs[2].ctx.set_raster_state(r);

    for (uint32_t round = 0; round <= rounds; ++round) // round 0 warms up
        for (uint32_t k = 0; k < 3; ++k) {
            Config& c = configs[(k + round) % 3];
            if (only >= 0 && &c != &configs[only]) continue;
            const auto t0 = std::chrono::steady_clock::now();
            c.ctx.draw(draw);
            c.ctx.flush();
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (round > 0) c.seconds.push_back(s);
        }
    const uint64_t triangles = w.count / 3 * (rounds + 1);
    std::printf("stages_bench: W1 %u indices, one thread, fetch_shade_simd, %u rounds\n", w.count,
                rounds);
    int status = 0;
    for (const Config& c : configs) {
        if (c.seconds.empty()) continue;
        std::printf("%-8s best %.2f ms, median per-round ratio to none %.3fx\n", c.name,
                    bench::best_of(c.seconds) * 1e3,
                    only < 0 ? bench::median_ratio(c.seconds, configs[0].seconds) : 1.0);
        // Every configuration drew every triangle: nothing was clipped or culled.
        if (only < 0 && c.backend.totals().triangles != triangles) {
            std::printf("WORK MISMATCH: %s drew %llu triangles, expected %llu\n", c.name,
                        (unsigned long long)c.backend.totals().triangles,
                        (unsigned long long)triangles);
            status = 1;
        }
    }
    return status;
}
