#include "drawpipe/registry.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"

namespace drawpipe {

MiddleEndRegistry& MiddleEndRegistry::global() {
    static MiddleEndRegistry registry;
    static const bool seeded =
        (registry.add("fetch_shade", "GL-semantics reference: fetch, shade, emit",
                      std::make_shared<FetchShade>()),
         registry.add("fetch_shade_simd", "fetch_shade, vectorised (SSE4/AVX2/AVX-512)",
                      std::make_shared<FetchShadeSimd>()),
         true);
    (void)seeded;
    return registry;
}

void MiddleEndRegistry::add(std::string name, std::string description,
                            std::shared_ptr<const MiddleEnd> middle) {
    if (!middle) throw Error(ErrorCode::invalid_value, "middle end '" + name + "': null instance");
    const std::lock_guard lock(mutex_);
    for (Entry& e : entries_)
        if (e.name == name) {
            e = {std::move(name), std::move(description), std::move(middle)};
            return;
        }
    entries_.push_back({std::move(name), std::move(description), std::move(middle)});
}

std::shared_ptr<const MiddleEnd> MiddleEndRegistry::find(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
        if (e.name == name) return e.middle;
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
    // The global registry with only the core's own entries: the likely cause is a driver that
    // never registered the hardware models.
    const bool core_only = this == &global() && entries_.size() <= 2;
    throw Error(ErrorCode::not_found,
                "middle end '" + std::string(name) + "' is not registered (known: " + known + ")" +
                    (core_only ? "; the hardware models (mali, a4xx, gen7) are registered by "
                                 "drawpipe::register_builtin_middle_ends() from "
                                 "<drawpipe/middle_ends.hpp>: call it once first"
                               : ""));
}

bool MiddleEndRegistry::contains(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
        if (e.name == name) return true;
    return false;
}

std::vector<MiddleEndRegistry::Entry> MiddleEndRegistry::entries() const {
    const std::lock_guard lock(mutex_);
    return entries_;
}

} // namespace drawpipe

namespace drawpipe {

// Out of line so that <drawpipe/middle_end.hpp> needs no complete MiddleEndScratch.
std::unique_ptr<MiddleEndScratch> MiddleEnd::make_scratch() const {
    return nullptr;
}

} // namespace drawpipe
