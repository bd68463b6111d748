// `drawpipe demo`: a procedurally generated grid mesh drawn with every primitive type
// through the whole draw path, with a table of what the front end and backend saw, and a
// picture (demo.png) of a generated torus through the whole pipeline, each segment in its own
// colour.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "tools/commands.hpp"
#include "tools/common/files.hpp"
#include "tools/legend.hpp"
#include "tools/render_mesh.hpp"

#include <oneapi/tbb/global_control.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace drawpipe::cli {

namespace {

constexpr uint32_t kRestart = 0xFFFFFFFFu;
// The picture's torus: 49,152 vertices, so that the default limit of 4096 splits it into a
// dozen segments, bands across the tube following the index order ring after ring.
constexpr uint32_t kTorusRings = 384, kTorusSides = 128;

struct DemoArgs {
    uint32_t size = 128;
    SplitArgs split;
    std::optional<std::string> png; // given: even empty, which is an error
    bool no_png = false;
    uint32_t threads = 0; // 0: $DRAWPIPE_THREADS or every hardware thread
};

// Index list for `prim` over a size x size vertex grid: lists walk the cells' triangles,
// strips walk rows (restart between rows), fans and loops walk each cell's ring.
std::vector<uint32_t> grid_indices(Prim prim, uint32_t size) {
    std::vector<uint32_t> out;
    auto v = [size](uint32_t x, uint32_t y) { return y * size + x; };
    const PrimShape shape = prim_shape(prim);
    if (shape.first == shape.incr) { // lists
        for (uint32_t y = 0; y + 1 < size; ++y)
            for (uint32_t x = 0; x + 1 < size; ++x)
                for (uint32_t i :
                     {v(x, y), v(x + 1, y), v(x, y + 1), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)})
                    out.push_back(i);
    } else if (prim == Prim::triangle_fan || prim == Prim::polygon || prim == Prim::line_loop) {
        for (uint32_t y = 0; y + 1 < size; ++y)
            for (uint32_t x = 0; x + 1 < size; ++x) {
                for (uint32_t i : {v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)})
                    out.push_back(i);
                out.push_back(kRestart);
            }
    } else { // strips: one per row pair
        for (uint32_t y = 0; y + 1 < size; ++y) {
            for (uint32_t x = 0; x < size; ++x) {
                out.push_back(v(x, y));
                out.push_back(v(x, y + 1));
            }
            out.push_back(kRestart);
        }
    }
    return out;
}

} // namespace

