// drawpipe::tessellate alone: one patch per call into a reused TessDomain (no allocation after
// the first), at the levels the goal draws (a quad at 64 x 64) and a few others. Then
// the whole draw: 128 quad patches at 64 x 64 (1M triangles) through Context with
// rasterizer discard, a position-only vertex shader and a bilinear evaluation shader, on 1 and
// 2 threads. Items are output primitives; bench/README.md quotes the quad rows.
#include "bench/bench_main.hpp"

#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/tess.hpp"
#include "drawpipe/tessellator.hpp"

#include <cstring>
#include <string>
#include <vector>

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

// The control points' positions interpolated bilinearly (the CLI's `interpolate`, position
// only). Written as a JIT would run it, on whole blocks of lanes (TessEvalBlock has
// kShaderLanes of each row), so the compiler vectorises it as llvmpipe's JIT does the GLSL.
TessEvalShader bilinear_tes() {
    TessEvalShader tes;
    tes.state = {TessMode::quads, TessSpacing::equal, TessWinding::ccw, false};
    tes.run = [](const TessEvalBlock& b) {
        for (uint32_t c = 0; c < 4; ++c) {
            auto at = [&](uint32_t i) {
                return dword_float(b.control_points[i][SLOT_POSITION + c]);
            };
            const float p0 = at(0), p1 = at(1), p2 = at(2), p3 = at(3);
            float row[kShaderLanes];
            for (uint32_t l = 0; l < kShaderLanes; ++l) {
                const float u = b.u[l], v = b.v[l];
                row[l] = (1 - v) * ((1 - u) * p0 + u * p1) + v * ((1 - u) * p3 + u * p2);
            }
            std::memcpy(b.out[c], row, sizeof row);
        }
    };
    return tes;
}

void draw_patch_grid(benchmark::State& state, uint32_t threads) {
    constexpr uint32_t kSide = 16, kPatches = kSide * 8; // 128 patches
    std::vector<float> positions;
    for (uint32_t p = 0; p < kPatches; ++p) {
        const float x = float(p % kSide), y = float(p / kSide);
        for (const auto& [dx, dy] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}})
            positions.insert(positions.end(), {(x + float(dx)) / kSide, (y + float(dy)) / 8, 0, 1});
    }
    const VertexBuffer buffer{positions.data(), positions.size() * 4, 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4};
    ShaderOutputs none;
    const VertexShader vs =
        per_vertex_shader(none, [](const float* in, float* out, uint32_t, uint32_t) {
            for (int c = 0; c < 4; ++c) out[c] = in[c];
        });
    register_builtin_middle_ends();
    CountingBackend backend;
    ContextOptions options;
    options.threads = threads;
    Context ctx(options);
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    ctx.bind_vertex_shader(vs);
    ctx.bind_tess_eval(bilinear_tes());
    ctx.set_patch_default_levels({{64, 64, 64, 64}, {64, 64}});
    ctx.set_rasterizer_discard(true);
    DrawInfo draw;
    draw.prim = Prim::patches;
    draw.patch_vertices = 4;
    draw.count = kPatches * 4;
    uint64_t prims = 0;
    drawpipe::bench::timed_best(state, uint64_t(kPatches) * 8192, [&] {
        ctx.draw(draw);
        prims = ctx.flush().primitives.generated[0];
    });
    state.counters["prims"] = double(prims);
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
    for (const uint32_t threads : {1u, 2u}) {
        auto* b = benchmark::RegisterBenchmark(
            ("draw/quads_64x64_x128/threads:" + std::to_string(threads)).c_str(), draw_patch_grid,
            threads);
        b->Unit(benchmark::kMillisecond);
        if (smoke) b->Iterations(1);
    }
    return drawpipe::bench::run_registered_benchmarks(args);
}
