#include "workloads/measure.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/limits.hpp"

#include "draw/front_end/front_end.hpp"
#include "draw/front_end/reorder.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

namespace drawpipe::workloads {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Keeps the compiler from dropping or reordering writes to `p` around the timed region.
void escape(const void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

constexpr size_t kProxyBlock = 4096;

} // namespace

void NullMiddleEnd::consume(const Segment& seg) {
    // Per-segment sums in 32-bit lanes (fetch ids wrap); every element is read and folded
    // in. Plain loops, which -O2 leaves scalar, as in the null middle end the Mesa
    // yardsticks were measured with.
    uint32_t s = 0;
    if (seg.linear_fetch())
        s += seg.fetch_start + seg.fetch_count;
    else
        for (uint32_t v : seg.fetch_elts) s += v;
    s += uint32_t(seg.fetch_elts.size()) * seg.fetch_bias;
    if (seg.linear_draw())
        s += seg.draw_count;
    else
        for (uint16_t e : seg.draw_elts) s += e;
    sum += s;
}

TimedDraw run_front_end(FrontEnd& front, SegmentStorage& storage, const DrawInfo& draw,
                        const FrontEndOptions& options) {
    NullMiddleEnd null;
    Segment seg;
    const auto t0 = Clock::now();
    front.begin(draw, options);
    front.drain(storage, seg, [&](const Segment& s) { null.consume(s); });
    TimedDraw r;
    r.seconds = since(t0);
    r.stats = front.stats();
    r.checksum = null.sum;
    escape(&r.checksum);
    return r;
}

struct FrontEndTimer::Impl {
    FrontEnd front;
    SegmentStorage storage;
};

FrontEndTimer::FrontEndTimer() : impl_(std::make_unique<Impl>()) {}
FrontEndTimer::~FrontEndTimer() = default;

TimedDraw FrontEndTimer::time(const DrawInfo& draw, const MiddleEndLimits& limits,
                              const Strategy& strategy) {
    return run_front_end(impl_->front, impl_->storage, draw, FrontEndOptions{limits, strategy});
}

bool reorder_strategy_indices(const DrawInfo& draw, std::vector<uint32_t>& out) {
    return reorder_for_vertex_cache(draw, out);
}

const uint32_t kReorderIndexRange = kReorderMaxRange;

TimedDraw best_front_end(const DrawInfo& draw, const FrontEndOptions& options, uint32_t reps) {
    FrontEnd front;
    SegmentStorage storage;
    TimedDraw best = run_front_end(front, storage, draw, options); // warm-up
    for (uint32_t i = 0; i < reps; ++i) {
        const TimedDraw r = run_front_end(front, storage, draw, options);
        if (i == 0 || r.seconds < best.seconds) best = r;
    }
    return best;
}

double proxy_memcpy(std::span<const std::byte> src, std::span<std::byte> dst) {
    const auto t0 = Clock::now();
    std::memcpy(dst.data(), src.data(), std::min(src.size(), dst.size()));
    escape(dst.data());
    return since(t0);
}

double proxy_index_copy(std::span<const uint32_t> indices, uint64_t& sink) {
    alignas(64) static thread_local uint32_t fetch[kProxyBlock];
    alignas(64) static thread_local uint16_t draw[kProxyBlock];
    const auto t0 = Clock::now();
    for (size_t base = 0; base < indices.size(); base += kProxyBlock) {
        const size_t n = std::min(kProxyBlock, indices.size() - base);
        const uint32_t* in = indices.data() + base;
        for (size_t i = 0; i < n; ++i) {
            fetch[i] = in[i];
            draw[i] = uint16_t(in[i]);
        }
        escape(fetch);
        escape(draw);
    }
    const double s = since(t0);
    sink += fetch[0] + draw[kProxyBlock - 1];
    return s;
}

double best_index_copy_mips(std::span<const uint32_t> indices, uint32_t reps) {
    uint64_t sink = 0;
    double best = proxy_index_copy(indices, sink); // warm-up
    for (uint32_t i = 0; i < reps; ++i) best = std::min(best, proxy_index_copy(indices, sink));
    escape(&sink);
    return double(indices.size()) / best / 1e6;
}

double best_memcpy_gbps(uint32_t reps) {
    constexpr size_t kBytes = size_t(64) << 20;
    std::vector<std::byte> src(kBytes, std::byte{1}), dst(kBytes, std::byte{0});
    double best = proxy_memcpy(src, dst); // warm-up (also faults the pages in)
    for (uint32_t i = 0; i < reps; ++i) best = std::min(best, proxy_memcpy(src, dst));
    return double(kBytes) / best / 1e9;
}

} // namespace drawpipe::workloads
