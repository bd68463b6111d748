// What Intel's gen7 (Ivy Bridge / Haswell) GS compiler decides before a thread runs: the
// control-data format and header size, the output vertex size and the URB entry size
// (README.md beside this file: "Compile time", "Worked sizes").
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>

namespace drawpipe::gen7 {

// STATE_GS "Control Data Format": how the header before the vertices is read.
enum class ControlDataFormat : uint8_t {
    cut = 0, // GSCTL_CUT: 1 bit per vertex, set when the strip ends after that vertex
    sid = 1, // GSCTL_SID: 2 bits per vertex, the vertex's stream id
};

inline constexpr uint32_t kHwordBytes = 32;           // URB writes address 256-bit units
inline constexpr uint32_t kOwordBytes = 16;           // one vec4 slot
inline constexpr uint32_t kMaxVueSlots = 62;          // STATE_GS Output Vertex Size: 992 bytes
inline constexpr uint32_t kMaxUrbEntryBytes = 32768;  // larger GS URB entries fail to compile
inline constexpr uint32_t kMaxGsOutputVertices = 256; // gl_MaxGeometryOutputVertices on gen7
inline constexpr uint32_t kMaxStreams = 4;

// The shader facts the compiler reads (nir->info.gs and the outputs).
struct GsDesc {
    Prim output = Prim::triangle_strip; // points, line_strip or triangle_strip
    uint32_t max_vertices = 1;          // layout(max_vertices = N), 0..256
    bool uses_end_primitive = false;    // the shader contains EndPrimitive()
    uint32_t stream_mask = 1;           // bit s set when the shader emits to stream s
    // Transform-feedback varyings exist: vertices of streams > 0 are written to the URB.
    // Without them Haswell would rasterize every stream, so the compiler drops those emits.
    bool stream_output = true;
    uint32_t vue_slots = 2; // 16-byte output slots per vertex, 1..62
};

// The compiled program's control-data and URB facts.
struct GsProgram {
    GsDesc desc;
    ControlDataFormat format = ControlDataFormat::cut;
    uint32_t bits_per_vertex = 0; // 0 (no header), 1 (cut) or 2 (stream id)
    uint32_t header_bits = 0;     // max_vertices * bits_per_vertex
    uint32_t header_hwords = 0;   // ceil(header_bits / 256): STATE_GS Control Data Header Size
    uint32_t vertex_hwords = 0;   // ceil(vue_slots * 16 / 32): vertices are 32-byte aligned
    uint32_t urb_entry_bytes = 0; // header + max_vertices vertices (at least 1)
    uint32_t urb_entry_size = 0;  // the URB allocation field: ceil(bytes / 64)

    // Above 32 bits the header goes out in 32-bit batches addressed by channel mask.
    bool batched() const { return header_bits > 32; }
    bool channel_masks() const { return header_bits > 32; }
    // Above 128 bits a batch may land past the first OWORD: per-slot offsets pick it.
    bool slot_offsets() const { return header_bits > 128; }
    // Vertices per 32-bit batch: 32 for cut bits, 16 for stream ids.
    uint32_t vertices_per_dword() const { return bits_per_vertex ? 32 / bits_per_vertex : 0; }
    uint32_t header_dwords() const { return (header_bits + 31) / 32; }
    // Byte offset of output vertex n in the URB entry: after the header, S hwords apiece.
    uint32_t vertex_offset(uint32_t n) const {
        return kHwordBytes * (header_hwords + n * vertex_hwords);
    }
    // Whether a vertex to `stream` reaches the URB (without stream output, streams > 0 are
    // dropped: README.md, "Stream ids").
    bool keeps_stream(uint32_t stream) const { return stream == 0 || desc.stream_output; }
};

// Computes the compile-time data for a shader, as brw_compile_gs does for gen7. Throws
// Error(invalid_value) for an output type, stream mask or slot count GL does not allow, and
// Error(unsupported) for more than 256 vertices or a URB entry above 32 KiB (compilation
// fails on gen7).
GsProgram compile_gs(const GsDesc& desc);

} // namespace drawpipe::gen7
