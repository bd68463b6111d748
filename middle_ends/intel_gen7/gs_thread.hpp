// The thread side of a gen7 vec4 geometry shader: what the compiled code around EmitVertex(),
// EndPrimitive() and the thread end does with its vertex_count and control-data registers,
// and the URB writes it sends (README.md beside this file: "Accumulating and writing control
// bits").
#pragma once

#include "middle_ends/intel_gen7/gs_compile.hpp"
#include "middle_ends/intel_gen7/urb_entry.hpp"

#include <cstdint>
#include <span>

namespace drawpipe::gen7 {

class GsThread {
  public:
    // Starts a thread of `program` writing into `entry` (which it begins). Both must outlive
    // the thread object.
    GsThread(const GsProgram& program, UrbEntry& entry);

    // EmitVertex / EmitStreamVertex: writes the VUE at the next vertex slot, first flushing a
    // completed 32-bit batch of control bits (batching mode only), then records the stream id
    // (SID format). Emits beyond max_vertices are skipped, as are emits to streams > 0 when
    // the program has no stream output. Throws Error(invalid_value) for stream >= 4.
    void emit_vertex(uint32_t stream, std::span<const uint32_t> vue);
    // EndPrimitive / EndStreamPrimitive: sets cut bit (vertex_count - 1) mod 32 (CUT format
    // with a header only; a no-op otherwise). Before the first vertex this sets bit 31, which
    // is harmless (README.md, "Cut bits").
    void end_primitive(uint32_t stream);
    // Writes the last (partial) batch of control bits when any vertex was emitted, then sends
    // the end-of-thread message carrying the vertex count. Call once.
    void end_thread();

    uint32_t vertex_count() const { return vertex_count_; }
    uint32_t control_bits() const { return control_bits_; }

  private:
    void write_control_bits();

    const GsProgram& program_;
    UrbEntry& entry_;
    uint32_t vertex_count_ = 0;
    uint32_t control_bits_ = 0;
};

// Value the control-data register holds before anything zeroes it in batching mode, where
// the compiled code leaves it uninitialised until the first EmitVertex.
inline constexpr uint32_t kUninitialisedBits = 0xA5A5A5A5u;

} // namespace drawpipe::gen7
