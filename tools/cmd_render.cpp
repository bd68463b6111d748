// `drawpipe render DRAW.txt [--png FILE] [--pixels] [--width W] [--height H]`: draws a
// description through the whole pipeline (clip, viewport, the stages its state needs) into
// the raster backend, so the picture can be looked at and compared pixel by pixel with
// OpenGL (tests/mesa).
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/registry.hpp"
#include "tools/commands.hpp"
#include "tools/common/colour_stages.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/inputs.hpp"
#include "tools/legend.hpp"
#include "tools/progress.hpp"
#include "tools/render_desc.hpp"
#include "tools/render_mesh.hpp"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace drawpipe::cli {

namespace {

struct RenderArgs {
    std::string file;
    SplitArgs split;
    std::string gs;
    uint32_t threads = 0;
    std::optional<std::string> png; // given: even empty, which is an error
    bool pixels = false;
    uint32_t width = 0, height = 0; // 0: 64 x 64 for a description, 1024 x 768 for a mesh
    std::string color_by;           // a mesh's (empty: shading)
    bool flat = false;              // a mesh's key colours unlit
    std::vector<float> camera;      // azimuth, elevation (degrees), distance (0: framing)
    uint32_t instances = 0;         // a mesh's copies (0: not given, one)
    bool no_progress = false;
};

// `--color-by` values, in the order the help and the errors list them.
constexpr std::pair<const char*, MeshColours> kColourModes[] = {
    {"shading", MeshColours::shading},
    {"segment", MeshColours::segment},
    {"instance", MeshColours::instance},
    {"middle-end-thread", MeshColours::middle_end_thread}};

MeshColours parse_colours(const std::string& name) {
    std::string known;
    for (const auto& [n, c] : kColourModes) {
        if (name == n) return c;
        known += known.empty() ? n : std::string(", ") + n;
    }
    throw Error(ErrorCode::invalid_value, "--color-by: '" + name + "' is not one of " + known);
}

// The smallest picture a --color-by legend is drawn into.
constexpr uint32_t kLegendMinWidth = 320, kLegendMinHeight = 240;

// "1 segment", "12 segments".
std::string count_of(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What the picture's colours mean, for the line saying where it went.
std::string colour_summary(MeshColours c, size_t keys) {
    switch (c) {
    case MeshColours::shading:
        break;
    case MeshColours::segment:
        return "each segment in its own colour: " + count_of(keys, "segment", "segments");
    case MeshColours::instance:
        return "each instance in its own colour: " + count_of(keys, "instance", "instances");
    case MeshColours::middle_end_thread:
        return "each middle-end thread in its own colour: " + count_of(keys, "thread", "threads") +
               " shaded segments";
    }
    return "lit";
}

// The key drawn into a --color-by picture: what a colour means, how many there are, and a
// swatch per key (the first 24; the rest counted).
Legend colour_legend(MeshColours c, const MeshPicture& p, const MeshView& view,
                     const std::string& input) {
    Legend l;
    const size_t n = p.keys.size();
    const std::string split =
        "strategy " + view.options.strategy.name() + ", " +
        (view.options.max_vertices ? "limit " + std::to_string(view.options.max_vertices)
                                   : std::string("the middle end's limit")) +
        ", " + view.middle_end;
    switch (c) {
    case MeshColours::shading:
        return l;
    case MeshColours::segment:
        // Neighbouring triangles far apart in the index buffer land in different segments:
        // without this line a newcomer takes the speckle for depth fighting.
        l.lines = {"Colour: the segment of the split, in index-buffer order (" + input + ")",
                   count_of(n, "segment", "segments") + "; " + split};
        break;
    case MeshColours::instance:
        l.lines = {"Colour: the instance that drew the triangle (" + input + ")",
                   count_of(n, "instance", "instances") + ", side by side along x"};
        break;
    case MeshColours::middle_end_thread:
        l.lines = {"Colour: the thread whose middle end shaded the segment (" + input + ")",
                   std::to_string(n) + " of the context's " +
                       count_of(view.threads, "thread", "threads") + " shaded segments; " + split};
        break;
    }
    const char* what = c == MeshColours::segment    ? "segment "
                       : c == MeshColours::instance ? "instance "
                                                    : "thread ";
    size_t shown = 0;
    for (const uint32_t k : p.keys) {
        if (shown++ == 24) break;
        l.swatch_colours.push_back(key_colour(k));
        l.swatch_labels.push_back((shown == 1 ? std::string(what) : std::string()) +
                                  std::to_string(k));
    }
    if (n > 24) l.more = "and " + std::to_string(n - 24) + " more";
    return l;
}

// Prints every lit pixel as `X Y RRGGBBAA`, Y = 0 at the bottom.
void print_pixels(const RasterBackend& image) {
    for (uint32_t y = 0; y < image.height(); ++y)
        for (uint32_t x = 0; x < image.width(); ++x)
            if (const uint32_t p = image.pixel(x, y); p != 0)
                std::printf("%u %u %02X%02X%02X%02X\n", x, y, p & 0xFF, (p >> 8) & 0xFF,
                            (p >> 16) & 0xFF, p >> 24);
}

// Every option, and the input's kind, checked before anything is read or drawn; the output
// path too. Returns the PNG to write ("" with --pixels alone).
std::string check_render_args(const RenderArgs& a, InputKind kind) {
    const bool mesh = kind != InputKind::description;
    if (mesh) {
        if (!a.gs.empty())
            throw Error(ErrorCode::invalid_value,
                        "--gs: for a draw description (a mesh is drawn without a geometry shader)");
        const MeshColours colours = parse_colours(a.color_by.empty() ? "shading" : a.color_by);
        if (a.flat && colours == MeshColours::shading)
            throw Error(ErrorCode::invalid_value,
                        "--flat: for --color-by segment, instance or middle-end-thread");
        if (a.camera.size() != 0 && a.camera.size() != 3)
            throw Error(ErrorCode::invalid_value, "--camera: expects AZIMUTH ELEVATION DISTANCE");
        static constexpr const char* kCameraNames[3] = {"AZIMUTH", "ELEVATION", "DISTANCE"};
        for (size_t i = 0; i < a.camera.size(); ++i)
            if (!std::isfinite(a.camera[i]))
                throw Error(ErrorCode::invalid_value, std::string("--camera: ") + kCameraNames[i] +
                                                          " " + std::to_string(a.camera[i]) +
                                                          " is not a finite number");
        if (a.camera.size() == 3 && !(a.camera[2] >= 0))
            throw Error(ErrorCode::invalid_value, "--camera: DISTANCE " +
                                                      std::to_string(a.camera[2]) +
                                                      " is negative (0 frames the mesh)");
    } else {
        // A mesh's options given with a description would be ignored: say so instead.
        if (a.instances)
            throw Error(ErrorCode::invalid_value,
                        "--instances: for a mesh file (a draw description sets 'instances')");
        if (!a.color_by.empty())
            throw Error(ErrorCode::invalid_value,
                        "--color-by: for a mesh file (a draw description's colours are its "
                        "'colors' key)");
        if (!a.camera.empty())
            throw Error(ErrorCode::invalid_value,
                        "--camera: for a mesh file (a draw description's positions are already "
                        "in clip space)");
        if (a.flat)
            throw Error(ErrorCode::invalid_value, "--flat: for a mesh file with --color-by");
        if (!a.gs.empty()) find_gs(a.gs);
    }
    parse_strategy_option(a.split.strategy);
    MiddleEndRegistry::global().find(a.split.middle_end);
    // A picture, not silence: render.png unless --pixels alone was asked for.
    const std::string png = a.png ? *a.png : a.pixels ? "" : "render.png";
    if (a.png || !png.empty()) check_output_path(png, "--png", ".png");
    return png;
}

// A mesh file, workload or generated mesh: lit, or coloured by what the pipeline did
// (--color-by), from a camera framing it, into a PNG with a legend saying what the colours
// mean.
void render_mesh_input(const RenderArgs& a, const std::string& png) {
    MeshView view;
    view.colours = parse_colours(a.color_by.empty() ? "shading" : a.color_by);
    view.flat = a.flat;
    if (a.width) view.width = a.width;
    if (a.height) view.height = a.height;
    if (a.camera.size() == 3)
        view.azimuth = a.camera[0], view.elevation = a.camera[1], view.distance = a.camera[2];
    view.instances = a.instances ? a.instances : 1;
    view.middle_end = a.split.middle_end;
    view.options = {parse_strategy_option(a.split.strategy), a.split.max_vertices};
    view.threads = a.threads ? a.threads : default_thread_count();
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, view.threads);
    Progress progress(!a.no_progress);
    view.progress = progress.shown() ? &progress : nullptr;
    // A legend needs room to be read and to leave the mesh room: pictures smaller than
    // kLegendMin get none (the line on stderr still says what the colours are).
    const bool keyed = view.colours != MeshColours::shading && !png.empty() &&
                       view.width >= kLegendMinWidth && view.height >= kLegendMinHeight;
    if (keyed) view.top_reserved = legend_reserve(view.width, 2);
    const workloads::Workload mesh = load_with_progress(a.file, progress);
    const MeshPicture picture = render_mesh(mesh, view);
    if (a.pixels) print_pixels(picture.image);
    if (!png.empty()) {
        progress.phase("writing " + png);
        write_png_with_legend(
            picture.image, keyed ? colour_legend(view.colours, picture, view, mesh.id) : Legend{},
            png, "--png");
        progress.done();
        std::fprintf(stderr, "drawpipe render: wrote %s (%ux%u, %s)\n", png.c_str(),
                     picture.image.width(), picture.image.height(),
                     colour_summary(view.colours, picture.colours).c_str());
    }
}

void render(const RenderArgs& a) {
    const InputKind kind = input_kind(a.file, "draw description");
    const std::string png = check_render_args(a, kind);
    if (kind != InputKind::description) return render_mesh_input(a, png);
    DescRender how;
    how.width = a.width ? a.width : 64;
    how.height = a.height ? a.height : 64;
    how.middle_end = a.split.middle_end;
    how.max_vertices = a.split.max_vertices;
    how.threads = a.threads ? a.threads : default_thread_count();
    DrawDesc desc = parse_draw_text(read_text_file(a.file, "draw description"));
    if (!a.gs.empty()) desc.gs = a.gs;
    how.gs = desc.gs.empty() ? nullptr : &find_gs(desc.gs);
    how.strategy = parse_strategy_option(a.split.strategy);
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, how.threads);
    Progress progress(!a.no_progress);
    if (progress.shown()) {
        how.middle = std::make_shared<ProgressMiddleEnd>(
            MiddleEndRegistry::global().find(a.split.middle_end), progress);
        progress.phase("drawing " + a.file,
                       uint64_t(desc.count) * std::max<uint32_t>(desc.instances, 1));
    }
    const RasterBackend image = render_description(desc, how);
    progress.done();
    if (a.pixels) print_pixels(image);
    if (!png.empty()) {
        progress.phase("writing " + png);
        write_png_with_legend(image, {}, png, "--png");
        progress.done();
        std::fprintf(stderr, "drawpipe render: wrote %s (%ux%u)\n", png.c_str(), how.width,
                     how.height);
    }
}

} // namespace

