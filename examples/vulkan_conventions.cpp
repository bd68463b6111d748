// A sketch of a Vulkan driver on drawpipe: Vulkan's clip space (y pointing down, depth 0..1)
// through RasterState::clip_origin upper_left and clip_depth zero_to_one, and four viewports
// (VkPipelineViewportStateCreateInfo with viewportCount 4) that a geometry shader with four
// invocations selects, one view of a cube each, drawn by an indirect draw whose count the
// driver's memory holds (vkCmdDrawIndexedIndirectCount). Writes a PNG.
// Run: vulkan_conventions [FILE.png] (default vulkan_conventions.png).
#include <drawpipe/backends/raster.hpp>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/gs.hpp>
#include <drawpipe/middle_ends.hpp>
#include <drawpipe/raster_state.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace drawpipe;

using Mat4 = std::array<float, 16>; // row-major: out = M * (x, y, z, 1)

Mat4 multiply(const Mat4& a, const Mat4& b) {
    Mat4 r{};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) r[4 * i + j] += a[4 * i + k] * b[4 * k + j];
    return r;
}

// A unit cube, 4 vertices per face (position, colour: 6 floats), faces counter-clockwise seen
// from outside; +y (the top) green, -y (the bottom) magenta.
struct Mesh {
    std::vector<float> vertices;
    std::vector<uint16_t> indices;
};
Mesh cube() {
    Mesh m;
    // Per face: the normal axis and sign, the colour.
    const struct {
        int axis;
        float sign;
        float colour[3];
    } faces[6] = {{0, 1, {0.9f, 0.2f, 0.2f}},    {0, -1, {0.2f, 0.8f, 0.9f}},
                  {1, 1, {0.2f, 0.85f, 0.25f}},  {1, -1, {0.85f, 0.2f, 0.85f}},
                  {2, 1, {0.25f, 0.35f, 0.95f}}, {2, -1, {0.95f, 0.8f, 0.2f}}};
    for (const auto& f : faces) {
        const int u = (f.axis + 1) % 3, v = (f.axis + 2) % 3;
        const uint16_t base = uint16_t(m.vertices.size() / 6);
        // Corners in the face's (u, v) plane, counter-clockwise seen from the +axis side.
        const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (const auto& c : corners) {
            float p[3];
            p[f.axis] = f.sign;
            p[u] = c[0], p[v] = c[1];
            m.vertices.insert(m.vertices.end(), {p[0], p[1], p[2]});
            m.vertices.insert(m.vertices.end(), f.colour, f.colour + 3);
        }
        // Seen from the -axis side the corners turn the other way.
        const uint16_t q[6] = {0, 1, 2, 0, 2, 3}, r[6] = {0, 2, 1, 0, 3, 2};
        for (const uint16_t i : f.sign > 0 ? q : r) m.indices.push_back(uint16_t(base + i));
    }
    return m;
}

