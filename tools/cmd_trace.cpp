// `drawpipe trace DRAW.txt`: the canonical trace of a draw description.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"
#include "drawpipe/stream_output.hpp"
#include "tools/commands.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/common/tess_library.hpp"
#include "tools/common/vs_library.hpp"
#include "tools/inputs.hpp"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace drawpipe::cli {

namespace {

struct TraceArgs {
    std::string file;
    SplitArgs split;
    bool segments = false;
    std::string gs;                      // overrides the description's `gs`
    bool stats = false;                  // middle-end counters to stderr
    bool statistics = false;             // the pipeline statistics, last line of the trace
    uint32_t repeat = 1;                 // draws of the same registered index buffer
    uint32_t threads = 0;                // 0: $DRAWPIPE_THREADS or every hardware thread
    std::optional<uint64_t> xfb_size;    // capture into one buffer of this many bytes
    std::optional<std::string> xfb_dump; // write that buffer's bytes here (given: even empty)
    uint32_t xfb_stream = 0;             // the geometry shader's vertex stream captured
};

// The CLI's capture: per vertex its vertex id and instance id (a geometry shader's output
// vertex: its id, and its layer when it writes one), then every component of each varying,
// as 32-bit words, interleaved in one buffer; the outputs tests/mesa/mesa_trace captures.
StreamOutputState cli_capture(const VertexLayout& layout, void* data, size_t size, uint32_t stream,
                              bool draw_ids) {
    StreamOutputState so;
    auto add = [&](CaptureSource src, uint32_t index, uint32_t components) {
        const uint32_t at =
            so.outputs.empty() ? 0 : so.outputs.back().offset + so.outputs.back().components;
        so.outputs.push_back({src, index, 0, components, 0, at, stream});
    };
    if (layout.gs_output) {
        add(CaptureSource::gs_id, 0, 1);
        if (layout.outputs.layer) add(CaptureSource::layer, 0, 1);
    } else if (layout.tess_output) {
        add(CaptureSource::vertex_id, 0, 1); // the patch
        add(CaptureSource::instance_id, 0, 1);
        add(CaptureSource::tess_coord, 0, 2);
    } else {
        add(CaptureSource::vertex_id, 0, 1);
        add(CaptureSource::instance_id, 0, 1);
        if (draw_ids) add(CaptureSource::draw_id, 0, 1); // a multi-draw's gl_DrawID
    }
    for (uint32_t i = 0; i < layout.varying_count(); ++i)
        add(CaptureSource::varying, i, layout.varying(i).components);
    const uint32_t dwords = so.outputs.back().offset + so.outputs.back().components;
    so.buffers[0] = {data, 0, size, 4 * dwords};
    return so;
}

// The trace of what the capture wrote: each captured vertex put back into a record of
// `layout` and printed as the trace backend prints it.
void print_captured(const StreamOutputState& so, const VertexLayout& layout, uint32_t n,
                    uint64_t written, bool draw_ids) {
    static constexpr const char* kNames[4] = {"", "point", "line", "tri"};
    const auto* bytes = static_cast<const unsigned char*>(so.buffers[0].data);
    const uint32_t stride = so.buffers[0].stride;
    std::vector<uint32_t> record(layout.stride());
    std::vector<uint32_t> words(stride / 4);
    std::string line;
    for (uint64_t p = 0; p < written; ++p) {
        line = kNames[n];
        for (uint32_t k = 0; k < n; ++k) {
            std::memcpy(words.data(), bytes + (p * n + k) * stride, stride);
            std::fill(record.begin(), record.end(), 0u);
            uint32_t w = 0;
            for (const CapturedOutput& o : so.outputs) {
                uint32_t slot = 0;
                switch (o.source) {
                case CaptureSource::vertex_id:
                    slot = SLOT_VERTEX_ID;
                    break;
                case CaptureSource::instance_id:
                    slot = SLOT_INSTANCE_ID;
                    break;
                case CaptureSource::gs_id:
                    slot = SLOT_GS_ID;
                    break;
                case CaptureSource::draw_id:
                    slot = SLOT_DRAW_ID;
                    break;
                case CaptureSource::layer:
                    slot = SLOT_GS_LAYER;
                    break;
                case CaptureSource::tess_coord:
                    slot = SLOT_GS_ID; // u, v
                    break;
                default:
                    slot = layout.varying_slot(o.index);
                    break;
                }
                for (uint32_t c = 0; c < o.components; ++c) record[slot + c] = words[w++];
            }
            line += ' ';
            line += trace_vertex(record.data(), layout, draw_ids);
        }
        line += '\n';
        std::fwrite(line.data(), 1, line.size(), stdout);
    }
}

const char* flags_name(uint8_t flags) {
    static const char* names[4] = {"-", "BEFORE", "AFTER", "BEFORE|AFTER"};
    return names[flags & 3];
}

// The segments exactly as the pipeline's source stage cuts them.
void print_segments(const DrawState& state, const MiddleEnd& middle, const DrawOptions& ro) {
    DrawSegments source(state, middle, ro);
    Segment seg;
    std::printf("# seq instance prim flags fetch draw prim_id_first\n");
    while (source.next(seg)) {
        std::printf("segment %llu instance %u %s %s fetch %u draw %u prim_id %u\n",
                    (unsigned long long)seg.sequence, seg.instance_first,
                    std::string(prim_name(seg.prim)).c_str(), flags_name(seg.flags),
                    seg.fetch_count, seg.draw_count, seg.prim_id_first);
        std::printf("  fetch");
        for (uint32_t i = 0; i < seg.fetch_count; ++i) std::printf(" %u", seg.vertex_id(i));
        std::printf("\n  draw ");
        for (uint32_t i = 0; i < seg.draw_count; ++i) std::printf(" %u", seg.draw_elt(i));
        std::printf("\n");
    }
    const FrontEndStats& s = source.stats();
    std::printf("# segments %llu, indices %llu, fetched %llu\n", (unsigned long long)s.segments,
                (unsigned long long)s.indices, (unsigned long long)s.fetched);
}

// Each of a multi-draw's or indirect draw's draws, one by one.
void print_all_segments(DrawState state, const MiddleEnd& middle, const DrawOptions& ro,
                        const BoundDraw& bound) {
    const std::vector<DrawInfo> draws = described_draws(bound);
    if (draws.size() != 1 || bound.multi.indirect_given || !bound.multi.draws.empty()) {
        for (const DrawInfo& d : draws) { // a multi-draw's or indirect draw's, one by one
            std::printf("# draw %u\n", d.draw_id);
            state.draw = d;
            print_segments(state, middle, ro);
        }
        return;
    }
    print_segments(state, middle, ro);
}

void print_stats(const MiddleEnd& middle, const DrawStats& s) {
    std::fprintf(stderr, "# %s: segments %llu, indices %llu, fetched %llu\n",
                 std::string(middle.name()).c_str(), (unsigned long long)s.front.segments,
                 (unsigned long long)s.front.indices, (unsigned long long)s.front.fetched);
    const auto names = middle.counters();
    for (size_t i = 0; i < names.size() && i < kMaxCounters; ++i)
        std::fprintf(stderr, "# %s %llu\n", std::string(names[i]).c_str(),
                     (unsigned long long)s.counters[i]);
    for (const DerivedFigure& f : middle.derived(s.counters))
        std::fprintf(stderr, "# %s %.4f\n", f.name.c_str(), f.value);
}

void print_statistics(const PipelineStatistics& s) {
    std::printf("# statistics ia_vertices %llu ia_primitives %llu vs_invocations %llu "
                "gs_invocations %llu gs_primitives %llu clip_invocations %llu "
                "clip_primitives %llu\n",
                (unsigned long long)s.ia_vertices, (unsigned long long)s.ia_primitives,
                (unsigned long long)s.vs_invocations, (unsigned long long)s.gs_invocations,
                (unsigned long long)s.gs_primitives, (unsigned long long)s.clip_invocations,
                (unsigned long long)s.clip_primitives);
}

// Vertices of each captured primitive: GL's transform-feedback mode for the draw.
uint32_t captured_vertices(Prim prim, const GeometryShader* gs, const TessEvalShader* tes) {
    if (gs) return gs_min_strip_vertices(gs->output);
    if (tes) prim = tess_output_prim(tes->state);
    return decomposed_vertices(prim);
}

} // namespace

