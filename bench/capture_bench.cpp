// capture_bench: what stream output costs over the draw, against a plain copy of the same
// bytes (issue 16). W1 (workloads/workloads.hpp) over a 1024 x 1024 grid of float4 positions, the
// pass-through vertex shader, one thread, interleaved round by round:
//
//   draw      Context + fetch_shade_simd, rasterizer discard on, nothing captured
//   capture   the same with the position captured: 16 bytes per vertex, three per triangle
//   copy      a loop writing the same bytes: each index's position into the buffer
//
// and prints the median per-round ratio (capture - draw) / copy: the capture's own cost
// over writing its bytes. `--smoke`: a small W1, one round.
#include "bench/rounds.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "workloads/workloads.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

using namespace drawpipe;

namespace {

double seconds_of(auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
    const bool smoke = argc > 1 && std::string_view(argv[1]) == "--smoke";
    const uint32_t rounds = smoke ? 1 : 15;
    workloads::Workload w = workloads::make_workload("W1");
    if (smoke) w.indices32.resize(w.count = 6000);
    const std::vector<float> positions = workloads::grid_positions(1.0f);
    const VertexBuffer vb{positions.data(), positions.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    const DrawInfo draw = w.draw();
    std::vector<float> buffer(size_t(w.count) * 4); // every vertex of every triangle

    ContextOptions o;
    o.threads = 1;
    Context ctx(o);
    CountingBackend backend;
    ctx.bind_middle_end("fetch_shade_simd");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers({&vb, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    ctx.set_rasterizer_discard(true);
    StreamOutputState so;
    so.outputs = {{CaptureSource::position, 0, 0, 4, 0, 0}};
    so.buffers[0] = {buffer.data(), 0, buffer.size() * 4, 16};

    std::vector<double> t_draw, t_capture, t_copy;
    uint64_t written = 0, sink = 0;
    for (uint32_t r = 0; r < rounds + 1; ++r) { // round 0 warms up
        ctx.clear_stream_output();
        const double d = seconds_of([&] {
            ctx.draw(draw);
            ctx.flush();
        });
        ctx.set_stream_output(so);
        const double c = seconds_of([&] {
            ctx.begin_stream_output();
            ctx.draw(draw);
            written = ctx.end_stream_output().written[0];
        });
        const double p = seconds_of([&] {
            float* out = buffer.data();
            for (uint32_t i = 0; i < w.count; ++i, out += 4)
                std::memcpy(out, &positions[size_t(w.indices32[i]) * 4], 16);
        });
        sink += uint64_t(buffer[buffer.size() / 2]);
        if (r == 0) continue;
        t_draw.push_back(d), t_capture.push_back(c), t_copy.push_back(p);
    }
    std::vector<double> extra;
    for (size_t i = 0; i < t_draw.size(); ++i) extra.push_back(t_capture[i] - t_draw[i]);
    std::printf("capture_bench: W1 %u indices, %llu triangles written (%.1f MB), %u rounds, one "
                "thread (sink %llu)\n",
                w.count, (unsigned long long)written, double(buffer.size()) * 4 / 1e6, rounds,
                (unsigned long long)sink);
    std::printf("draw %.2f ms, draw + capture %.2f ms, plain copy %.2f ms (best of the rounds)\n",
                bench::best_of(t_draw) * 1e3, bench::best_of(t_capture) * 1e3,
                bench::best_of(t_copy) * 1e3);
    std::printf("capture's own cost / plain copy: %.2fx (median of the rounds' ratios)\n",
                bench::median_ratio(extra, t_copy));
    return written == w.count / 3 ? 0 : 1;
}
