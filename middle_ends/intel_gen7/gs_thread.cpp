#include "middle_ends/intel_gen7/gs_thread.hpp"

#include "drawpipe/error.hpp"

#include <string>

namespace drawpipe::gen7 {

GsThread::GsThread(const GsProgram& program, UrbEntry& entry) : program_(program), entry_(entry) {
    entry_.begin(program_);
    // Up to 32 bits the register is zeroed in the prologue; in batching mode the first
    // EmitVertex zeroes it (vertex_count 0 starts a batch), so it starts undefined.
    control_bits_ = program_.batched() ? kUninitialisedBits : 0;
}

void GsThread::emit_vertex(uint32_t stream, std::span<const uint32_t> vue) {
    if (stream >= kMaxStreams)
        throw Error(ErrorCode::invalid_value,
                    "gs: emit to stream " + std::to_string(stream) + ", gen7 has streams 0..3");
    if (vertex_count_ >= program_.desc.max_vertices) return; // the compiler's safety check
    if (!program_.keeps_stream(stream)) return;              // dropped, not counted
    if (program_.batched() && vertex_count_ % program_.vertices_per_dword() == 0) {
        // The bits of the previous vertices fill a DWORD: send it before starting a new one.
        if (vertex_count_ != 0) write_control_bits();
        control_bits_ = 0;
    }
    UrbWrite w;
    w.kind = UrbWriteKind::vertex;
    w.vertex_count = vertex_count_;
    w.global_offset = program_.header_hwords;
    w.per_slot_offset = true;
    w.slot_offset = vertex_count_ * program_.vertex_hwords;
    entry_.write_vertex(w, vue);
    if (program_.format == ControlDataFormat::sid && program_.bits_per_vertex != 0)
        control_bits_ |= stream << ((2 * vertex_count_) & 31); // SHL reads 5 bits of the count
    ++vertex_count_;
}

void GsThread::end_primitive(uint32_t) {
    if (program_.format != ControlDataFormat::cut || program_.bits_per_vertex == 0) return;
    // vertex_count - 1 wraps to 0xFFFFFFFF before the first vertex; SHL keeps 5 bits: bit 31.
    control_bits_ |= 1u << ((vertex_count_ - 1) & 31);
}

void GsThread::end_thread() {
    if (program_.bits_per_vertex != 0 && vertex_count_ != 0) write_control_bits();
    entry_.end_thread(vertex_count_);
}

void GsThread::write_control_bits() {
    UrbWrite w;
    w.kind = UrbWriteKind::header;
    w.vertex_count = vertex_count_;
    w.data = control_bits_;
    if (program_.channel_masks() || program_.slot_offsets()) {
        // (vertex_count - 1) * bits / 32 as a shift: 5 for cut bits, 4 for stream ids.
        const uint32_t shift = program_.bits_per_vertex == 1 ? 5 : 4;
        w.dword_index = (vertex_count_ - 1) >> shift;
    }
    if (program_.channel_masks()) {
        w.channel_masked = true;
        w.channel_mask = uint8_t(1u << (w.dword_index & 3));
    }
    if (program_.slot_offsets()) {
        w.per_slot_offset = true;
        w.slot_offset = w.dword_index >> 2;
    }
    entry_.write_header(w);
}

} // namespace drawpipe::gen7
