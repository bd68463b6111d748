#include "middle_ends/intel_gen7/ff_reader.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/prim.hpp"

#include <string>

namespace drawpipe::gen7 {

namespace {

[[noreturn]] void unwritten(const char* what, uint32_t dword) {
    throw Error(ErrorCode::middle_end_failure,
                std::string("gen7: the fixed-function GS reads ") + what + " at URB byte " +
                    std::to_string(4ull * dword) + ", which the thread never wrote");
}

} // namespace

uint32_t vertex_control_bits(const GsProgram& program, const UrbEntry& entry, uint32_t n) {
    const uint32_t bpv = program.bits_per_vertex;
    if (bpv == 0) return 0;
    const uint32_t bit = n * bpv;
    const uint32_t dword = bit / 32; // header DWORDs are laid out from byte 0
    if (!entry.written(dword)) unwritten("control data", dword);
    return (entry.dword(dword) >> (bit % 32)) & ((1u << bpv) - 1);
}

void read_vertex(const GsProgram& program, const UrbEntry& entry, uint32_t n,
                 std::span<uint32_t> vue) {
    const uint32_t base = program.vertex_offset(n) / 4;
    for (uint32_t i = 0; i < vue.size(); ++i) {
        if (!entry.written(base + i)) unwritten("a vertex", base + i);
        vue[i] = entry.dword(base + i);
    }
}

void read_output_runs(const GsProgram& program, const UrbEntry& entry,
                      std::vector<OutputRun>& out) {
    if (!entry.ended())
        throw Error(ErrorCode::middle_end_failure, "gen7: URB entry read before its thread ended");
    const uint32_t count = entry.vertex_count();
    if (count > program.desc.max_vertices)
        throw Error(ErrorCode::middle_end_failure,
                    "gen7: thread reported " + std::to_string(count) + " vertices, above max " +
                        std::to_string(program.desc.max_vertices));
    if (program.format == ControlDataFormat::sid) {
        // Points: each vertex is a primitive; group neighbours of the same stream.
        for (uint32_t n = 0; n < count; ++n) {
            const uint32_t stream = vertex_control_bits(program, entry, n);
            if (!out.empty() && out.back().stream == stream &&
                out.back().first + out.back().count == n)
                ++out.back().count;
            else
                out.push_back({stream, n, 1});
        }
        return;
    }
    const uint32_t min_count = prim_shape(program.desc.output).first;
    uint32_t first = 0;
    for (uint32_t n = 0; n < count; ++n) {
        // The cut bit after the last vertex is never read: the strip ends with the thread.
        const bool cut = n + 1 == count || vertex_control_bits(program, entry, n) != 0;
        if (!cut) continue;
        if (n + 1 - first >= min_count) out.push_back({0, first, n + 1 - first});
        first = n + 1;
    }
}

} // namespace drawpipe::gen7
