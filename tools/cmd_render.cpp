// `drawpipe render DRAW.txt [--png FILE] [--pixels] [--width W] [--height H]`: draws a
// description through the whole pipeline (clip, viewport, the stages its state needs) into
// the raster backend, so the picture can be looked at and compared pixel by pixel with
// OpenGL (tests/mesa).
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/registry.hpp"
#include "tools/commands.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/files.hpp"
#include "tools/common/gs_library.hpp"
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

// The largest vertex id the draw can read, plus one (positions, colours and edge flags are
// stored up to it so that ids without a value read the defaults).
uint64_t vertex_span(const DrawDesc& d) {
    uint64_t top = 0;
    if (d.index_type == IndexType::none) {
        top = uint64_t(d.start) + d.count;
    } else {
        for (uint32_t i = d.start; i < d.start + d.count && i < d.indices.size(); ++i)
            top = std::max<uint64_t>(top, uint64_t(int64_t(d.indices[i]) + d.base_vertex) + 1);
    }
    return std::max<uint64_t>(top, d.render.positions.size() / 4);
}

// `values` padded with `fill` (one group of `n`) up to `count` groups.
std::vector<float> padded(std::vector<float> values, std::initializer_list<float> fill,
                          uint64_t count) {
    while (values.size() < count * fill.size()) values.insert(values.end(), fill);
    return values;
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
    if (a.width == 0) a.width = 64;
    if (a.height == 0) a.height = 64;
    DrawDesc desc = parse_draw_text(read_input_file(a.file, "draw description"));
    if (!a.gs.empty()) desc.gs = a.gs;
    const GeometryShader* gs = desc.gs.empty() ? nullptr : &find_gs(desc.gs);
    const uint64_t span = vertex_span(desc);
    if (span > (uint64_t(1) << 24))
        throw Error(ErrorCode::invalid_value,
                    "render: vertex ids up to 2^24 (the draw reads " + std::to_string(span) + ")");
    // Attribute 0 the position, 1 the colour, 2 the edge flag; without a vertex shader each
    // reaches the varying of its number, attribute 0 the position too.
    const std::vector<float> pos = padded(desc.render.positions, {0, 0, 0, 1}, span);
    const std::vector<float> col = padded(desc.render.colors, {1, 1, 1, 1}, span);
    const std::vector<float> edge = padded(desc.render.edgeflags, {1}, span);
    desc.attrib_divisors.clear();
    const auto bound = bind_draw(desc);
    const VertexBuffer buffers[3] = {{pos.data(), pos.size() * 4, 16, 0},
                                     {col.data(), col.size() * 4, 16, 0},
                                     {edge.data(), edge.size() * 4, 4, 0}};
    const VertexAttrib attribs[3] = {
        {0, 0, Format::float32x4, 0}, {1, 0, Format::float32x4, 0}, {2, 0, Format::float32x1, 0}};
    RasterState raster = desc.render.raster;
    if (!desc.render.viewport_given) {
        raster.viewport.width = float(a.width);
        raster.viewport.height = float(a.height);
    }
    // A geometry shader's outputs are its own: its first varying is taken as the colour.
    raster.edge_flag_varying = gs ? -1 : 2;
    // Lines of every width are drawn by the backend, as llvmpipe draws them (Mesa's draw
    // module leaves them to it: draw_wide_line_threshold 10000).
    raster.wide_line_threshold = 10000.0f;
    RasterBackend image(a.width, a.height,
                        {.colour_varying = gs ? 0 : 1,
                         .depth_test = desc.render.depth_test,
                         .line_width = raster.line_width});

    const uint32_t threads = a.threads ? a.threads : default_thread_count();
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
    ContextOptions co;
    co.threads = threads;
    co.draw = {parse_strategy_option(a.strategy), a.max_vertices};
    Context ctx(co);
    ctx.bind_middle_end(a.middle_end);
    ctx.bind_backend(image);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.bind_geometry_shader(gs);
    ctx.set_raster_state(raster);
    ctx.draw(bound->info);
    ctx.flush();

    if (a.pixels) print_pixels(image);
    if (!a.png.empty()) {
        image.write_png(a.png);
        std::fprintf(stderr, "drawpipe render: wrote %s (%ux%u)\n", a.png.c_str(), a.width,
                     a.height);
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