int main(int argc, char** argv) {
    // One optional argument, the PNG's path; --help (or -h) prints the usage and writes
    // nothing, and any other option is an error rather than a file name.
    const char* usage =
        "usage: vulkan_conventions [FILE.png]\n  draws a cube in four viewports with Vulkan's "
        "conventions into FILE.png (default vulkan_conventions.png)\n";
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fputs(usage, help ? stdout : stderr);
        return help && argc == 2 ? 0 : 2;
    }
    const char* path = argc > 1 ? argv[1] : "vulkan_conventions.png";
    register_builtin_middle_ends();
    const Mesh mesh = cube();
    const VertexBuffer buffer{mesh.vertices.data(), mesh.vertices.size() * sizeof(float),
                              6 * sizeof(float), 0};
    const VertexAttrib attribs[2] = {
        {.buffer = 0, .offset = 0, .format = Format::float32x3},
        {.buffer = 0, .offset = 3 * sizeof(float), .format = Format::float32x3}};

    // A Vulkan projection: y flipped (clip-space y points down) and depth 0..1 (near 1, far
    // 10, 50 degrees vertically, square viewports).
    const float f = 1.0f / std::tan(0.4363f), n = 1, fa = 10;
    const Mat4 projection = {f, 0, 0,  0, 0, -f, 0, 0, 0, 0, fa / (n - fa), n * fa / (n - fa),
                             0, 0, -1, 0};
    // Four views: the cube turned by 30, 120, 210 and 300 degrees about y, tilted 25 degrees
    // towards the camera, 4.5 units away.
    std::array<Mat4, 4> views;
    for (uint32_t i = 0; i < 4; ++i) {
        const float yaw = 0.5236f + 1.5708f * float(i), pitch = 0.4363f;
        const float cy = std::cos(yaw), sy = std::sin(yaw), cp = std::cos(pitch),
                    sp = std::sin(pitch);
        const Mat4 turn = {cy, 0, sy, 0, 0, 1, 0, 0, -sy, 0, cy, 0, 0, 0, 0, 1};
        const Mat4 tilt = {1, 0, 0, 0, 0, cp, -sp, 0, 0, sp, cp, -4.5f, 0, 0, 0, 1};
        views[i] = multiply(projection, multiply(tilt, turn));
    }

    // The vertex shader passes the object-space position and the colour (varying 0) on.
    ShaderOutputs vs_out;
    vs_out.add_varying();
    const VertexShader vs =
        per_vertex_shader(vs_out, [](const float* in, float* out, uint32_t, uint32_t) {
            out[0] = in[0], out[1] = in[1], out[2] = in[2], out[3] = 1;
            out[4] = in[4], out[5] = in[5], out[6] = in[6], out[7] = 1;
        });
    // The geometry shader runs four invocations per triangle (layout(invocations = 4)): each
    // transforms it by its view and sends it to viewport gl_InvocationID.
    GeometryShader gs;
    gs.name = "four_views";
    gs.input = Prim::triangles;
    gs.output = Prim::triangle_strip;
    gs.max_vertices = 3;
    gs.invocations = 4;
    gs.input_varyings = 1;
    gs.outputs.add_varying();
    gs.outputs.viewport_index = true;
    gs.main = [views](GsContext& ctx) {
        const Mat4& m = views[ctx.invocation_id()];
        for (uint32_t v = 0; v < 3; ++v) {
            float p[4];
            for (uint32_t c = 0; c < 4; ++c) p[c] = dword_float(ctx.load(v, SLOT_POSITION + c));
            GsOutput o{.viewport = ctx.invocation_id()};
            for (int r = 0; r < 4; ++r)
                o.position[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] +
                                m[4 * r + 3] * p[3];
            for (uint32_t c = 0; c < 4; ++c) o.varyings[0][c] = ctx.varying(v, 0, c);
            ctx.emit_vertex(o);
        }
        ctx.end_primitive();
    };

    // What vkCmdBeginRenderPass, the pipeline's viewport and rasterization state set: a 2 x 2
    // grid of 256 x 256 viewports (Vulkan's x, y are the top-left corner, y down; drawpipe's
    // window y runs up from the image's bottom row, so the top row of viewports is at y 256),
    // minDepth 0, maxDepth 1.
    const uint32_t size = 512, half = size / 2;
    RasterState raster;
    raster.clip_origin = ClipOrigin::upper_left; // Vulkan's clip space
    raster.clip_depth = ClipDepth::zero_to_one;
    raster.viewport_count = 4;
    auto vk_viewport = [&](float x, float y) {
        return Viewport{x, float(size) - y - float(half), float(half), float(half), 0, 1};
    };
    raster.viewport = vk_viewport(0, 0);
    raster.extra_viewports[0] = vk_viewport(float(half), 0);
    raster.extra_viewports[1] = vk_viewport(0, float(half));
    raster.extra_viewports[2] = vk_viewport(float(half), float(half));
    // VK_FRONT_FACE_COUNTER_CLOCKWISE: counter-clockwise as the picture shows it. Clip control
    // decides facing as GL does, on clip space before the y flip, where the projection's
    // flipped y made those triangles clockwise: so FrontFace::cw.
    raster.front_face = FrontFace::cw;
    raster.cull = CullFace::back;

    // Vulkan's tie rule: top-left in the picture, so top edges own centres on them.
    RasterBackend image(size, size,
                        {.colour_varying = 0, .depth_test = true, .top_edge_rule = true});
    image.clear(0xFF201818);
    Context ctx;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(image);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs(attribs);
    ctx.bind_vertex_shader(vs);
    ctx.bind_geometry_shader(&gs);
    ctx.set_raster_state(raster);

    // vkCmdDrawIndexedIndirectCount: the cube as two records of three faces each, the draw
    // count read from the driver's buffer (2) and clamped to maxDrawCount (3). The third record
    // would draw the cube once more, shifted by a base vertex past the buffer: it is not read.
    const DrawElementsIndirectCommand records[3] = {
        {18, 1, 0, 0, 0}, {18, 1, 18, 0, 0}, {36, 1, 0, 1000000, 0}};
    const uint32_t draw_count = 2;
    IndirectDraws indirect;
    indirect.buffer = {records, sizeof records};
    indirect.draw_count = 3;
    indirect.count_buffer = {&draw_count, sizeof draw_count};
    DrawInfo draw; // what the records do not say: the primitive and the index buffer
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u16;
    draw.indices = mesh.indices.data();
    draw.index_buffer_count = uint32_t(mesh.indices.size());
    try {
        ctx.draw_indirect(draw, indirect);
        ctx.flush();
        image.write_png(path);
    } catch (const Error& e) {
        std::fprintf(stderr, "vulkan_conventions: %s\n", e.what());
        return 1;
    }
    // Each viewport shows a cube, lit only inside its quadrant, its green top above its
    // magenta-free middle: with y or facing wrong the top would be at the bottom or hidden.
    int failures = 0;
    for (uint32_t q = 0; q < 4; ++q) {
        const Viewport& v = raster.viewport_at(q);
        uint64_t lit = 0, green = 0;
        double green_y = 0, all_y = 0;
        for (uint32_t y = uint32_t(v.y); y < uint32_t(v.y + v.height); ++y)
            for (uint32_t x = uint32_t(v.x); x < uint32_t(v.x + v.width); ++x) {
                const uint32_t p = image.pixel(x, y);
                if (p == 0xFF201818) continue;
                ++lit, all_y += y;
                if ((p & 0xFF) < 0x60 && ((p >> 8) & 0xFF) > 0x90 && ((p >> 16) & 0xFF) < 0x60)
                    ++green, green_y += y;
            }
        const bool ok = lit > 4000 && green > 200 && green_y / double(green) > all_y / double(lit);
        std::printf("viewport %u: %llu pixels lit, %llu of the green top, top %s\n", q,
                    (unsigned long long)lit, (unsigned long long)green, ok ? "up" : "WRONG");
        failures += !ok;
    }
    if (image.covered_pixels() > 4 * uint64_t(half) * half) ++failures;
    std::printf("vulkan_conventions: wrote %s (%ux%u)\n", path, size, size);
    return failures ? 1 : 0;
}
