// The C interface's handles: tagged indices into a table whose slots are never freed, so that
// a destroyed or made-up handle is told from a live one without reading anything but the
// table (never the freed object), and a handle kept past its context's destroy never reaches
// a later context that happens to get the same memory.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace drawpipe::capi {

// A handle is (generation << kIndexBits) | (slot + 1): never 0, so NULL is never a handle.
// Lookups take no lock; adding and removing take one. One thread drives each object (the C
// interface's rule), so only different objects' adds and removes run at once.
template <class T> class HandleTable {
  public:
    static constexpr uint32_t kIndexBits = 22; // up to 4M objects alive at once
    static constexpr uint32_t kChunk = 1024;
    static constexpr uint32_t kChunks = (1u << kIndexBits) / kChunk;

    // A new handle for `object`; throws std::bad_alloc when the table is full.
    uintptr_t add(T* object) {
        const std::lock_guard lock(mutex_);
        uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            if (used_ + 1 >= (1u << kIndexBits)) throw std::bad_alloc();
            index = used_++;
            std::atomic<Slot*>& chunk = chunks_[index / kChunk];
            if (!chunk.load(std::memory_order_relaxed))
                chunk.store(new Slot[kChunk], std::memory_order_release); // never freed
        }
        Slot& s = slot(index);
        // A generation of 0 is never live, so a slot's handles differ until it wraps (2^42
        // reuses of one slot on a 64-bit system).
        uintptr_t g = (s.retired + 1) & kGenerationMask;
        if (g == 0) g = 1;
        s.object.store(object, std::memory_order_relaxed);
        s.generation.store(g, std::memory_order_release);
        return (g << kIndexBits) | (uintptr_t(index) + 1);
    }

    // The live object `handle` names, else null.
    T* find(uintptr_t handle) const noexcept {
        const Slot* s = slot_of(handle);
        return s ? s->object.load(std::memory_order_acquire) : nullptr;
    }

    // Ends `handle`: later lookups of it give null. Returns its object (the caller frees it),
    // or null when it was not live.
    T* remove(uintptr_t handle) noexcept {
        const std::lock_guard lock(mutex_);
        Slot* s = const_cast<Slot*>(slot_of(handle));
        if (!s) return nullptr;
        T* object = s->object.load(std::memory_order_relaxed);
        s->generation.store(0, std::memory_order_release); // no handle names the slot now
        s->object.store(nullptr, std::memory_order_relaxed);
        s->retired = generation_of(handle); // the next handle follows this one's generation
        free_.push_back(uint32_t((handle & kIndexMask) - 1));
        return object;
    }

  private:
    static constexpr uintptr_t kIndexMask = (uintptr_t(1) << kIndexBits) - 1;
    static constexpr uintptr_t kGenerationMask = ~uintptr_t(0) >> kIndexBits;

    struct Slot {
        std::atomic<uintptr_t> generation{0}; // of the live handle; 0 while none is
        std::atomic<T*> object{nullptr};
        uintptr_t retired = 0; // the generation of the last handle removed (under the lock)
    };

    static uintptr_t generation_of(uintptr_t handle) { return handle >> kIndexBits; }

    Slot& slot(uint32_t index) const {
        return chunks_[index / kChunk].load(std::memory_order_acquire)[index % kChunk];
    }

    const Slot* slot_of(uintptr_t handle) const noexcept {
        const uintptr_t i = handle & kIndexMask;
        const uintptr_t g = generation_of(handle);
        if (i == 0 || g == 0) return nullptr;
        const Slot* chunk = chunks_[(i - 1) / kChunk].load(std::memory_order_acquire);
        if (!chunk) return nullptr;
        const Slot& s = chunk[(i - 1) % kChunk];
        return s.generation.load(std::memory_order_acquire) == g ? &s : nullptr;
    }

    mutable std::array<std::atomic<Slot*>, kChunks> chunks_{};
    std::mutex mutex_;
    std::vector<uint32_t> free_;
    uint32_t used_ = 0;
};

} // namespace drawpipe::capi
