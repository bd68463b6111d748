// The Mali instanced fetch against fetch_shade on an instanced workload: W2's 256 x 256
// grid (390,150 u16 indices) drawn 64 times, with a per-vertex float4 position and a
// per-instance float4 attribute of divisor 3, no vertex shader, into a counting backend.
//
//   instanced_draw/{fetch_shade,mali}      whole draws (front end + middle end + backend);
//                                          W2 splits, so both run one pass per instance
//   instanced_segments/{fetch_shade,mali}  the middle end alone on W2's segments, each
//                                          carrying all 64 instances: Mali dispatches
//                                          padded(n) * 64 threads per segment
//
// Items are shaded vertices (fetched vertices x instances), the same for both middle ends.
// Counters: best_ms (fastest iteration), and for mali the threads per shaded vertex.
// `--smoke` runs everything once on a short draw (for ctest).
#include "bench/bench_main.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "middle_ends/mali/mali_middle_end.hpp"
#include "workloads/workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kGrid = 256; // W2's grid
constexpr uint32_t kLimit = kMaxSegmentVertices;
bool g_smoke = false;
workloads::Workload g_w2;
uint32_t g_instances = 64;
std::vector<float> g_positions; // kGrid x kGrid float4
std::vector<float> g_offsets;   // one float4 per 3 instances
VertexBuffer g_buffers[2];
const VertexAttrib g_attribs[2] = {{0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 3}};

DrawInfo instanced_draw() {
    DrawInfo info = g_w2.draw();
    info.instance_count = g_instances;
    return info;
}

std::unique_ptr<MiddleEnd> make(bool mali) {
    if (mali) return std::make_unique<mali::MaliMiddleEnd>();
    return std::make_unique<FetchShade>(kLimit);
}

// Shaded vertices of the draw as fetch_shade counts them (one pass per instance), the
// items of both middle ends' whole-draw benchmarks.
uint64_t shaded_vertices(const DrawState& ds) {
    FetchShade reference(kLimit);
    CountingBackend backend;
    return draw_serial(ds, reference, backend).front.fetched;
}

void instanced_draw_bench(benchmark::State& state, bool mali) {
    const DrawInfo info = instanced_draw();
    const DrawState ds{info, {g_buffers, g_attribs}, nullptr, nullptr};
    const uint64_t shaded = shaded_vertices(ds);
    auto middle = make(mali);
    CountingBackend backend;
    DrawStats stats;
    timed_best(state, shaded, [&] { stats = draw_serial(ds, *middle, backend); });
    if (mali)
        state.counters["threads/vertex"] =
            double(mali::dispatch_stats(stats.counters).threads) / double(shaded);
    benchmark::DoNotOptimize(backend.totals().checksum);
}

// W2's segments (one pass), each copied out and then handed every instance at once.
struct SplitDraw {
    std::vector<SegmentStorage> storage;
    std::vector<Segment> segs;
};

SplitDraw split_once(const DrawInfo& info) {
    SplitDraw out;
    FrontEnd front;
    MiddleEndLimits limits;
    limits.max_vertices = kLimit;
    DrawInfo one = info;
    one.instance_count = 1;
    front.begin(one, {limits, {}});
    SegmentStorage st;
    Segment seg;
    while (front.next(st, seg)) {
        SegmentStorage copy;
        copy.fetch.assign(seg.fetch_elts.begin(), seg.fetch_elts.end());
        copy.draw.assign(seg.draw_elts.begin(), seg.draw_elts.end());
        out.storage.push_back(std::move(copy));
        out.segs.push_back(seg);
    }
    for (size_t i = 0; i < out.segs.size(); ++i) {
        Segment& s = out.segs[i];
        if (!s.linear_fetch()) s.fetch_elts = out.storage[i].fetch;
        if (!s.linear_draw()) s.draw_elts = out.storage[i].draw;
        s.instance_first = 0;
        s.instance_count = info.instance_count;
    }
    return out;
}

void instanced_segments_bench(benchmark::State& state, bool mali) {
    const DrawInfo info = instanced_draw();
    const DrawState ds{info, {g_buffers, g_attribs}, nullptr, nullptr};
    const auto middle = make(mali);
    const auto draw = middle->prepare(ds);
    const auto scratch = middle->make_scratch();
    const SplitDraw split = split_once(info);
    uint64_t shaded = 0;
    for (const Segment& s : split.segs) shaded += uint64_t(s.fetch_count) * s.instance_count;
    ShadedBatch batch;
    uint64_t threads = 0, sink = 0;
    timed_best(state, shaded, [&] {
        threads = 0;
        for (const Segment& s : split.segs) {
            batch.clear();
            draw->shade(s, scratch.get(), batch);
            threads += batch.counters[mali::COUNTER_THREADS];
            sink += batch.vertices[batch.vertices.size() / 2];
        }
    });
    if (mali) state.counters["threads/vertex"] = double(threads) / double(shaded);
    benchmark::DoNotOptimize(sink);
}

void register_all() {
    auto finish = [](benchmark::internal::Benchmark* b) {
        b->Unit(benchmark::kMillisecond)->UseRealTime();
        if (g_smoke) b->Iterations(1);
    };
    for (const bool mali : {false, true}) {
        const char* name = mali ? "mali" : "fetch_shade";
        finish(benchmark::RegisterBenchmark((std::string("instanced_draw/") + name).c_str(),
                                            instanced_draw_bench, mali));
        finish(benchmark::RegisterBenchmark((std::string("instanced_segments/") + name).c_str(),
                                            instanced_segments_bench, mali));
    }
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    g_smoke = take_flag(args, "--smoke");
    g_w2 = workloads::make_workload("W2");
    if (g_smoke) { // the first 20 grid rows, 4 instances
        g_w2.count = 20 * 6 * (kGrid - 1);
        g_w2.indices16.resize(g_w2.count);
        g_instances = 4;
    }
    for (uint32_t y = 0; y < kGrid; ++y)
        for (uint32_t x = 0; x < kGrid; ++x)
            for (float c : {float(x) / (kGrid - 1), float(y) / (kGrid - 1), 0.5f, 1.0f})
                g_positions.push_back(c);
    for (uint32_t i = 0; i < (g_instances + 2) / 3; ++i)
        for (float c : {float(i), 0.0f, 0.0f, 0.0f}) g_offsets.push_back(c);
    g_buffers[0] = {g_positions.data(), g_positions.size() * sizeof(float), 16, 0};
    g_buffers[1] = {g_offsets.data(), g_offsets.size() * sizeof(float), 16, 0};
    register_all();
    return run_registered_benchmarks(args);
}