void add_render_command(CLI::App& app) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand(
        "render", "Render a draw description, a mesh file assimp reads (.obj, .ply, .3ds, ...), "
                  "a workload (W1..W7) or a generated mesh (sphere:N) through clipping, the "
                  "stages and the raster backend");
    cmd->footer("Description keys: " + std::string(kDescriptionKeys) + "\n" + kMultiDrawKeysHelp +
                "\n" + kConventionKeysHelp +
                "\nTwo-sided colour: 'two_side 1' gives back-facing triangles (in every polygon "
                "mode, after culling) the colours of 'back_colors R G B A ...', one per vertex "
                "like 'colors' (opaque white by default); lines and points keep 'colors'. With "
                "--gs the colours are the shader's varying 0 (front) and 1 (back), as "
                "color_pair_tri writes them.\n" +
                "Tessellation (prim patches): key tess binds the evaluation shader interpolate "
                "(position and colour interpolated over the control points), tcs the control "
                "shader levels_by_patch (docs/tessellation-stages.md)\n" +
                kExitCodeHelp);
    cmd->add_option("input", args->file,
                    "Draw description (.txt, '-' for stdin), mesh file, workload (W1..W7) or "
                    "generated mesh (sphere:N, sphere:N:random)")
        ->required();
    add_output_option(*cmd, "--png", args->png,
                      "Write the image as PNG, FILE ending in .png (default render.png unless "
                      "--pixels is given); --color-by pictures get a legend");
    cmd->add_flag("--pixels", args->pixels,
                  "Print every pixel that is not the clear colour as X Y RRGGBBAA (Y = 0 at the "
                  "bottom), by rows then columns");
    cmd->add_option("--width", args->width, "Image width (default 64; a mesh: 1024)")
        ->check(CLI::Range(1u, 16384u));
    cmd->add_option("--height", args->height, "Image height (default 64; a mesh: 768)")
        ->check(CLI::Range(1u, 16384u));
    cmd->add_option("--color-by", args->color_by,
                    "A mesh's colours: shading (lit normals, the default), segment (each "
                    "segment of the split in its own colour), instance (each instance), or "
                    "middle-end-thread (the pipeline thread that shaded each segment), lit "
                    "like the shading; a mesh only");
    cmd->add_flag("--flat", args->flat,
                  "With --color-by segment, instance or middle-end-thread: the key colours "
                  "unlit, exactly one colour per key (for comparing pixels)");
    cmd->add_option("--instances", args->instances,
                    "A mesh: draw N instances, side by side along x (default 1)")
        ->check(CLI::Range(1u, 1024u));
    cmd->add_option("--camera", args->camera,
                    "A mesh's camera: AZIMUTH ELEVATION (degrees) DISTANCE (0: frame the mesh; "
                    "default 30 20 0)")
        ->expected(3);
    add_split_options(*cmd, args->split);
    cmd->add_option("--gs", args->gs, "Bind a library geometry shader (a description only)");
    add_threads_option(*cmd, args->threads);
    cmd->add_flag("--no-progress", args->no_progress,
                  "No progress line on stderr (shown only when stderr is a terminal)");
    cmd->callback([args] { render(*args); });
}

} // namespace drawpipe::cli
