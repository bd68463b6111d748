// Small-primitive culling (drawpipe/extend/small_cull.hpp) on a 200 x 200 vertex grid of
// 79,202 triangles, records of eight floats (window x, y, z, w and a colour), as a driver's
// setup would take them:
//
//   small_cull/cull/{tiny,large}    cull_small_triangles over the triangle list
//   copy_elements                   the baseline: copying the same element list
//
// tiny: the grid over 50 x 50 pixels (a triangle is 3 % of a pixel: nearly all culled); large:
// over 400 x 400 (2 pixels each: nearly all kept). Items are triangles.
// Counters: best_ms, and for cull the fraction kept. `--smoke` runs each once (for ctest).
#include "bench/bench_main.hpp"
#include "drawpipe/extend/small_cull.hpp"

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;

constexpr uint32_t kSide = 200, kStride = 8;

struct Mesh {
    std::vector<float> records;
    std::vector<uint16_t> elts;
};

Mesh grid(float pixels) {
    Mesh m;
    for (uint32_t y = 0; y < kSide; ++y)
        for (uint32_t x = 0; x < kSide; ++x) {
            const float s = pixels / float(kSide - 1);
            m.records.insert(m.records.end(),
                             {3.3f + float(x) * s, 5.1f + float(y) * s, 0.5f, 1, 1, 0, 0, 1});
        }
    for (uint32_t y = 0; y + 1 < kSide; ++y)
        for (uint32_t x = 0; x + 1 < kSide; ++x) {
            const auto v = uint16_t(y * kSide + x);
            m.elts.insert(m.elts.end(), {v, uint16_t(v + 1), uint16_t(v + kSide), uint16_t(v + 1),
                                         uint16_t(v + kSide + 1), uint16_t(v + kSide)});
        }
    return m;
}

Mesh& mesh(bool tiny) {
    static Mesh t = grid(50.0f), l = grid(400.0f);
    return tiny ? t : l;
}

void cull(benchmark::State& state, bool tiny) {
    Mesh& m = mesh(tiny);
    const auto triangles = uint32_t(m.elts.size() / 3);
    std::vector<uint16_t> out(m.elts.size());
    uint32_t kept = 0;
    timed_best(state, triangles, [&] {
        kept =
            cull_small_triangles(m.records.data(), kStride, m.elts.data(), triangles, out.data());
        benchmark::DoNotOptimize(out.data());
    });
    state.counters["kept"] = double(kept) / triangles;
}

void copy_elements(benchmark::State& state) {
    const Mesh& m = mesh(true);
    std::vector<uint16_t> out(m.elts.size());
    timed_best(state, m.elts.size() / 3, [&] {
        std::memcpy(out.data(), m.elts.data(), m.elts.size() * sizeof(uint16_t));
        benchmark::DoNotOptimize(out.data());
    });
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    const bool smoke = take_flag(args, "--smoke");
    for (const bool tiny : {true, false}) {
        const char* size = tiny ? "tiny" : "large";
        auto* c = benchmark::RegisterBenchmark((std::string("small_cull/cull/") + size).c_str(),
                                               [tiny](benchmark::State& s) { cull(s, tiny); });
        if (smoke) c->Iterations(1);
    }
    auto* b = benchmark::RegisterBenchmark("copy_elements", copy_elements);
    if (smoke) b->Iterations(1);
    return run_registered_benchmarks(args);
}
