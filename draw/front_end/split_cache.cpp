#include "drawpipe/split_cache.hpp"

#include "draw/front_end/chunks.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/split_replay.hpp"
#include "drawpipe/error.hpp"

#include <boost/container/flat_map.hpp>
#include <boost/intrusive/list.hpp>

#include <string>

namespace drawpipe {

namespace {

// Everything that decides a split. Base vertex and instancing are not in it: replay
// applies them.
struct SplitKey {
    uint64_t buffer = 0;
    uint64_t version = 0;
    uint32_t start = 0, count = 0, restart_index = 0, limit = 0, strategy_entries = 0, chunk = 0;
    uint8_t index_type = 0, prim = 0, restart = 0, strategy = 0, assemble = 0xFF, provoking = 0;
    uint8_t patch_vertices = 0;
    auto operator<=>(const SplitKey&) const = default;
};

SplitKey make_key(const DrawInfo& d, uint64_t version, const FrontEndOptions& o) {
    SplitKey k;
    k.buffer = d.index_buffer_id;
    k.version = version;
    k.start = d.start;
    k.count = d.count;
    k.restart = d.primitive_restart;
    k.restart_index = d.primitive_restart ? d.restart_index : 0;
    k.limit = o.limits.max_vertices;
    k.chunk = chunk_size(o);
    k.strategy = uint8_t(o.strategy.kind);
    k.strategy_entries = o.strategy.entries;
    k.index_type = uint8_t(d.index_type);
    k.prim = uint8_t(d.prim);
    if (d.prim == Prim::patches) k.patch_vertices = uint8_t(d.patch_vertices);
    if (o.limits.assemble_as) {
        k.assemble = uint8_t(*o.limits.assemble_as);
        k.provoking = uint8_t(d.provoking); // GS input assembly order depends on it
    }
    return k;
}

struct Node : boost::intrusive::list_base_hook<> {
    SplitKey key;
    std::shared_ptr<const SplitEntry> entry;
};

} // namespace

std::shared_ptr<SplitEntry> record_split(const DrawInfo& draw, const FrontEndOptions& options,
                                         size_t max_bytes) {
    DrawInfo one = draw;
    one.base_vertex = 0; // replay adds it as fetch_bias
    one.instance_count = 1;
    one.base_instance = 0;
    FrontEndOptions fo = options;
    fo.limits.handles_instancing = false;
    FrontEnd front;
    front.begin(one, fo);

    auto entry = std::make_shared<SplitEntry>();
    entry->chunks = chunk_count(one, fo);
    entry->chunk_positions = chunk_size(fo);
    struct Offsets {
        size_t fetch, draw;
    };
    std::vector<Offsets> offsets;
    SegmentStorage storage;
    Segment seg;
    size_t bytes = sizeof(SplitEntry);
    while (front.next(storage, seg)) {
        bytes += sizeof(Segment) + sizeof(Offsets) + seg.fetch_elts.size_bytes() +
                 seg.draw_elts.size_bytes();
        if (bytes > max_bytes) return nullptr; // stop early: never hold more than the cap
        offsets.push_back({entry->fetch.size(), entry->draw.size()});
        entry->fetch.insert(entry->fetch.end(), seg.fetch_elts.begin(), seg.fetch_elts.end());
        entry->draw.insert(entry->draw.end(), seg.draw_elts.begin(), seg.draw_elts.end());
        entry->segments.push_back(seg);
    }
    entry->ia_vertices = front.stats().ia_vertices;
    entry->ia_primitives = front.stats().ia_primitives;
    // Growth left up to half of each list unused; the budget counts what is really held.
    entry->fetch.shrink_to_fit();
    entry->draw.shrink_to_fit();
    entry->segments.shrink_to_fit();
    // Lists are final now: point the segments into the entry.
    for (size_t i = 0; i < entry->segments.size(); ++i) {
        Segment& s = entry->segments[i];
        if (!s.fetch_elts.empty())
            s.fetch_elts = {entry->fetch.data() + offsets[i].fetch, s.fetch_elts.size()};
        if (!s.draw_elts.empty())
            s.draw_elts = {entry->draw.data() + offsets[i].draw, s.draw_elts.size()};
    }
    if (draw.count > 0)
        entry->range = draw.index_range ? *draw.index_range : scan_index_range(draw);
    entry->bytes = sizeof(SplitEntry) + entry->segments.capacity() * sizeof(Segment) +
                   entry->fetch.capacity() * sizeof(uint32_t) +
                   entry->draw.capacity() * sizeof(uint16_t);
    return entry;
}

SplitReplay::SplitReplay(std::shared_ptr<const SplitEntry> entry, const DrawInfo& draw,
                         const MiddleEndLimits& limits)
    : entry_(std::move(entry)), bias_(uint32_t(draw.base_vertex)),
      order_(limits, draw.instance_count) {
    order_.settle(entry_->segments.size() <= 1 && entry_->chunks == 1); // as FrontEnd decides
    if (!entry_->segments.empty()) instance_end_ = order_.passes();
}

bool SplitReplay::next(Segment& seg) {
    if (instance_ >= instance_end_) return false;
    seg = entry_->segments[index_];
    seg.instance_first = order_.first(instance_);
    seg.instance_count = order_.count();
    // Base vertex: on the listed fetch elements, or on the start of a linear vertex range.
    seg.fetch_bias = seg.linear_fetch() ? 0 : bias_;
    if (seg.linear_fetch()) seg.fetch_start += bias_;
    // The front end's numbering: dense for one chunk, else chunk-major
    // (drawpipe/extend/segment.hpp).
    seg.sequence = entry_->chunks == 1 ? sequence_++
                                       : seg.sequence + uint64_t(instance_) * entry_->chunks *
                                                            entry_->chunk_positions;
    stats_.segments++;
    stats_.indices += seg.draw_count;
    stats_.fetched += seg.fetch_count;
    stats_.shaded += uint64_t(seg.fetch_count) * seg.instance_count;
    if (index_ == 0) { // each pass replays every run once
        stats_.ia_vertices += entry_->ia_vertices * seg.instance_count;
        stats_.ia_primitives += entry_->ia_primitives * seg.instance_count;
    }
    if (++index_ == entry_->segments.size()) {
        index_ = 0;
        ++instance_;
    }
    return true;
}

struct SplitCache::Impl {
    mutable std::mutex mutex;
    size_t budget;
    SplitCacheStats stats;
    uint64_t next_id = 1;
    boost::container::flat_map<uint64_t, uint64_t> versions;
    boost::container::flat_map<SplitKey, std::unique_ptr<Node>> map;
    boost::intrusive::list<Node> lru; // front: most recently used

