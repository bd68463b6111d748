// The pipeline's source filter (draw/context/pipeline.hpp): packs the queued draws into
// tokens in draw order. A large draw's segments or chunks go one per token; the segments of
// small draws, or small draws whole, share one. Its state lasts across the pipeline launches
// of one flush.
#pragma once

#include "draw/context/prepared_draw.hpp"
#include "draw/context/token.hpp"
#include "draw/front_end/chunks.hpp"
#include "drawpipe/stats.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe::detail {

class TokenSource {
  public:
    // Starts a flush of `draws`, which must outlive it. `in_arena`: fill() runs inside the
    // pipeline's task arena, so a draw's restart scan may fork; else (inline) chunks are
    // split in order by one thread, which carries the open run and needs no restart table.
    void start(std::span<const PreparedDraw> draws, bool in_arena);
    // Fills `t` from its first item: up to kMaxItemsPerToken items, kTokenWork of work and
    // kMaxDrawsPerToken draws begun. Leaves `t` empty once every draw is done.
    void fill(Token& t);
    // Every draw handed out, its end included.
    bool done() const { return cursor_ == draws_.size() && !draw_open_; }
    // Front-end totals of the segments split here (chunks and small draws whole are split,
    // and counted, where they are shaded).
    const FrontEndStats& front_total() const { return front_total_; }

  private:
    void open_draw(const PreparedDraw& draw);
    void close_draw();

    SegmentSource segments_; // splits the open draw when it is neither chunked nor whole
    std::span<const PreparedDraw> draws_;
    size_t cursor_ = 0; // the open draw, or the next to open
    bool in_arena_ = false;
    bool draw_open_ = false, begins_pending_ = false;
    // The open draw uncut: its segments share tokens (small), or it goes whole into one item.
    bool open_small_ = false, open_whole_ = false;
    uint64_t open_work_ = 0; // its vertices times the instances a segment shades
    // The open draw cut into chunks (chunk_count > 1): (pass, chunk) handed out in draw order.
    bool chunked_ = false;
    uint32_t chunks_ = 0, passes_ = 0, next_chunk_ = 0, next_pass_ = 0;
    const RestartChunks* open_restarts_ = nullptr;
    std::vector<RestartChunks> restart_tables_; // per draw of the flush, reused across flushes
    FrontEndStats front_total_;
};

} // namespace drawpipe::detail
