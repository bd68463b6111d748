// Named limits, one line of reason each.
#pragma once

#include <cstdint>

namespace drawpipe {

// Draw elements are u16 positions into a segment's fetched vertices.
inline constexpr uint32_t kMaxSegmentVertices = 65536;
// Mesa's vsplit caps a de-duplicated segment at this many indices.
inline constexpr uint32_t kVsplitSegmentIndices = 1024;
// Mesa's vsplit de-duplicates through a direct-mapped table of this many entries.
inline constexpr uint32_t kVsplitTableEntries = 256;
// Every attribute reaches the middle end as four 32-bit components.
inline constexpr uint32_t kMaxAttribs = 16;
// Dwords before the attributes in a shaded vertex: 4 system values + position.
inline constexpr uint32_t kVertexHeaderDwords = 8;
// Per-segment counters a middle end may report (MiddleEnd::counters()).
inline constexpr uint32_t kMaxCounters = 8;

} // namespace drawpipe
