// GL's instance order for the segments of one draw: all of instance 0, then instance 1...
// A middle end that handles instancing may take every instance in each segment, which is
// that order only when the draw is one segment; a middle end that says so
// (MiddleEndLimits::instancing_single_segment_only) gets one pass per instance otherwise.
// The front end and the split cache's replay both follow it.
#pragma once

#include "drawpipe/extend/middle_end.hpp"

#include <algorithm>
#include <cstdint>

namespace drawpipe {

class InstanceOrder {
  public:
    InstanceOrder() = default;
    InstanceOrder(const MiddleEndLimits& limits, uint32_t instance_count)
        : all_(limits.handles_instancing),
          single_segment_only_(limits.instancing_single_segment_only), count_(instance_count) {}

    // Once the draw is known to be one segment or more (from its first segment on).
    void settle(bool one_segment) {
        if (single_segment_only_ && !one_segment) all_ = false;
    }
    // Passes over the draw's segments: one with every instance, or one per instance.
    uint32_t passes() const { return all_ ? std::min(count_, 1u) : count_; }
    // The instances a segment of pass `pass` carries.
    uint32_t first(uint32_t pass) const { return all_ ? 0 : pass; }
    uint32_t count() const { return all_ ? count_ : 1; }

  private:
    bool all_ = false;
    bool single_segment_only_ = false;
    uint32_t count_ = 0;
};

} // namespace drawpipe
