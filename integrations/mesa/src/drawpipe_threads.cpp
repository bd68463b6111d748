// The task arena behind drawpipe_threads.h.
#include "drawpipe_threads.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <cstdlib>
#include <new>
#include <thread>

namespace {

unsigned choose_threads() {
    // llvmpipe's own rule (lp_screen.c): LP_NUM_THREADS when set, else the cores. 0 makes
    // llvmpipe rasterize on the application's thread: drawpipe then shades there too.
    if (const char* v = std::getenv("LP_NUM_THREADS")) {
        const long n = std::strtol(v, nullptr, 10);
        if (n >= 0) return n > 0 ? unsigned(n) : 1u;
    }
    const unsigned cores = std::thread::hardware_concurrency();
    return cores ? cores : 1;
}

// The arena, and a reference to oneTBB's scheduler that lets the pool end its worker threads
// when this library goes: a DRI driver is dlclose'd when the application lets go of GL
// (glmark2 does, at exit), and libtbb, loaded only for it, goes with it; a worker thread still
// parked in libtbb's code then faults. Our static destructor runs first, and waits for them.
struct Pool {
    tbb::task_scheduler_handle scheduler{tbb::attach{}};
    tbb::task_arena arena{int(choose_threads())};
    ~Pool() {
        arena.terminate();
        // False when another user of oneTBB in the process holds it: its workers then stay,
        // and so does libtbb, which that user loaded too.
        (void)tbb::finalize(scheduler, std::nothrow);
    }
};

tbb::task_arena& arena() {
    static Pool pool;
    return pool.arena;
}

} // namespace

extern "C" {

void dp_parallel_for(unsigned n, void (*fn)(void* ctx, unsigned i), void* ctx) {
    arena().execute([&] {
        tbb::parallel_for(0u, n, 1u, [&](unsigned i) { fn(ctx, i); });
    });
}

struct dp_tasks {
    tbb::task_group group;
};

dp_tasks* dp_tasks_create(void) {
    try {
        return new dp_tasks;
    } catch (...) {
        return nullptr;
    }
}

void dp_tasks_destroy(dp_tasks* tasks) {
    if (!tasks) return;
    dp_tasks_wait(tasks);
    delete tasks;
}

void dp_tasks_run_for(dp_tasks* tasks, unsigned n, void (*fn)(void* ctx, unsigned i),
                      void* ctx) {
    arena().execute([&] {
        tasks->group.run([=] { tbb::parallel_for(0u, n, 1u, [=](unsigned i) { fn(ctx, i); }); });
    });
}

void dp_tasks_wait(dp_tasks* tasks) {
    arena().execute([&] { tasks->group.wait(); });
}

void dp_arena_run(void (*fn)(void* ctx), void* ctx) {
    arena().execute([&] { fn(ctx); });
}

unsigned dp_thread_count(void) {
    return unsigned(arena().max_concurrency());
}

} // extern "C"
