#include "drawpipe/indirect.hpp"

#include "drawpipe/error.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace drawpipe {

namespace {

[[noreturn]] void fail(ErrorCode code, const std::string& what) {
    throw Error(code, "indirect: " + what);
}

void check_aligned(const char* name, uint64_t value) {
    if (value % 4 != 0)
        fail(ErrorCode::invalid_value,
             std::string(name) + " " + std::to_string(value) + " is not a multiple of 4");
}

} // namespace

IndirectRecords::IndirectRecords(const DrawInfo& draw, const IndirectDraws& in) : draw_(draw) {
    const bool indexed = draw.index_type != IndexType::none;
    const size_t record =
        indexed ? sizeof(DrawElementsIndirectCommand) : sizeof(DrawArraysIndirectCommand);
    stride_ = in.stride ? in.stride : record;
    check_aligned("offset", in.offset);
    check_aligned("stride", in.stride);
    if (in.count_buffer.data) check_aligned("count offset", in.count_offset);

    // GL checks that all draw_count records fit, whatever count the buffer holds.
    const uint32_t max = in.draw_count;
    if (max > 0) {
        const uint64_t size = in.buffer.data ? in.buffer.size : 0;
        // The last record ends at offset + (max - 1) * stride + record, computed without
        // overflow: (max - 1) * stride is below 2^64 for 32-bit factors.
        const uint64_t last = uint64_t(max - 1) * stride_;
        if (in.offset > size || record > size - in.offset || last > size - in.offset - record)
            fail(ErrorCode::invalid_operation, std::to_string(max) + " records of " +
                                                   std::to_string(record) + " bytes from offset " +
                                                   std::to_string(in.offset) + " with stride " +
                                                   std::to_string(stride_) + " reach past the " +
                                                   std::to_string(size) + "-byte record buffer");
        first_ = static_cast<const unsigned char*>(in.buffer.data) + in.offset;
    }
    count_ = max;
    if (in.count_buffer.data) {
        if (in.count_offset > in.count_buffer.size || in.count_buffer.size - in.count_offset < 4)
            fail(ErrorCode::invalid_operation,
                 "the draw count at offset " + std::to_string(in.count_offset) +
                     " reaches past the " + std::to_string(in.count_buffer.size) +
                     "-byte count buffer");
        uint32_t n = 0;
        std::memcpy(&n, static_cast<const unsigned char*>(in.count_buffer.data) + in.count_offset,
                    4);
        count_ = std::min(n, max);
    }
}

bool IndirectRecords::fill(uint32_t i, DrawInfo& d) const {
    const unsigned char* at = first_ + uint64_t(i) * stride_;
    d.draw_id = i;
    if (draw_.index_type != IndexType::none) {
        DrawElementsIndirectCommand c;
        std::memcpy(&c, at, sizeof c);
        d.count = c.count, d.instance_count = c.instance_count, d.start = c.first_index;
        d.base_vertex = c.base_vertex, d.base_instance = c.base_instance;
    } else {
        DrawArraysIndirectCommand c;
        std::memcpy(&c, at, sizeof c);
        d.count = c.count, d.instance_count = c.instance_count, d.start = c.first;
        d.base_vertex = 0, d.base_instance = c.base_instance;
    }
    return d.count != 0 && d.instance_count != 0; // GL skips the others
}

std::vector<DrawInfo> resolve_indirect(const DrawInfo& draw, const IndirectDraws& in) {
    const IndirectRecords records(draw, in);
    std::vector<DrawInfo> draws;
    DrawInfo d;
    for (uint32_t i = 0; i < records.count(); ++i)
        if (records.read(i, d)) draws.push_back(d);
    return draws;
}

} // namespace drawpipe
