// No heap allocation per segment once warm. This binary replaces the global operator new and
// counts every call (from drawpipe, the standard library and libtbb alike) while steady-state
// draws run; oneTBB's own task and filter memory comes from its internal allocator and is not
// seen here.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/fetch_shade.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

namespace {
std::atomic<uint64_t> g_news{0};
std::atomic<bool> g_counting{false};

void* counted_alloc(std::size_t n, std::size_t align = 0) {
    if (g_counting.load(std::memory_order_relaxed)) g_news.fetch_add(1, std::memory_order_relaxed);
    void* p =
        align ? std::aligned_alloc(align, (n + align - 1) / align * align) : std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    return p;
}
} // namespace

void* operator new(std::size_t n) {
    return counted_alloc(n);
}
void* operator new[](std::size_t n) {
    return counted_alloc(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
    return counted_alloc(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return counted_alloc(n, std::size_t(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
    return operator new(n, t);
}
// The replaced operator new allocates with malloc; GCC (at -O1 under ASan) takes the free()
// below for a mismatch with the new-expression it was inlined into.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
#pragma GCC diagnostic pop

using namespace drawpipe;

namespace {

// Allocations made by `f`.
template <class F> uint64_t allocations_in(F&& f) {
    g_news.store(0);
    g_counting.store(true);
    f();
    g_counting.store(false);
    return g_news.load();
}

// A grid of float4 positions and its triangle list; `rows` rows of cells are drawn.
struct Grid {
    static constexpr uint32_t kSize = 256;
    std::vector<float> positions;
    std::vector<uint32_t> indices;
    VertexBuffer buffer;
    VertexAttrib attrib{0, 0, Format::float32x4, 0};
    Grid() {
        for (uint32_t y = 0; y < kSize; ++y)
            for (uint32_t x = 0; x < kSize; ++x)
                for (float c : {float(x), float(y), 0.0f, 1.0f}) positions.push_back(c);
        for (uint32_t y = 0; y + 1 < kSize; ++y)
            for (uint32_t x = 0; x + 1 < kSize; ++x) {
                const uint32_t v = y * kSize + x;
                for (uint32_t i : {v, v + 1, v + kSize, v + 1, v + kSize + 1, v + kSize})
                    indices.push_back(i);
            }
        buffer = {positions.data(), positions.size() * sizeof(float), 16, 0};
    }
    DrawInfo draw(uint32_t rows, uint32_t instances = 1) const {
        DrawInfo d;
        d.index_type = IndexType::u32;
        d.indices = indices.data();
        d.index_buffer_count = uint32_t(indices.size());
        d.count = rows * (kSize - 1) * 6;
        d.instance_count = instances;
        return d;
    }
};

struct Fixture {
    Grid grid;
    CountingBackend backend;
    Context ctx;
    const VertexShader vs =
        per_vertex_shader({}, [](const float* in, float* out, uint32_t, uint32_t) {
            for (int i = 0; i < 4; ++i) out[i] = in[i] + 1.0f; // touch the position
        });
    explicit Fixture(uint32_t threads, uint64_t inline_below = 0)
        : ctx(ContextOptions{threads, {}, inline_below}) {
        ctx.bind_middle_end(std::make_shared<FetchShade>(256));
        ctx.bind_backend(backend);
        ctx.set_vertex_buffers({&grid.buffer, 1});
        ctx.set_vertex_attribs({&grid.attrib, 1});
        ctx.bind_vertex_shader(vs);
    }
    uint64_t segments_of(const DrawInfo& d) {
        ctx.draw(d);
        return ctx.flush().front.segments;
    }
    // Allocations of one flush of `d` once warm: the fewest of a few flushes, after a few
    // warm-up flushes of the same draw. Which thread takes which segment varies from flush
    // to flush, so one flush may still warm a thread's scratch; one per segment would show
    // in every flush.
    uint64_t steady_flush(const DrawInfo& d) {
        auto flush = [&] {
            ctx.draw(d);
            ctx.flush();
        };
        for (int i = 0; i < 3; ++i) flush();
        uint64_t fewest = UINT64_MAX;
        for (int i = 0; i < 3; ++i) fewest = std::min(fewest, allocations_in(flush));
        return fewest;
    }
};

TEST(PipelineAlloc, NoAllocationPerSegmentOnceWarm) {
    for (uint32_t threads : {1u, 2u}) {
        Fixture f(threads);
        const DrawInfo small = f.grid.draw(40), large = f.grid.draw(250);
        const uint64_t small_segments = f.segments_of(small), large_segments = f.segments_of(large);
        ASSERT_GE(large_segments, 4 * small_segments);
        ASSERT_GE(small_segments, 20u);
        const uint64_t a_small = f.steady_flush(small), a_large = f.steady_flush(large);
        // Per flush, the pipeline run itself may cost a few allocations; per draw, nothing
        // once a draw of the same shape has been split (the front end keeps its splitters).
        // Nothing per segment.
        EXPECT_EQ(a_small, a_large)
            << threads << " threads: " << small_segments << " vs " << large_segments << " segments";
        EXPECT_LE(a_large, 2u) << threads << " threads";
        std::printf("%u threads: %llu allocations per flush of one draw (%llu or %llu segments)\n",
                    threads, (unsigned long long)a_large, (unsigned long long)small_segments,
                    (unsigned long long)large_segments);
    }
}

TEST(PipelineAlloc, InstancesAndQueuedDrawsAllocateOnlyPerDraw) {
    Fixture f(2);
    // One draw of many (instance, segment) units.
    const DrawInfo instanced = f.grid.draw(2, 200), once = f.grid.draw(2, 20);
    EXPECT_EQ(f.steady_flush(once), f.steady_flush(instanced)) << "instances must not allocate";
    // Many small draws per flush: the cost is per draw, a constant.
    const DrawInfo tiny = f.grid.draw(1);
    auto queue = [&](int n) {
        for (int i = 0; i < n; ++i) f.ctx.draw(tiny);
        f.ctx.flush();
    };
    queue(400); // warm every slot and token
    const uint64_t a100 = allocations_in([&] { queue(100); });
    const uint64_t a400 = allocations_in([&] { queue(400); });
    const double per_draw = double(a400 - a100) / 300.0;
    EXPECT_LE(per_draw, 2.0) << a100 << " allocations for 100 draws, " << a400 << " for 400";
    std::printf("queued draws: %.2f allocations per draw\n", per_draw);
}

TEST(PipelineAlloc, InlineFlushesAllocateOnlyPerDraw) {
    Fixture f(2, kInlineDrawWork);
    const DrawInfo small = f.grid.draw(4), larger = f.grid.draw(10);
    ASSERT_LT(uint64_t(larger.count), kInlineDrawWork);
    EXPECT_EQ(f.steady_flush(small), f.steady_flush(larger));
    EXPECT_EQ(f.ctx.counters().pipeline_launches, 0u);
}

} // namespace