// The first line of every trace: what its fields are.
constexpr const char* kTraceHeader =
    "# trace: one primitive per line (point, line, tri), each vertex as vertexid/instanceid then "
    "[its attributes or varyings] (a geometry shader's output vertex: its id, @layer; a "
    "tessellated vertex: p<patch>/<instance>(u,v,w)), in the order GL's transform feedback "
    "writes them";
// The header of a multi-draw's or indirect draw's trace (more than one sub-draw).
constexpr const char* kMultiTraceHeader =
    "# trace: one primitive per line (point, line, tri), each vertex as "
    "vertexid/instanceid/drawid then [its attributes or varyings] (a geometry shader's output "
    "vertex: its id, @layer; a tessellated vertex: p<patch>/<instance>(u,v,w)), in the order "
    "GL's transform feedback writes them";

// What a description may name: the registered middle ends and the library shaders.
std::string library_help() {
    std::string middles, gs, vs;
    for (const MiddleEndRegistry::Entry& e : MiddleEndRegistry::global().entries())
        middles += " " + e.name;
    for (const GeometryShader& g : gs_library()) gs += " " + std::string(g.name);
    for (const NamedVertexShader& v : vs_library()) vs += " " + std::string(v.name);
    return "Description keys: " + std::string(kDescriptionKeys) +
           " (docs/cli.md, \"Commands\").\n" + kMultiDrawKeysHelp + "\n" + kConventionKeysHelp +
           " (render draws them; trace prints vertices, which they do not change)" +
           "\nMiddle ends (--middle-end):" + middles + "\nGeometry shaders (--gs, key gs):" + gs +
           "\nVertex shaders (key vs):" + vs +
           "\nTessellation (prim patches): key tess binds the evaluation shader interpolate, key "
           "tcs the control shader levels_by_patch (docs/tessellation-stages.md)\n" +
           kExitCodeHelp;
}

