// `drawpipe gen7-header --gs NAME DRAW.txt`: runs a draw through the Intel gen7 GS model and
// prints, per input primitive (and invocation), the control-data header DWORDs its thread
// left in the URB entry and every URB write it issued.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/gs.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "tools/commands.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/inputs.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace drawpipe::cli {

namespace {

struct Gen7Args {
    std::string file;
    std::string gs;
    SplitArgs split; // its middle_end unused: the middle end is gen7's
    bool no_stream_output = false;
};

void print_program(const std::string& name, const gen7::GsProgram& p) {
    const bool cut = p.format == gen7::ControlDataFormat::cut;
    std::printf("# gs %s: %s, %u bit(s) per vertex, header %u bits = %u hword(s)%s%s%s\n",
                name.c_str(), cut ? "GSCTL_CUT" : "GSCTL_SID", p.bits_per_vertex, p.header_bits,
                p.header_hwords, p.batched() ? ", batched" : "",
                p.channel_masks() ? ", channel masks" : "",
                p.slot_offsets() ? ", per-slot offsets" : "");
    std::printf("# vertex %u hword(s), URB entry %u bytes (size field %u), max_vertices %u\n",
                p.vertex_hwords, p.urb_entry_bytes, p.urb_entry_size, p.desc.max_vertices);
}

void print_legend() {
    std::printf(
        "# legend: one GS thread per line \"instance I primitive P invocation N: vertices V "
        "header D...\": V vertices emitted, then\n"
        "#   the control-data header DWORDs as the fixed function reads them (-------- never "
        "written). Then each URB write, in order:\n"
        "#   \"vertex count C global G slot S bytes O+B\": a vertex sent while vertex_count was "
        "C, at global offset G and slot offset S\n"
        "#   (hwords), changing B bytes from byte O of the entry; \"header count C dword D mask "
        "M3M2M1M0 [slot S] bytes O+B data X\":\n"
        "#   control data DWORD X written to header DWORD D under a channel mask (or unmasked), "
        "at per-slot offset S (owords).\n");
}

void print_thread(const gen7::ThreadReport& r) {
    const gen7::UrbEntry& e = *r.entry;
    std::printf("instance %u primitive %u invocation %u: vertices %u header", r.instance,
                r.primitive_id, r.invocation, e.vertex_count());
    if (r.program->header_dwords() == 0) std::printf(" none");
    for (uint32_t i = 0; i < r.program->header_dwords(); ++i) {
        if (e.written(i))
            std::printf(" %08x", e.dword(i));
        else
            std::printf(" --------"); // never written: the hardware does not read it
    }
    std::printf("\n");
    for (const gen7::UrbWrite& w : e.writes()) {
        if (w.kind == gen7::UrbWriteKind::header) {
            std::printf("  header count %u", w.vertex_count);
            if (w.channel_masked)
                std::printf(" dword %u mask %u%u%u%u", w.dword_index, (w.channel_mask >> 3) & 1,
                            (w.channel_mask >> 2) & 1, (w.channel_mask >> 1) & 1,
                            w.channel_mask & 1);
            else
                std::printf(" unmasked");
            if (w.per_slot_offset) std::printf(" slot %u", w.slot_offset);
            std::printf(" bytes %u+%u data %08x\n", w.byte_offset, w.byte_count, w.data);
        } else {
            std::printf("  vertex count %u global %u slot %u bytes %u+%u\n", w.vertex_count,
                        w.global_offset, w.slot_offset, w.byte_offset, w.byte_count);
        }
    }
}

} // namespace

void add_gen7_command(CLI::App& app) {
    auto args = std::make_shared<Gen7Args>();
    CLI::App* cmd = app.add_subcommand(
        "gen7-header", "Show the gen7 GS control-data header and URB writes per input primitive");
    cmd->add_option("draw", args->file, "Draw description file (.txt, '-' for stdin)")->required();
    cmd->add_option("--gs", args->gs, "Library geometry shader (overrides the description's gs)");
    add_split_options(*cmd, args->split, MiddleEndOption::fixed);
    cmd->add_flag("--no-stream-output", args->no_stream_output,
                  "Compile without transform feedback: drop vertices of streams > 0");
    cmd->callback([args] {
        check_input(args->file, "gen7-header", true, false);
        DrawDesc desc = parse_draw_text(read_text_file(args->file, "draw description"));
        if (!args->gs.empty()) desc.gs = args->gs;
        if (desc.gs.empty())
            throw Error(ErrorCode::invalid_value, "--gs: gen7-header needs a geometry shader");
        const GeometryShader& gs = find_gs(desc.gs);
        const Strategy strategy = parse_strategy_option(args->split.strategy);
        const auto bound = bind_draw(desc);
        bool printed_program = false;
        auto show_thread = [&](const gen7::ThreadReport& r) {
            if (!printed_program) print_legend(), print_program(gs.name, *r.program);
            printed_program = true;
            print_thread(r);
        };
        const gen7::Gen7MiddleEnd middle(4096, !args->no_stream_output, show_thread);
        CountingBackend sink;
        const DrawState state{bound->info, bound->input(), nullptr, &gs};
        const DrawStats stats =
            draw_serial(state, middle, sink, {strategy, args->split.max_vertices});
        const auto names = middle.counters();
        for (size_t i = 0; i < names.size(); ++i)
            std::printf("# %s %llu\n", std::string(names[i]).c_str(),
                        (unsigned long long)stats.counters[i]);
    });
}

} // namespace drawpipe::cli
