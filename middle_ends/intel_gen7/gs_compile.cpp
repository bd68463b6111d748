#include "middle_ends/intel_gen7/gs_compile.hpp"

#include "drawpipe/error.hpp"

#include <string>

namespace drawpipe::gen7 {

namespace {

uint32_t div_round_up(uint32_t a, uint32_t b) {
    return (a + b - 1) / b;
}

void check_desc(const GsDesc& d) {
    if (d.output != Prim::points && d.output != Prim::line_strip &&
        d.output != Prim::triangle_strip)
        throw Error(
            ErrorCode::invalid_value,
            "gs.output: a geometry shader outputs points, line_strip or triangle_strip, not " +
                std::string(prim_name(d.output)));
    if (d.max_vertices > kMaxGsOutputVertices)
        throw Error(ErrorCode::unsupported,
                    "gs.max_vertices: " + std::to_string(d.max_vertices) + " exceeds gen7's 256");
    if (d.stream_mask == 0 || d.stream_mask >= (1u << kMaxStreams))
        throw Error(ErrorCode::invalid_value, "gs.streams: stream mask " +
                                                  std::to_string(d.stream_mask) +
                                                  " is not within 1..15");
    // GL allows several streams only with points output (a link error otherwise).
    if (d.output != Prim::points && d.stream_mask != 1)
        throw Error(ErrorCode::invalid_value,
                    "gs.streams: only a points geometry shader may emit to streams other than 0");
    if (d.vue_slots == 0 || d.vue_slots > kMaxVueSlots)
        throw Error(ErrorCode::invalid_value, "gs.outputs: " + std::to_string(d.vue_slots) +
                                                  " output slots is outside gen7's 1..62");
}

} // namespace

GsProgram compile_gs(const GsDesc& desc) {
    check_desc(desc);
    GsProgram p;
    p.desc = desc;
    if (desc.output == Prim::points) {
        // Points can't be cut, so the header carries stream ids, needed only beyond stream 0.
        p.format = ControlDataFormat::sid;
        p.bits_per_vertex = desc.stream_mask != 1 ? 2 : 0;
    } else {
        p.format = ControlDataFormat::cut;
        p.bits_per_vertex = desc.uses_end_primitive ? 1 : 0;
    }
    p.header_bits = desc.max_vertices * p.bits_per_vertex;
    p.header_hwords = div_round_up(p.header_bits, 8 * kHwordBytes);
    p.vertex_hwords = div_round_up(desc.vue_slots * kOwordBytes, kHwordBytes);
    p.urb_entry_bytes =
        kHwordBytes * p.header_hwords + kHwordBytes * p.vertex_hwords * desc.max_vertices;
    if (p.urb_entry_bytes == 0) p.urb_entry_bytes = 1; // max_vertices = 0: never allocate 0
    if (p.urb_entry_bytes > kMaxUrbEntryBytes)
        throw Error(ErrorCode::unsupported, "gs.max_vertices: the gen7 URB entry would take " +
                                                std::to_string(p.urb_entry_bytes) + " bytes (" +
                                                std::to_string(desc.max_vertices) +
                                                " vertices of " +
                                                std::to_string(kHwordBytes * p.vertex_hwords) +
                                                " bytes), above the 32768-byte limit");
    p.urb_entry_size = div_round_up(p.urb_entry_bytes, 64);
    return p;
}

} // namespace drawpipe::gen7