void add_trace_command(CLI::App& app) {
    auto args = std::make_shared<TraceArgs>();
    CLI::App* cmd = app.add_subcommand("trace", "Print the canonical trace of a draw description");
    cmd->footer(library_help());
    cmd->add_option("draw", args->file, "Draw description file (.txt, '-' for stdin)")->required();
    add_split_options(*cmd, args->split);
    cmd->add_flag("--segments", args->segments,
                  "Print each segment with its flags and sizes instead");
    cmd->add_option("--gs", args->gs,
                    "Bind a library geometry shader (overrides the description's gs)");
    cmd->add_flag("--stats", args->stats,
                  "Print the front end's and middle end's counters to stderr");
    cmd->add_flag("--statistics", args->statistics,
                  "End the trace with the pipeline statistics as one line (of the last draw, "
                  "or with --xfb-size of the capture session's draws, as primitives_generated): "
                  "'# statistics ia_vertices N ia_primitives N vs_invocations N "
                  "gs_invocations N gs_primitives N clip_invocations N clip_primitives N' "
                  "(vs_invocations depends on --strategy and --max-vertices; the trace draws "
                  "without a raster state, so no clipper runs and clip_* are 0)");
    cmd->add_option("--repeat", args->repeat,
                    "Draw N times from a registered index buffer (later draws replay the cached "
                    "split; the trace printed is the last draw's; with --xfb-size the draws are "
                    "one capture session, every second one drawn paused)")
        ->check(CLI::Range(1u, 1000000u));
    add_threads_option(*cmd, args->threads);
    cmd->add_option("--xfb-size", args->xfb_size,
                    "Capture with stream output into one buffer of BYTES bytes (vertex id, "
                    "instance id, a multi-draw's draw id and attributes as 32-bit words) and "
                    "print what was written");
    add_output_option(*cmd, "--xfb-dump", args->xfb_dump,
                      "With --xfb-size: write the buffer's bytes to FILE");
    cmd->add_option("--xfb-stream", args->xfb_stream,
                    "With --xfb-size: capture this vertex stream of the geometry shader")
        ->check(CLI::Range(0u, 3u));
    cmd->callback([args] {
        // Every option first, then the input, before anything is read or printed.
        if (args->xfb_size && *args->xfb_size > (uint64_t(1) << 32))
            throw Error(ErrorCode::invalid_value,
                        "--xfb-size: " + std::to_string(*args->xfb_size) + " is above 4 GiB");
        if (args->xfb_dump && !args->xfb_size)
            throw Error(ErrorCode::invalid_value, "--xfb-dump: needs --xfb-size");
        if (args->xfb_dump) check_output_path(*args->xfb_dump, "--xfb-dump");
        check_input(args->file, "trace", true, false);
        DrawDesc desc = parse_draw_text(read_text_file(args->file, "draw description"));
        if (!args->gs.empty()) desc.gs = args->gs;
        const GeometryShader* gs = desc.gs.empty() ? nullptr : &find_gs(desc.gs);
        const auto bound = bind_draw(desc);
        const Strategy strategy = parse_strategy_option(args->split.strategy);
        const auto middle = MiddleEndRegistry::global().find(args->split.middle_end);
        const VertexShader* vs = desc.vs.empty() ? nullptr : &find_vs(desc.vs);
        DrawState state{bound->info, bound->input(), vs, gs};
        DescTess tess;
        tess.bind(desc, state);
        DrawOptions ro{strategy, args->split.max_vertices};
        if (args->segments) return print_all_segments(state, *middle, ro, *bound);
        // The draws and their limits are checked here, so that an error comes before the header.
        check_described_draws(*bound, state, *middle, ro);
        const bool draw_ids = desc.multi.draw_ids();
        TraceBackend trace;
        trace.print_draw_ids(draw_ids);
        // TBB caps its workers at the hardware's threads; the application may raise that cap.
        const uint32_t threads = args->threads ? args->threads : default_thread_count();
        const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
        ContextOptions co;
        co.threads = threads;
        co.draw = ro;
        Context ctx(co); // the same trace for every thread count
        ctx.bind_middle_end(middle);
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(bound->buffers);
        ctx.set_vertex_attribs(bound->attribs);
        if (vs) ctx.bind_vertex_shader(*vs);
        ctx.bind_geometry_shader(gs);
        if (state.tcs) ctx.bind_tess_control(*state.tcs);
        if (state.tes) ctx.bind_tess_eval(*state.tes);
        ctx.set_patch_default_levels(state.patch_default_levels);
        if (bound->info.index_type != IndexType::none) {
            bound->info.index_buffer_id = ctx.register_index_buffer();
            for (DrawInfo& d : bound->multi.draws) d.index_buffer_id = bound->info.index_buffer_id;
        }
        std::vector<unsigned char> xfb;
        StreamOutputState so;
        VertexLayout layout;
        if (args->xfb_size) {
            xfb.assign(size_t(*args->xfb_size), 0);
            layout = middle->prepare(state)->layout();
            so = cli_capture(layout, xfb.data(), xfb.size(), args->xfb_stream, draw_ids);
            ctx.set_stream_output(so);
            ctx.set_rasterizer_discard(true); // the capture is printed, not the backend's trace
        }
        DrawStats stats;
        StreamOutputCounts captured;
        // With a capture, the repeats are one session: each captured draw appends after the
        // last, and every second draw runs paused (generated, not written), as GL's queries
        // spanning the session count them.
        std::printf("%s\n", draw_ids ? kMultiTraceHeader : kTraceHeader);
        if (args->xfb_size) ctx.begin_stream_output();
        for (uint32_t r = 0; r < args->repeat; ++r) {
            trace.clear();
            if (r + 1 == args->repeat && !args->xfb_size)
                trace.stream_to(stdout); // only the last draw prints
            const bool paused = args->xfb_size && r % 2 == 1;
            if (paused) ctx.pause_stream_output();
            submit_draw(ctx, *bound);
            if (args->xfb_size)
                stats += ctx.flush();
            else
                stats = ctx.flush();
            if (paused) ctx.resume_stream_output();
        }
        if (args->xfb_size) captured = ctx.end_stream_output();
        std::fflush(stdout);
        if (args->xfb_size) {
            print_captured(so, layout, captured_vertices(bound->info.prim, gs, state.tes),
                           captured.written[args->xfb_stream], draw_ids);
            if (args->xfb_dump) {
                write_output_file(*args->xfb_dump, "--xfb-dump",
                                  {reinterpret_cast<const char*>(xfb.data()), xfb.size()});
            }
        }
        // GL_PRIMITIVES_GENERATED of stream 0, as OpenGL's query reports it.
        std::printf("# primitives_generated %llu\n",
                    (unsigned long long)stats.primitives.generated[0]);
        const uint32_t st = args->xfb_stream;
        if (st > 0)
            std::printf("# stream %u primitives_generated %llu\n", st,
                        (unsigned long long)stats.primitives.generated[st]);
        if (args->xfb_size)
            std::printf("# primitives_written %llu\n", (unsigned long long)captured.written[st]);
        if (args->statistics) print_statistics(stats.statistics);
        if (args->stats) {
            print_stats(*middle, stats);
            const SplitCacheStats c = ctx.split_cache().stats();
            std::fprintf(stderr,
                         "# split cache: hits %llu, misses %llu, evictions %llu, uncacheable %llu, "
                         "bytes %zu in %zu entries\n",
                         (unsigned long long)c.hits, (unsigned long long)c.misses,
                         (unsigned long long)c.evictions, (unsigned long long)c.uncacheable,
                         c.bytes, c.entries);
        }
    });
}

} // namespace drawpipe::cli