    void erase(decltype(map)::iterator it) {
        lru.erase(lru.iterator_to(*it->second));
        stats.bytes -= it->second->entry->bytes;
        map.erase(it);
    }
    void evict_to(size_t target) {
        while (stats.bytes > target && !lru.empty()) {
            erase(map.find(lru.back().key));
            ++stats.evictions;
        }
        stats.entries = map.size();
    }
};

SplitCache::SplitCache(size_t budget_bytes) : impl_(std::make_unique<Impl>()) {
    impl_->budget = budget_bytes;
}
SplitCache::~SplitCache() {
    impl_->lru.clear();
}

uint64_t SplitCache::register_buffer() {
    std::lock_guard lock(impl_->mutex);
    const uint64_t id = impl_->next_id++;
    impl_->versions[id] = 0;
    return id;
}

bool SplitCache::is_registered(uint64_t buffer_id) const {
    std::lock_guard lock(impl_->mutex);
    return impl_->versions.contains(buffer_id);
}

void SplitCache::bump_version(uint64_t buffer_id) {
    std::lock_guard lock(impl_->mutex);
    const auto v = impl_->versions.find(buffer_id);
    if (v == impl_->versions.end())
        throw Error(ErrorCode::not_found,
                    "index_buffer_id: " + std::to_string(buffer_id) + " is not registered");
    ++v->second;
    // Splits of older versions can never hit again: free them now.
    for (auto it = impl_->map.lower_bound(SplitKey{buffer_id, 0});
         it != impl_->map.end() && it->first.buffer == buffer_id;)
        impl_->erase(it), it = impl_->map.lower_bound(SplitKey{buffer_id, 0});
    impl_->stats.entries = impl_->map.size();
}

SplitCache::Impl& split_cache_impl(const SplitCache& cache) {
    return *cache.impl_;
}

std::shared_ptr<const SplitEntry> acquire_split(SplitCache& cache, const DrawInfo& draw,
                                                const FrontEndOptions& options) {
    auto& impl = split_cache_impl(cache);
    if (draw.index_type == IndexType::none)
        throw Error(ErrorCode::invalid_value, "index_type: only indexed draws have cached splits");
    uint64_t version;
    SplitKey key;
    {
        std::lock_guard lock(impl.mutex);
        const auto v = impl.versions.find(draw.index_buffer_id);
        if (v == impl.versions.end())
            throw Error(ErrorCode::not_found,
                        "index_buffer_id: " + std::to_string(draw.index_buffer_id) +
                            " is not registered (Context::register_index_buffer)");
        version = v->second;
        key = make_key(draw, version, options);
        if (const auto it = impl.map.find(key); it != impl.map.end()) {
            Node& node = *it->second;
            impl.lru.erase(impl.lru.iterator_to(node));
            impl.lru.push_front(node);
            ++impl.stats.hits;
            return node.entry;
        }
        ++impl.stats.misses;
    }
    // Split outside the lock: other draws keep hitting meanwhile. Recording stops as soon
    // as the entry outgrows the whole budget, so a huge draw costs no more memory than that.
    std::shared_ptr<const SplitEntry> entry = record_split(draw, options, cache.budget());
    std::lock_guard lock(impl.mutex);
    if (!entry || entry->bytes > impl.budget) {
        ++impl.stats.uncacheable;
        return nullptr;
    }
    if (impl.versions[draw.index_buffer_id] != version) return entry; // rewritten meanwhile
    if (const auto it = impl.map.find(key); it != impl.map.end()) return it->second->entry;
    auto node = std::make_unique<Node>();
    node->key = key;
    node->entry = entry;
    impl.lru.push_front(*node);
    impl.stats.bytes += entry->bytes;
    impl.map.emplace(key, std::move(node));
    impl.evict_to(impl.budget);
    return entry;
}

std::shared_ptr<const SplitEntry> peek_split(const SplitCache& cache, const DrawInfo& draw,
                                             const FrontEndOptions& options) {
    const auto& impl = split_cache_impl(cache);
    std::lock_guard lock(impl.mutex);
    const auto v = impl.versions.find(draw.index_buffer_id);
    if (v == impl.versions.end()) return nullptr;
    const auto it = impl.map.find(make_key(draw, v->second, options));
    return it == impl.map.end() ? nullptr : it->second->entry;
}

void SplitCache::set_budget(size_t bytes) {
    std::lock_guard lock(impl_->mutex);
    impl_->budget = bytes;
    impl_->evict_to(bytes);
}

size_t SplitCache::budget() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->budget;
}

SplitCacheStats SplitCache::stats() const {
    std::lock_guard lock(impl_->mutex);
    SplitCacheStats s = impl_->stats;
    s.entries = impl_->map.size();
    return s;
}

} // namespace drawpipe
