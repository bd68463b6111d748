// `drawpipe trace DRAW.txt`: the canonical trace of a draw description.
#include "draw/internal/prepared_draw.hpp"
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"
#include "tools/commands.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/common/vs_library.hpp"

#include <oneapi/tbb/global_control.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace drawpipe::cli {

namespace {

struct TraceArgs {
    std::string file;
    std::string middle_end = "fetch_shade";
    std::string strategy = "distinct";
    uint32_t max_vertices = 0;
    bool segments = false;
    std::string gs;       // overrides the description's `gs`
    bool stats = false;   // middle-end counters to stderr
    uint32_t repeat = 1;  // draws of the same registered index buffer
    uint32_t threads = 0; // 0: $DRAWPIPE_THREADS or every hardware thread
};

std::string read_file(const std::string& path) {
    if (path == "-") {
        std::ostringstream s;
        s << std::cin.rdbuf();
        return s.str();
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::not_found, "cannot open draw description '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const char* flags_name(uint8_t flags) {
    static const char* names[4] = {"-", "BEFORE", "AFTER", "BEFORE|AFTER"};
    return names[flags & 3];
}

// The segments exactly as the pipeline's source stage cuts them.
void print_segments(const DrawState& state, const MiddleEnd& middle, const DrawOptions& ro) {
    const PreparedDraw draw = prepare_draw(state, middle, ro);
    SegmentSource source;
    source.begin(draw);
    SegmentStorage storage;
    Segment seg;
    std::printf("# seq instance prim flags fetch draw prim_id_first\n");
    while (source.next(storage, seg)) {
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

} // namespace

void add_trace_command(CLI::App& app) {
    auto args = std::make_shared<TraceArgs>();
    CLI::App* cmd = app.add_subcommand("trace", "Print the canonical trace of a draw description");
    cmd->add_option("draw", args->file, "Draw description file ('-' for stdin)")->required();
    cmd->add_option("--middle-end", args->middle_end, "Middle end by registered name");
    cmd->add_option("--max-vertices", args->max_vertices,
                    "Force the middle end's vertices-per-segment limit");
    cmd->add_option("--strategy", args->strategy, kStrategyHelp);
    cmd->add_flag("--segments", args->segments,
                  "Print each segment with its flags and sizes instead");
    cmd->add_option("--gs", args->gs,
                    "Bind a library geometry shader (overrides the description's gs)");
    cmd->add_flag("--stats", args->stats,
                  "Print the front end's and middle end's counters to stderr");
    cmd->add_option("--repeat", args->repeat,
                    "Draw N times from a registered index buffer (later draws replay the cached "
                    "split; the trace printed is the last draw's)")
        ->check(CLI::Range(1u, 1000000u));
    cmd->add_option("--threads", args->threads,
                    "Pipeline threads (default: $DRAWPIPE_THREADS or every hardware thread)")
        ->check(CLI::Range(1u, 1024u));
    cmd->callback([args] {
        DrawDesc desc = parse_draw_text(read_file(args->file));
        if (!args->gs.empty()) desc.gs = args->gs;
        const GeometryShader* gs = desc.gs.empty() ? nullptr : &find_gs(desc.gs);
        const auto bound = bind_draw(desc);
        const Strategy strategy = parse_strategy_option(args->strategy);
        const auto middle = MiddleEndRegistry::global().find(args->middle_end);
        const VertexShader* vs = desc.vs.empty() ? nullptr : &find_vs(desc.vs);
        const DrawState state{bound->info, bound->input(), vs, gs};
        DrawOptions ro{strategy, args->max_vertices};
        if (args->segments) return print_segments(state, *middle, ro);
        TraceBackend trace;
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
        if (bound->info.index_type != IndexType::none)
            bound->info.index_buffer_id = ctx.register_index_buffer();
        DrawStats stats;
        for (uint32_t r = 0; r < args->repeat; ++r) {
            trace.clear();
            if (r + 1 == args->repeat) trace.stream_to(stdout); // only the last draw prints
            ctx.draw(bound->info);
            stats = ctx.flush();
        }
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
