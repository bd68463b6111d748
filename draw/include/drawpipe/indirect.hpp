// Indirect draws: draw parameters the driver reads from its own memory (GL's
// glMultiDraw*Indirect and ARB_indirect_parameters' *IndirectCount, Vulkan's
// vkCmdDraw*Indirect[Count]). The records have GL's and Vulkan's layouts, so a driver hands
// its buffer over as it is. Context::draw_indirect draws them; resolve_indirect is the
// decoding alone, for a driver that draws the records another way (each with
// draw_serial, which keeps a single draw's draw_id; the multi-draw draw_serial renumbers).
#pragma once

#include "drawpipe/types.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drawpipe {

// A non-indexed record (GL's DrawArraysIndirectCommand, VkDrawIndirectCommand): 16 bytes.
struct DrawArraysIndirectCommand {
    uint32_t count = 0;
    uint32_t instance_count = 0;
    uint32_t first = 0;
    uint32_t base_instance = 0;
};
// An indexed record (DrawElementsIndirectCommand, VkDrawIndexedIndirectCommand): 20 bytes.
struct DrawElementsIndirectCommand {
    uint32_t count = 0;
    uint32_t instance_count = 0;
    uint32_t first_index = 0;
    int32_t base_vertex = 0;
    uint32_t base_instance = 0;
};
static_assert(sizeof(DrawArraysIndirectCommand) == 16 && sizeof(DrawElementsIndirectCommand) == 20);

// Driver memory the draw module reads (and never past `size` bytes).
struct IndirectBuffer {
    const void* data = nullptr;
    size_t size = 0;
};

struct IndirectDraws {
    IndirectBuffer buffer; // the records (GL_DRAW_INDIRECT_BUFFER)
    size_t offset = 0;     // bytes to the first record; a multiple of 4
    uint32_t stride = 0;   // bytes from record to record, a multiple of 4; 0: tightly packed
    // Records drawn; with a count buffer, the most that are (maxdrawcount).
    uint32_t draw_count = 1;
    // ARB_indirect_parameters: when `count_buffer.data` is set, the draw count is the uint32
    // at `count_offset` (a multiple of 4) in it, clamped to draw_count.
    IndirectBuffer count_buffer;
    size_t count_offset = 0;
};

// The records of `indirect` read one at a time (what Context::draw_indirect does, without a
// copy of them all): the constructor checks the buffers as resolve_indirect does and throws
// the same errors; read(i) is then record i, i < count().
class IndirectRecords {
  public:
    IndirectRecords(const DrawInfo& draw, const IndirectDraws& indirect);
    // min(N, draw_count): the records to read.
    uint32_t count() const { return count_; }
    // Record i as `draw` with the record's fields and draw_id i; false when it draws nothing
    // (zero count or zero instances), which GL skips.
    bool read(uint32_t i, DrawInfo& out) const {
        out = draw_;
        return fill(i, out);
    }
    // read() for `out` already holding the draw (or an earlier record's): only the record's
    // fields and the draw id are written.
    bool fill(uint32_t i, DrawInfo& out) const;
    const DrawInfo& draw() const { return draw_; }

  private:
    DrawInfo draw_;
    const unsigned char* first_ = nullptr;
    uint64_t stride_ = 0;
    uint32_t count_ = 0;
};

// The draws `indirect` describes, in record order: each is `draw` (its primitive, index
// buffer, restart and provoking convention) with the record's count, instances, start, base
// vertex and base instance, and draw_id = the record's index. Records read as an indexed
// record when draw.index_type is not none. As GL does: min(N, draw_count) records are read;
// records with a zero count or zero instances draw nothing and are left out; draw_count
// records must lie in the buffer even when N is smaller. Throws Error, reading nothing
// outside the two buffers: invalid_value for an offset or stride that is not a multiple of
// 4 (GL_INVALID_VALUE), invalid_operation for records or a count past a buffer's end
// (GL_INVALID_OPERATION). A record's own fields are checked when it is drawn.
std::vector<DrawInfo> resolve_indirect(const DrawInfo& draw, const IndirectDraws& indirect);

} // namespace drawpipe
