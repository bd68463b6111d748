// Ordering restated for ThreadSanitizer. TBB orders its tasks with synchronisation TSan
// cannot see (Debian's libtbb is not instrumented), so a TSan build restates that order as
// atomics TSan does see; every other build compiles the restatements away, since TBB's own
// ordering is what the code relies on. Everything that exists only for TSan's sake is here,
// behind DRAWPIPE_TSAN_ORDER (tests/tsan.supp lists the reports left inside libtbb itself).
#pragma once

#include <atomic>
#include <cstdint>

// The one switch: 1 in a ThreadSanitizer build (GCC's __SANITIZE_THREAD__, Clang's
// __has_feature), else 0. Define it on the command line to force either way.
#ifndef DRAWPIPE_TSAN_ORDER
#if defined(__SANITIZE_THREAD__)
#define DRAWPIPE_TSAN_ORDER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DRAWPIPE_TSAN_ORDER 1
#endif
#endif
#endif
#ifndef DRAWPIPE_TSAN_ORDER
#define DRAWPIPE_TSAN_ORDER 0
#endif

namespace drawpipe::detail {

inline constexpr bool kTsanOrder = DRAWPIPE_TSAN_ORDER;

// A happens-before edge TBB already provides, restated: the side that hands work on calls
// release(), the side that picks it up calls acquire(). Empty without the switch.
class OrderEdge {
  public:
#if DRAWPIPE_TSAN_ORDER
    void release() {
        n_.fetch_add(1, std::memory_order_release);
    }
    void acquire() const {
        (void)n_.load(std::memory_order_acquire);
    }

  private:
    std::atomic<uint32_t> n_{0};
#else
    void release() {}
    void acquire() const {}
#endif
};

// The pointer a parallel_pipeline filter body captures (the pipeline's own state). TBB copies
// the bodies on the calling thread and runs them on its workers; with the switch the pointer
// is written and read only atomically (relaxed: TBB orders it), so TSan has nothing to
// misreport in the copy. Without it, a plain pointer.
template <class T> class FilterBodyPointer {
  public:
    explicit FilterBodyPointer(T* p) { set(p); }
    FilterBodyPointer(const FilterBodyPointer& o) { set(o.get()); }
    FilterBodyPointer& operator=(const FilterBodyPointer& o) {
        set(o.get());
        return *this;
    }
#if DRAWPIPE_TSAN_ORDER
    T* get() const {
        return std::atomic_ref<T*>(p_).load(std::memory_order_relaxed);
    }

  private:
    void set(T* p) {
        std::atomic_ref<T*>(p_).store(p, std::memory_order_relaxed);
    }
    alignas(std::atomic_ref<T*>::required_alignment) mutable T* p_; // only accessed atomically
#else
    T* get() const {
        return p_;
    }

  private:
    void set(T* p) {
        p_ = p;
    }
    T* p_;
#endif
};

} // namespace drawpipe::detail
