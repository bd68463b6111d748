#include "middle_ends/intel_gen7/urb_entry.hpp"

#include "drawpipe/error.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace drawpipe::gen7 {

void UrbEntry::begin(const GsProgram& program) {
    size_dwords_ = (program.urb_entry_bytes + 3) / 4;
    if (data_.size() < size_dwords_) {
        data_.resize(size_dwords_);
        stamp_.resize(size_dwords_, generation_);
    }
    if (++generation_ == 0) { // wrapped: forget every old stamp once in 2^32 threads
        std::fill(stamp_.begin(), stamp_.end(), 0);
        generation_ = 1;
    }
    vertex_count_ = 0;
    ended_ = false;
    writes_.clear();
}

void UrbEntry::store(uint32_t index, uint32_t value) {
    if (index >= size_dwords_)
        throw Error(ErrorCode::middle_end_failure,
                    "gen7: URB write to byte " + std::to_string(4ull * index) + " outside the " +
                        std::to_string(4ull * size_dwords_) + "-byte entry");
    data_[index] = value;
    stamp_[index] = generation_;
}

void UrbEntry::write_header(const UrbWrite& w) {
    UrbWrite rec = w;
    const uint32_t oword = w.global_offset + (w.per_slot_offset ? w.slot_offset : 0);
    const uint8_t mask = w.channel_masked ? w.channel_mask : 0xF;
    rec.byte_offset = kOwordBytes * oword + 4 * uint32_t(std::countr_zero(uint32_t(mask)));
    rec.byte_count = 0;
    for (uint32_t c = 0; c < 4; ++c)
        if (mask & (1u << c)) {
            store(kOwordBytes / 4 * oword + c, w.data);
            rec.byte_count += 4;
        }
    writes_.push_back(rec);
}

void UrbEntry::write_vertex(const UrbWrite& w, std::span<const uint32_t> vue) {
    UrbWrite rec = w;
    const uint32_t hword = w.global_offset + (w.per_slot_offset ? w.slot_offset : 0);
    rec.byte_offset = kHwordBytes * hword;
    rec.byte_count = uint32_t(vue.size() * 4);
    for (uint32_t i = 0; i < vue.size(); ++i) store(rec.byte_offset / 4 + i, vue[i]);
    writes_.push_back(rec);
}

void UrbEntry::end_thread(uint32_t vertex_count) {
    vertex_count_ = vertex_count;
    ended_ = true;
}

} // namespace drawpipe::gen7