void add_demo_command(CLI::App& app) {
    auto args = std::make_shared<DemoArgs>();
    CLI::App* cmd =
        app.add_subcommand("demo", "Draw a generated grid with every primitive type and report; "
                                   "picture a generated torus, each segment in its own colour "
                                   "(demo.png)");
    cmd->add_option("--size", args->size, "Grid vertices per side")->check(CLI::Range(2u, 2048u));
    add_split_options(*cmd, args->split, MiddleEndOption::chosen,
                      " (demo: a primitive type that needs more is skipped)");
    add_threads_option(*cmd, args->threads);
    add_output_option(*cmd, "--png", args->png,
                      "Where the picture goes, FILE ending in .png: a generated torus, lit, each "
                      "segment in its own colour, with a caption (default demo.png)");
    cmd->add_flag("--no-png", args->no_png, "Write no picture");
    cmd->callback([args] {
        if (args->no_png && args->png)
            throw Error(ErrorCode::invalid_value, "--png: given with --no-png");
        const std::string png = args->no_png ? "" : args->png.value_or("demo.png");
        if (!args->no_png) check_output_path(png, "--png", ".png");
        const Strategy strategy = parse_strategy_option(args->split.strategy);
        const uint32_t n = args->size;
        // One float4 position per grid vertex.
        std::vector<float> positions;
        for (uint32_t y = 0; y < n; ++y)
            for (uint32_t x = 0; x < n; ++x)
                for (float c : {2.0f * float(x) / float(n - 1) - 1.0f,
                                2.0f * float(y) / float(n - 1) - 1.0f, 0.0f, 1.0f})
                    positions.push_back(c);
        const VertexBuffer vb{positions.data(), positions.size() * sizeof(float), 16, 0};
        const VertexAttrib attribs[1] = {{0, 0, Format::float32x4, 0}};

        // TBB caps its workers at the hardware's threads; the application may raise that cap.
        const uint32_t threads = args->threads ? args->threads : default_thread_count();
        const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
        ContextOptions co;
        co.threads = threads;
        co.draw = {strategy, args->split.max_vertices};
        Context ctx(co);
        ctx.bind_middle_end(args->split.middle_end);
        ctx.set_vertex_buffers({&vb, 1});
        ctx.set_vertex_attribs(attribs);
        // A forced limit above the middle end's is an error naming both numbers, before the
        // table starts (one below a primitive type's minimum skips that type below).
        if (args->split.max_vertices != 0) {
            DrawInfo one;
            one.prim = Prim::points;
            one.count = 1;
            check_draw({one, {{&vb, 1}, attribs}, nullptr, nullptr},
                       *MiddleEndRegistry::global().find(args->split.middle_end),
                       {strategy, args->split.max_vertices});
        }
        std::printf("drawpipe demo: %ux%u grid, middle end %s, strategy %s, %u threads\n", n, n,
                    args->split.middle_end.c_str(), strategy.name().c_str(), ctx.threads());
        std::printf("%-26s %10s %9s %14s %8s %8s %10s\n", "primitive", "indices", "segments",
                    "fetched/index", "points", "lines", "triangles");
        for (int p = 0; p < int(Prim::patches); ++p) { // patches need tessellation shaders
            const Prim prim = Prim(p);
            // A forced limit too small for this primitive type skips it, with the reason.
            if (args->split.max_vertices != 0 &&
                args->split.max_vertices < min_segment_vertices(prim)) {
                std::printf("%-26s skipped: a segment needs at least %u vertices\n",
                            std::string(prim_name(prim)).c_str(), min_segment_vertices(prim));
                continue;
            }
            const std::vector<uint32_t> indices = grid_indices(prim, n);
            DrawInfo draw;
            draw.prim = prim;
            draw.index_type = IndexType::u32;
            draw.indices = indices.data();
            draw.index_buffer_count = uint32_t(indices.size());
            draw.count = uint32_t(indices.size());
            draw.primitive_restart = true;
            draw.restart_index = kRestart;
            CountingBackend counting;
            ctx.bind_backend(counting);
            ctx.draw(draw);
            const DrawStats stats = ctx.flush();
            const auto& t = counting.totals();
            std::printf(
                "%-26s %10llu %9llu %14.4f %8llu %8llu %10llu\n",
                std::string(prim_name(prim)).c_str(), (unsigned long long)stats.front.indices,
                (unsigned long long)stats.front.segments,
                stats.front.indices ? double(stats.front.fetched) / double(stats.front.indices)
                                    : 0.0,
                (unsigned long long)t.points, (unsigned long long)t.lines,
                (unsigned long long)t.triangles);
        }
        if (png.empty()) return;
        // The picture: a generated torus through the whole pipeline with the same middle end,
        // strategy, limit and threads, lit, each segment in its own colour.
        if (args->split.max_vertices != 0 &&
            args->split.max_vertices < min_segment_vertices(Prim::triangles)) {
            std::printf("no picture: the torus's triangles need at least %u vertices per segment "
                        "(--max-vertices %u)\n",
                        min_segment_vertices(Prim::triangles), args->split.max_vertices);
            return;
        }
        const workloads::Workload torus = torus_mesh(kTorusRings, kTorusSides);
        MeshView view;
        view.elevation = 35;
        view.colours = MeshColours::segment;
        view.middle_end = args->split.middle_end;
        view.options = {strategy, args->split.max_vertices};
        view.threads = threads;
        const MeshPicture picture = render_mesh(torus, view);
        // The caption says what the picture is, so that it explains itself wherever it goes.
        const std::string segments =
            std::to_string(picture.colours) + (picture.colours == 1 ? " segment" : " segments");
        Legend caption;
        caption.caption = true;
        caption.lines = {"drawpipe demo: " + segments + " (" + args->split.middle_end + ", " +
                         strategy.name() + ") of a torus, a colour each"};
        write_png_with_legend(picture.image, caption, png, "--png");
        std::printf("wrote %s: a generated torus (%u triangles) through the whole pipeline, "
                    "%ux%u, lit, each of its %s in its own colour\n",
                    png.c_str(), torus.count / 3, view.width, view.height, segments.c_str());
    });
}

} // namespace drawpipe::cli
