#include "draw/context/robust_indices.hpp"

#include <algorithm>
#include <cstring>

namespace drawpipe {

bool reads_past_indices(const DrawInfo& draw) {
    return draw.index_type != IndexType::none &&
           uint64_t(draw.start) + draw.count > draw.index_buffer_count;
}

DrawInfo robust_draw(const DrawInfo& draw, std::shared_ptr<const std::vector<std::byte>>& copy) {
    if (!reads_past_indices(draw)) return draw;
    const size_t size = index_size(draw.index_type);
    auto bytes = std::make_shared<std::vector<std::byte>>(size_t(draw.count) * size);
    // The positions before the buffer's end are the draw's own; the rest stay zero.
    const uint32_t inside =
        draw.start < draw.index_buffer_count ? draw.index_buffer_count - draw.start : 0;
    if (inside > 0 && draw.indices)
        std::memcpy(bytes->data(), static_cast<const std::byte*>(draw.indices) + draw.start * size,
                    std::min(inside, draw.count) * size);
    DrawInfo d = draw;
    d.indices = bytes->data();
    d.index_buffer_count = draw.count;
    d.start = 0;
    d.index_buffer_id = 0; // the copy is this draw's alone: no cached split is its
    if (d.index_range) d.index_range->min = 0;
    copy = std::move(bytes);
    return d;
}

} // namespace drawpipe
