// The Adreno A4xx geometry-shader execution model (freedreno wiki, A4xx-Geometry-Shaders;
// README.md beside this file, with ir3's flag handling from its "ir3's lowering").
//
// The hardware cannot emit several vertices from one launch: it launches the GS once per
// output vertex k (r0.x bits 15-24), the launch computes only vertex k's outputs and a
// prim_info word, and the first launch that reaches the end of the shader without reaching
// its vertex executes a kill, which ends the sequence. Input vertices sit in local memory,
// one slot per input primitive (r0.x bits 0-4), attribute-major.
#pragma once

#include "drawpipe/gs.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe::a4xx {

// ---- r0.x: the header register every GS launch starts with ----
struct R0x {
    uint32_t prim_slot;  // bits 0-4: the input primitive's local-memory slot
    uint32_t invocation; // bits 10-14: gl_InvocationID
    uint32_t vertex;     // bits 15-24: the output vertex this launch computes
};
constexpr uint32_t pack_r0x(const R0x& f) {
    return (f.prim_slot & 31u) | (f.invocation & 31u) << 10 | (f.vertex & 1023u) << 15;
}
constexpr R0x unpack_r0x(uint32_t r0x) {
    return {r0x & 31u, (r0x >> 10) & 31u, (r0x >> 15) & 1023u};
}
inline constexpr uint32_t kPrimSlots = 32; // r0.x has 5 bits of primitive offset

// ---- prim_info: the per-vertex word the fixed function assembles strips from ----
// The flag marks a vertex that *starts* a primitive; Intel gen7's cut bit marks the opposite
// end, a vertex after which the strip ends (middle_ends/intel_gen7/urb_entry.hpp).
inline constexpr uint32_t kPrimInfoNewPrim = 4; // this vertex starts a primitive
// Bits 0-1 stream (ir3's convention), bit 2 new primitive, bits 3-6 viewport index (the
// wiki marks bit 3 as a guess), bits 7 and up the layer.
constexpr uint32_t pack_prim_info(bool new_prim, uint32_t stream, uint32_t layer,
                                  uint32_t viewport) {
    return (stream & 3u) | (new_prim ? kPrimInfoNewPrim : 0u) | (viewport & 15u) << 3 | layer << 7;
}
constexpr uint32_t prim_info_stream(uint32_t w) {
    return w & 3u;
}
constexpr bool prim_info_new_prim(uint32_t w) {
    return (w & kPrimInfoNewPrim) != 0;
}
constexpr uint32_t prim_info_viewport(uint32_t w) {
    return (w >> 3) & 15u;
}
constexpr uint32_t prim_info_layer(uint32_t w) {
    return w >> 7;
}

// ---- local memory: where the VS outputs of each input primitive are staged ----
// Per primitive of V vertices: a 0x40-byte system block per vertex (+0x00 position,
// +0x10 point size, +0x20 / +0x30 unknown), then varying n of vertex v at
// 0x40*V + n*0x10*V + v*0x10; varying a is the draw's attribute a. The record header
// (vertex id, instance id, GS id, layer: four dwords a real VS would export as system
// values) sits in the first unknown word, +0x20, so the varyings keep their documented
// addresses (triangles without attributes: 0xC0 bytes a primitive, as c9.x says).
constexpr uint32_t lm_position_offset(uint32_t v) {
    return 0x40 * v;
}
constexpr uint32_t lm_header_offset(uint32_t v) {
    return 0x40 * v + 0x20;
}
constexpr uint32_t lm_varying_offset(uint32_t V, uint32_t n, uint32_t v) {
    return 0x40 * V + n * 0x10 * V + v * 0x10;
}
constexpr uint32_t lm_prim_stride(uint32_t V, uint32_t varyings) {
    return 0x40 * V + varyings * 0x10 * V;
}
// Byte offset, within a primitive, of dword `slot` of input vertex v's record (layout of
// <drawpipe/extend/shaded.hpp> with `attribs` attributes); ~0u when slot is past the record.
uint32_t lm_record_offset(uint32_t V, uint32_t attribs, uint32_t v, uint32_t slot);

class LocalMemory {
  public:
    // Sizes the memory for kPrimSlots primitives of V vertices with `attribs` varyings.
    void configure(uint32_t V, uint32_t attribs);
    // Sized for records of `layout`: every varying and special output in a varying slot of
    // its own four dwords, the point size (when declared) also in the system block.
    void configure(uint32_t V, const VertexLayout& layout);
    // Writes one input primitive's VS-output records (V of them) into slot `slot`.
    void stage(uint32_t slot, std::span<const uint32_t* const> records);
    // ldlw: one dword at a byte address; 0 past the end.
    uint32_t load(uint32_t byte_addr) const;
    uint32_t vertices() const { return V_; }
    uint32_t attribs() const { return attribs_; }
    uint32_t prim_stride() const { return stride_; }

  private:
    std::vector<uint32_t> dwords_;
    uint32_t V_ = 0, attribs_ = 0, stride_ = 0;
    uint32_t record_dwords_ = 0, psize_slot_ = ~0u;
};

// ---- one hardware launch ----
enum class Mode : uint8_t {
    naive,          // every launch executes the shader from the top up to its own vertex
    switch_rewrite, // a launch executes only the code of its own vertex (independent_vertices)
};

struct LaunchResult {
    bool killed = false;
    uint32_t prim_info = 0;
    GsOutput out;
    // Shader steps (input loads, emits, end_primitives, the kill) this launch costs in each
    // mode; both are counted whatever mode executed.
    uint64_t steps_naive = 0;
    uint64_t steps_switch = 0;
};

// Launches the GS once for the vertex and input primitive r0x names, primitive id r0y, reading
// inputs from `lm`. `stream` selects the per-stream clone (ir3 clones non-point shaders per
// stream: only that stream's emits and ends exist); -1 runs every stream in one sequence.
LaunchResult launch_once(const GeometryShader& gs, Mode mode, const LocalMemory& lm, uint32_t r0x,
                         uint32_t r0y, int stream);

} // namespace drawpipe::a4xx
