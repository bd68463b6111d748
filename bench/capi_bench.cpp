// capi_bench: what a call through the C interface (<drawpipe/drawpipe.h>) costs a driver that
// issues many tiny draws: 10,000 draws of 6 vertices, queued then flushed, through
// drawpipe_draw on one thread, and drawpipe_context_threads alone (the handle lookup and the
// boundary, nothing else). Prints the best and median ns per call over interleaved rounds.
// `--smoke`: one round of 100 draws.
#include "bench/rounds.hpp"

#include <drawpipe/drawpipe.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {

void check(drawpipe_status s) {
    if (s != DRAWPIPE_OK) {
        std::fprintf(stderr, "%s\n", drawpipe_last_error());
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    const bool smoke = argc > 1 && std::string_view(argv[1]) == "--smoke";
    const uint32_t n = smoke ? 100 : 10000, rounds = smoke ? 1 : 41;
    std::vector<float> pos(size_t(n) * 6 * 4);
    for (size_t i = 0; i < pos.size(); ++i) pos[i] = (i % 4 == 3) ? 1.0f : float(i % 7) * 0.1f;
    drawpipe_context_options o{};
    o.threads = 1;
    drawpipe_context* ctx = nullptr;
    check(drawpipe_context_create(&o, &ctx));
    const drawpipe_vertex_buffer vb{pos.data(), pos.size() * 4, 16, 0};
    drawpipe_vertex_attrib a{};
    a.format = DRAWPIPE_FORMAT_FLOAT32X4;
    check(drawpipe_set_vertex_buffers(ctx, &vb, 1));
    check(drawpipe_set_vertex_attribs(ctx, &a, 1));
    drawpipe_backend b{};
    static uint64_t elements = 0;
    b.draw_elements = [](void*, drawpipe_prim, uint8_t, const drawpipe_vertex_view*,
                         const uint32_t*, uint32_t count) { elements += count; };
    check(drawpipe_bind_backend(ctx, &b));
    drawpipe_draw_info d;
    drawpipe_draw_info_init(&d);
    d.count = 6;
    std::vector<double> draws, lookups;
    using Clock = std::chrono::steady_clock;
    for (uint32_t r = 0; r < rounds; ++r) {
        auto t0 = Clock::now();
        for (uint32_t i = 0; i < n; ++i) {
            d.start = 6 * i;
            check(drawpipe_draw(ctx, &d));
        }
        check(drawpipe_flush(ctx, nullptr));
        auto t1 = Clock::now();
        uint32_t threads = 0;
        for (uint32_t i = 0; i < n; ++i) check(drawpipe_context_threads(ctx, &threads));
        auto t2 = Clock::now();
        draws.push_back(std::chrono::duration<double>(t1 - t0).count());
        lookups.push_back(std::chrono::duration<double>(t2 - t1).count());
    }
    check(drawpipe_context_destroy(ctx));
    std::printf("capi tiny draws (%u draws of 6 vertices, then flush): %.1f ns/draw best, %.1f "
                "median\n",
                n, drawpipe::bench::best_of(draws) * 1e9 / n,
                drawpipe::bench::median_of(draws) * 1e9 / n);
    std::printf("capi drawpipe_context_threads: %.2f ns/call best, %.2f median\n",
                drawpipe::bench::best_of(lookups) * 1e9 / n,
                drawpipe::bench::median_of(lookups) * 1e9 / n);
    return elements == uint64_t(n) * 6 * rounds ? 0 : 1;
}
