// The Mesa adapter's threads (integrations/mesa/src/drawpipe_threads.cpp), without Mesa: every
// index runs exactly once, whether run and waited for at once or started, overlapped with
// another group and this thread's own work, and waited for later, as DRAWPIPE_MESA=shade
// uses its two windows.
#include "integrations/mesa/src/drawpipe_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace {

struct Counts {
    std::vector<std::atomic<int>> runs;
    explicit Counts(unsigned n) : runs(n) {}
};

void count(void* ctx, unsigned i) {
    static_cast<Counts*>(ctx)->runs[i].fetch_add(1, std::memory_order_relaxed);
}

void expect_once_each(const Counts& c) {
    for (size_t i = 0; i < c.runs.size(); ++i) ASSERT_EQ(c.runs[i].load(), 1) << "index " << i;
}

} // namespace

TEST(MesaThreads, ParallelForRunsEachIndexOnce) {
    EXPECT_GE(dp_thread_count(), 1u);
    for (unsigned n : {0u, 1u, 2u, 31u, 1000u}) {
        Counts c(n);
        dp_parallel_for(n, count, &c);
        expect_once_each(c);
    }
}

TEST(MesaThreads, TwoGroupsOverlapAndWaitApart) {
    dp_tasks* a = dp_tasks_create();
    dp_tasks* b = dp_tasks_create();
    ASSERT_TRUE(a && b);
    for (int round = 0; round < 50; ++round) {
        Counts first(32), second(32);
        dp_tasks_run_for(a, 32, count, &first);
        dp_tasks_run_for(b, 32, count, &second);
        dp_tasks_wait(a);
        expect_once_each(first); // complete once its own group is waited for
        dp_tasks_wait(b);
        expect_once_each(second);
    }
    Counts last(8);
    dp_tasks_run_for(a, 8, count, &last);
    dp_tasks_destroy(a); // waits first
    expect_once_each(last);
    dp_tasks_destroy(b);
    dp_tasks_destroy(nullptr);
}
