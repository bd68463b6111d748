// `drawpipe render DRAW.txt [--png FILE] [--pixels] [--width W] [--height H]`: draws a
// description through the whole pipeline (clip, viewport, the stages its state needs) into
// the raster backend, so the picture can be looked at and compared pixel by pixel with
// OpenGL (tests/mesa).
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "tools/commands.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/render_desc.hpp"
#include "tools/render_mesh.hpp"

#include <oneapi/tbb/global_control.h>

#include <cstdio>
#include <utility>

namespace drawpipe::cli {

namespace {

struct RenderArgs {
    std::string file;
    std::string middle_end = "fetch_shade";
    std::string strategy = "distinct";
    uint32_t max_vertices = 0;
    std::string gs;
    uint32_t threads = 0;
    std::string png;
    bool pixels = false;
    uint32_t width = 0, height = 0; // 0: 64 x 64 for a description, 1024 x 768 for a mesh
    std::string color_by;           // a mesh's (empty: shading)
    bool flat = false;              // a mesh's key colours unlit
    std::vector<float> camera;      // azimuth, elevation (degrees), distance (0: framing)
    uint32_t instances = 0;         // a mesh's copies (0: not given, one)
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

// What the picture's colours mean, for the line saying where it went.
std::string colour_legend(MeshColours c, size_t keys) {
    const std::string n = std::to_string(keys);
    switch (c) {
    case MeshColours::shading:
        break;
    case MeshColours::segment:
        return "each segment in its own colour: " + n + " segments";
    case MeshColours::instance:
        return "each instance in its own colour: " + n + " instances";
    case MeshColours::middle_end_thread:
        return "each middle-end thread in its own colour: " + n +
               (keys == 1 ? " thread" : " threads") + " shaded segments";
    }
    return "lit";
}

// Prints every lit pixel as `X Y RRGGBBAA`, Y = 0 at the bottom.
void print_pixels(const RasterBackend& image) {
    for (uint32_t y = 0; y < image.height(); ++y)
        for (uint32_t x = 0; x < image.width(); ++x)
            if (const uint32_t p = image.pixel(x, y); p != 0)
                std::printf("%u %u %02X%02X%02X%02X\n", x, y, p & 0xFF, (p >> 8) & 0xFF,
                            (p >> 16) & 0xFF, p >> 24);
}

// A mesh file: lit, or coloured by what the pipeline did (--color-by), from a camera framing
// it, into a PNG.
void render_mesh_file(RenderArgs a) {
    if (!a.gs.empty())
        throw Error(ErrorCode::invalid_value,
                    "--gs: for a draw description (a mesh is drawn without a geometry shader)");
    MeshView view;
    view.colours = parse_colours(a.color_by.empty() ? "shading" : a.color_by);
    view.flat = a.flat;
    if (a.flat && view.colours == MeshColours::shading)
        throw Error(ErrorCode::invalid_value,
                    "--flat: for --color-by segment, instance or middle-end-thread");
    if (a.camera.size() != 0 && a.camera.size() != 3)
        throw Error(ErrorCode::invalid_value, "--camera: expects AZIMUTH ELEVATION DISTANCE");
    if (a.png.empty() && !a.pixels) a.png = "render.png";
    if (!a.png.empty()) check_output_path(a.png, "--png");
    if (a.width) view.width = a.width;
    if (a.height) view.height = a.height;
    if (a.camera.size() == 3 && !(a.camera[2] >= 0))
        throw Error(ErrorCode::invalid_value, "--camera: DISTANCE " + std::to_string(a.camera[2]) +
                                                  " is negative (0 frames the mesh)");
    if (a.camera.size() == 3)
        view.azimuth = a.camera[0], view.elevation = a.camera[1], view.distance = a.camera[2];
    view.instances = a.instances ? a.instances : 1;
    view.middle_end = a.middle_end;
    view.options = {parse_strategy_option(a.strategy), a.max_vertices};
    view.threads = a.threads ? a.threads : default_thread_count();
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, view.threads);
    const MeshPicture picture = render_mesh(a.file, view);
    if (a.pixels) print_pixels(picture.image);
    if (!a.png.empty()) {
        picture.image.write_png(a.png);
        std::fprintf(stderr, "drawpipe render: wrote %s (%ux%u, %s)\n", a.png.c_str(),
                     picture.image.width(), picture.image.height(),
                     colour_legend(view.colours, picture.colours).c_str());
    }
}

void render(RenderArgs a) {
    if (a.width > 16384 || a.height > 16384)
        throw Error(ErrorCode::invalid_value, "--width, --height: at most 16384");
    if (is_mesh_path(a.file)) return render_mesh_file(a);
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
                    "--camera: for a mesh file (a draw description's positions are already in "
                    "clip space)");
    if (a.flat) throw Error(ErrorCode::invalid_value, "--flat: for a mesh file with --color-by");
    if (a.png.empty() && !a.pixels) a.png = "render.png"; // a picture, not silence
    if (!a.png.empty()) check_output_path(a.png, "--png");
    DescRender how;
    how.width = a.width ? a.width : 64;
    how.height = a.height ? a.height : 64;
    how.middle_end = a.middle_end;
    how.max_vertices = a.max_vertices;
    how.threads = a.threads ? a.threads : default_thread_count();
    DrawDesc desc = parse_draw_text(read_input_file(a.file, "draw description"));
    if (!a.gs.empty()) desc.gs = a.gs;
    how.gs = desc.gs.empty() ? nullptr : &find_gs(desc.gs);
    how.strategy = parse_strategy_option(a.strategy);
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, how.threads);
    const RasterBackend image = render_description(desc, how);

    if (a.pixels) print_pixels(image);
    if (!a.png.empty()) {
        image.write_png(a.png);
        std::fprintf(stderr, "drawpipe render: wrote %s (%ux%u)\n", a.png.c_str(), how.width,
                     how.height);
    }
}

} // namespace

void add_render_command(CLI::App& app) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand(
        "render", "Render a draw description, or a mesh file assimp reads (.obj, .ply, .3ds, "
                  "...), through clipping, the stages and the raster backend");
    cmd->footer("Description keys: " + std::string(kDescriptionKeys) + "\n" + kExitCodeHelp);
    cmd->add_option("draw", args->file, "Draw description file ('-' for stdin), or a mesh file")
        ->required();
    cmd->add_option("--png", args->png,
                    "Write the image as PNG (default render.png unless --pixels is given)");
    cmd->add_flag("--pixels", args->pixels,
                  "Print every pixel that is not the clear colour as X Y RRGGBBAA (Y = 0 at the "
                  "bottom), by rows then columns");
    cmd->add_option("--width", args->width, "Image width (default 64; a mesh: 1024)");
    cmd->add_option("--height", args->height, "Image height (default 64; a mesh: 768)");
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
    cmd->add_option("--middle-end", args->middle_end, "Middle end by registered name");
    cmd->add_option("--max-vertices", args->max_vertices, kMaxVerticesHelp);
    cmd->add_option("--strategy", args->strategy, kStrategyHelp);
    cmd->add_option("--gs", args->gs, "Bind a library geometry shader (a description only)");
    cmd->add_option("--threads", args->threads,
                    "Pipeline threads (default: $DRAWPIPE_THREADS or every hardware thread)")
        ->check(CLI::Range(1u, 1024u));
    cmd->callback([args] { render(*args); });
}

} // namespace drawpipe::cli
