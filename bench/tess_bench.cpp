// drawpipe::tessellate alone: one patch per call into a reused TessDomain (no allocation after
// the first), at the levels the goal draws (a quad at 64 x 64) and a few others.
// Items are output primitives; bench/README.md quotes the quad row.
#include "bench/bench_main.hpp"

#include "drawpipe/tessellator.hpp"

#include <string>

using namespace drawpipe;
using drawpipe::bench::take_flag;

namespace {

struct Case {
    const char* name;
    TessState state;
    TessLevels levels;
};

void tessellate_patch(benchmark::State& state, const Case* c) {
    TessDomain dom;
    tessellate(c->state, c->levels, dom);
    const uint32_t per = dom.prim == Prim::points ? 1 : dom.prim == Prim::lines ? 2 : 3;
    const uint64_t prims = dom.elements.size() / per;
    drawpipe::bench::timed_best(state, prims, [&] {
        tessellate(c->state, c->levels, dom);
        benchmark::DoNotOptimize(dom.elements.data());
        benchmark::ClobberMemory();
    });
    state.counters["prims"] = double(prims);
    state.counters["points"] = double(dom.coords.size());
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    const bool smoke = take_flag(args, "--smoke");
    static const Case cases[] = {
        {"quads/equal/64x64", {TessMode::quads}, {{64, 64, 64, 64}, {64, 64}}},
        {"quads/fractional_odd/62.5",
         {TessMode::quads, TessSpacing::fractional_odd},
         {{62.5f, 62.5f, 62.5f, 62.5f}, {62.5f, 62.5f}}},
        {"quads/equal/outer7_inner64", {TessMode::quads}, {{7, 7, 7, 7}, {64, 64}}},
        {"triangles/equal/64", {TessMode::triangles}, {{64, 64, 64, 1}, {64, 1}}},
        {"isolines/equal/64x64", {TessMode::isolines}, {{64, 64, 1, 1}, {1, 1}}},
        {"quads/equal/4x4", {TessMode::quads}, {{4, 4, 4, 4}, {4, 4}}},
    };
    for (const Case& c : cases) {
        auto* b = benchmark::RegisterBenchmark((std::string("tessellate/") + c.name).c_str(),
                                               tessellate_patch, &c);
        b->Unit(benchmark::kMicrosecond);
        if (smoke) b->Iterations(1);
    }
    return drawpipe::bench::run_registered_benchmarks(args);
}
