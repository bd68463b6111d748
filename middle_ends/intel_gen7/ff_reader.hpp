// The fixed-function side of a gen7 GS: reads a finished URB entry (the vertex count from the
// end-of-thread message, the control-data header, the vertex slots) and cuts the vertices
// into output strips, or into per-stream runs of points (README.md beside this file).
#pragma once

#include "middle_ends/intel_gen7/gs_compile.hpp"
#include "middle_ends/intel_gen7/urb_entry.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe::gen7 {

// `count` consecutive vertex slots from `first`, all of `stream`: one strip for line_strip
// and triangle_strip output, a run of points for points output.
struct OutputRun {
    uint32_t stream = 0;
    uint32_t first = 0;
    uint32_t count = 0;
};

// Appends the entry's output runs to `out`, in URB order. Strips end after a vertex whose cut
// bit is set and at the last vertex; strips too short for one primitive are dropped. Without
// a header a strip shader's vertices form one strip and points all go to stream 0.
// Throws Error(middle_end_failure) if the thread did not end or a DWORD the hardware would
// read was never written.
void read_output_runs(const GsProgram& program, const UrbEntry& entry, std::vector<OutputRun>& out);

// Copies vertex `n`'s VUE (vue.size() dwords) out of the entry. Throws
// Error(middle_end_failure) if any of them was not written by the thread.
void read_vertex(const GsProgram& program, const UrbEntry& entry, uint32_t n,
                 std::span<uint32_t> vue);

// The control bits of vertex `n` (its cut bit, or its 2-bit stream id) as the hardware reads
// them from the header. Throws like read_output_runs for an unwritten DWORD.
uint32_t vertex_control_bits(const GsProgram& program, const UrbEntry& entry, uint32_t n);

} // namespace drawpipe::gen7
