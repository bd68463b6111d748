#include "draw/context/token_source.hpp"

#include "draw/context/pipeline.hpp"

#include <algorithm>
#include <utility>

namespace drawpipe::detail {

namespace {

uint64_t segment_work(const PreparedDraw& draw, const Segment& seg) {
    return uint64_t(seg.fetch_count + seg.draw_count) * seg.instance_count *
           draw.split.limits.work_per_vertex;
}

} // namespace

void TokenSource::start(std::span<const PreparedDraw> draws, bool in_arena) {
    draws_ = draws;
    cursor_ = 0;
    in_arena_ = in_arena;
    draw_open_ = false;
    front_total_ = {};
    if (restart_tables_.size() < draws.size()) restart_tables_.resize(draws.size());
}

void TokenSource::open_draw(const PreparedDraw& draw) {
    const DrawInfo& d = draw.state.draw;
    chunks_ = draw.cached ? 1 : chunk_count(d, draw.split);
    chunked_ = chunks_ > 1;
    begins_pending_ = true;
    draw_open_ = true;
    if (chunked_) {
        passes_ = chunk_passes(d, draw.split);
        next_chunk_ = next_pass_ = 0;
        open_restarts_ = nullptr;
        // Inline, one thread splits the chunks in order and carries the open run from chunk
        // to chunk (begin_chunk without a table), reading each index once.
        if (d.primitive_restart && d.index_type != IndexType::none && in_arena_) {
            // Found here, once per draw, before any of its chunks is handed out: O(chunks)
            // serial work after a scan that forks across the arena.
            RestartChunks& table = restart_tables_[cursor_];
            find_restart_chunks(d, draw.split, chunks_, table, in_arena_);
            open_restarts_ = &table;
        }
        open_small_ = open_whole_ = false;
        return;
    }
    const uint64_t per_segment_instances =
        draw.split.limits.handles_instancing ? std::max(d.instance_count, 1u) : 1;
    open_work_ = uint64_t(d.count) * per_segment_instances * draw.split.limits.work_per_vertex;
    open_small_ = open_work_ <= kTokenWork;
    // Whole only when it is about one segment (and instance): the segments of a small draw at
    // a small limit, or of many instances, still go out one by one, to run side by side.
    open_whole_ = draw.work() <= kTokenWork && d.count <= draw.split.limits.max_vertices;
    if (!open_whole_) segments_.begin(draw);
}

void TokenSource::close_draw() {
    draw_open_ = false;
    ++cursor_;
}

void TokenSource::fill(Token& t) {
    t.count = 0;
    uint64_t work = 0;
    uint32_t starts = 0;
    while (t.count < kMaxItemsPerToken && work < kTokenWork) {
        if (!draw_open_) {
            if (cursor_ == draws_.size() || starts == kMaxDrawsPerToken) break;
            open_draw(draws_[cursor_]);
            ++starts;
        }
        if (t.count > 0 && !open_small_) break; // a large draw's segment gets a token alone
        Item& it = t.items[t.count++];
        it.draw = &draws_[cursor_];
        it.begins = std::exchange(begins_pending_, false);
        if (chunked_ && next_pass_ < passes_) {
            it.kind = ItemKind::chunk;
            it.pass = next_pass_;
            it.chunk = next_chunk_;
            it.restarts = open_restarts_;
            if (++next_chunk_ == chunks_) next_chunk_ = 0, ++next_pass_;
            work += kTokenWork; // a chunk gets a token alone
        } else if (open_whole_) {
            it.kind = ItemKind::whole;
            work += std::max<uint64_t>(open_work_, 1);
            close_draw();
        } else if (!chunked_ && segments_.next(it.storage, it.seg)) {
            it.kind = ItemKind::segment;
            work += segment_work(*it.draw, it.seg);
        } else {
            it.kind = ItemKind::end;
            if (!chunked_) front_total_ += segments_.stats();
            close_draw();
        }
    }
}

} // namespace drawpipe::detail
