// A model of one gen7 GS thread's URB output entry: the bytes the thread writes (control-data
// header, then vertex slots, README.md beside this file), every URB write message it issued, and
// the vertex count its end-of-thread message carried.
#pragma once

#include "middle_ends/intel_gen7/gs_compile.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe::gen7 {

enum class UrbWriteKind : uint8_t { header, vertex };

// One URB write message, addressed as the vec4 generator builds it.
struct UrbWrite {
    UrbWriteKind kind = UrbWriteKind::vertex;
    uint32_t vertex_count = 0;    // the thread's vertex_count register when it was sent
    uint32_t global_offset = 0;   // header: 0; vertex: header hwords
    uint32_t slot_offset = 0;     // header: OWORDs (if per_slot_offset); vertex: hwords
    bool per_slot_offset = false; // message header DWORDs 3-4 carry slot_offset
    uint8_t channel_mask = 0xF;   // header: DWORDs of the OWORD written (0xF when unmasked)
    bool channel_masked = false;  // the message used channel masks
    uint32_t dword_index = 0;     // header: (vertex_count - 1) * bits / 32 when addressed
    uint32_t data = 0;            // header: the control-data DWORD
    uint32_t byte_offset = 0;     // first byte of the entry the write changed
    uint32_t byte_count = 0;      // how many bytes it changed
};

// The URB entry of one thread. begin() starts a thread; bytes nobody wrote since then read
// as kUnwritten, and readers can ask whether a DWORD was written.
class UrbEntry {
  public:
    static constexpr uint32_t kUnwritten = 0xDEADBEEFu;

    // Starts a new thread's entry sized for `program`. Cheap: nothing is cleared.
    void begin(const GsProgram& program);

    // Sends a header write (an OWORD message at 16 × (global + slot) bytes): the data goes to
    // every DWORD the channel mask enables. Throws Error(middle_end_failure) past the entry.
    void write_header(const UrbWrite& w);
    // Sends a vertex write at 32 × (global + slot) bytes with the vertex's VUE dwords.
    void write_vertex(const UrbWrite& w, std::span<const uint32_t> vue);
    // The end-of-thread message: the vertex count rides in its header (DWORD 2 on gen7).
    void end_thread(uint32_t vertex_count);

    uint32_t dword(uint32_t index) const { return written(index) ? data_[index] : kUnwritten; }
    bool written(uint32_t index) const {
        return index < size_dwords_ && stamp_[index] == generation_;
    }
    uint32_t size_dwords() const { return size_dwords_; }
    bool ended() const { return ended_; }
    uint32_t vertex_count() const { return vertex_count_; }
    std::span<const UrbWrite> writes() const { return writes_; }

  private:
    void store(uint32_t dword_index, uint32_t value);

    std::vector<uint32_t> data_;
    std::vector<uint32_t> stamp_; // generation_ when written this thread
    uint32_t generation_ = 0;
    uint32_t size_dwords_ = 0;
    uint32_t vertex_count_ = 0;
    bool ended_ = false;
    std::vector<UrbWrite> writes_;
};

} // namespace drawpipe::gen7
