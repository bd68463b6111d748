// `drawpipe trace DRAW.txt`: the canonical trace of a draw description.
#include "backends/trace.hpp"
#include "draw/context.hpp"
#include "draw/draw_text.hpp"
#include "draw/error.hpp"
#include "draw/gs_library.hpp"
#include "draw/registry.hpp"
#include "draw/run.hpp"
#include "draw/split_cache.hpp"
#include "draw/validate.hpp"
#include "tools/commands.hpp"

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

void print_segments(const DrawState& state, MiddleEnd& middle, const RunOptions& ro) {
    const MiddleEndLimits limits = middle.prepare(state);
    const FrontEndOptions fo = front_end_options(limits, ro);
    validate_draw(*state.draw); // FrontEnd::begin checks nothing
    check_split(*state.draw, fo);
    check_indices(*state.draw, std::nullopt);
    FrontEnd front;
    front.begin(*state.draw, fo);
    SegmentStorage storage;
    Segment seg;
    std::printf("# seq instance prim flags fetch draw prim_id_first\n");
    while (front.next(storage, seg)) {
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
    const FrontEndStats& s = front.stats();
    std::printf("# segments %llu, indices %llu, fetched %llu\n", (unsigned long long)s.segments,
                (unsigned long long)s.indices, (unsigned long long)s.fetched);
}

void print_stats(const MiddleEnd& middle, const DrawStats& s) {
    std::fprintf(stderr, "# %s: segments %llu, indices %llu, fetched %llu\n",
                 std::string(middle.name()).c_str(), (unsigned long long)s.front.segments,
                 (unsigned long long)s.front.indices, (unsigned long long)s.front.fetched);
    const auto names = middle.counter_names();
    uint64_t threads = 0, wasted = 0;
    for (size_t i = 0; i < names.size() && i < kMaxCounters; ++i) {
        std::fprintf(stderr, "# %s %llu\n", std::string(names[i]).c_str(),
                     (unsigned long long)s.counters[i]);
        if (names[i] == "threads") threads = s.counters[i];
        if (names[i] == "wasted_threads") wasted = s.counters[i];
    }
    // A middle end that dispatches padded threads (mali): the share padding wasted.
    if (threads) std::fprintf(stderr, "# waste_ratio %.4f\n", double(wasted) / double(threads));
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
        auto middle = MiddleEndRegistry::global().create(args->middle_end);
        DrawState state{&bound->info, bound->input(), nullptr, gs};
        RunOptions ro{strategy, args->max_vertices};
        if (args->segments) return print_segments(state, *middle, ro);
        TraceBackend trace;
        // TBB caps its workers at the hardware's threads; the application may raise that cap.
        const uint32_t threads = args->threads ? args->threads : default_thread_count();
        const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
        ContextOptions co;
        co.threads = threads;
        co.run = ro;
        Context ctx(co); // the same trace for every thread count
        ctx.bind_middle_end(args->middle_end);
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(bound->buffers);
        ctx.set_vertex_attribs(bound->attribs);
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
            middle->prepare(state); // counter names may depend on the draw state
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
