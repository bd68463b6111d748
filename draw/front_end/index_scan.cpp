#include "draw/front_end/index_scan.hpp"

namespace drawpipe {

IndexRange scan_index_range(const DrawInfo& draw) {
    if (draw.index_type == IndexType::none) return {draw.start, draw.start + draw.count - 1};
    return with_indices(draw, [&](const auto* idx) {
        return scan_range(idx, draw.start, draw.start + draw.count, draw.primitive_restart,
                          draw.restart_index);
    });
}

} // namespace drawpipe
