// A driver that renders a mesh to a PNG through drawpipe's raster backend: a torus generated
// here (no data files), a vertex shader doing what a GL one would (model-view-projection for
// the position, the normal turned with the model and lit, the colour out as a varying), and a
// RasterState so that drawpipe clips, maps to the viewport and hands the backend window
// coordinates. Run: render_mesh_png [FILE.png] (default torus.png).
#include <drawpipe/backends/raster.hpp>
#include <drawpipe/drawpipe.hpp>
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

// A torus around the y axis: `rings` x `sides` vertices, each a position and a normal (6
// floats), and counter-clockwise indexed triangles seen from outside.
struct Mesh {
    std::vector<float> vertices;
    std::vector<uint32_t> indices;
};
Mesh torus(uint32_t rings, uint32_t sides, float major, float minor) {
    Mesh m;
    const float tau = 6.2831853f;
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < sides; ++s) {
            const float u = tau * float(r) / float(rings), v = tau * float(s) / float(sides);
            const float n[3] = {std::cos(v) * std::cos(u), std::sin(v), std::cos(v) * std::sin(u)};
            const float c[3] = {major * std::cos(u), 0, major * std::sin(u)};
            for (int k = 0; k < 3; ++k) m.vertices.push_back(c[k] + minor * n[k]);
            m.vertices.insert(m.vertices.end(), n, n + 3);
        }
    auto id = [&](uint32_t r, uint32_t s) { return (r % rings) * sides + s % sides; };
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < sides; ++s)
            for (uint32_t i : {id(r, s), id(r, s + 1), id(r + 1, s), id(r + 1, s), id(r, s + 1),
                               id(r + 1, s + 1)})
                m.indices.push_back(i);
    return m;
}

int main(int argc, char** argv) {
    // One optional argument, the PNG's path; --help (or -h) prints the usage and writes
    // nothing, and any other option is an error rather than a file name.
    const char* usage = "usage: render_mesh_png [FILE.png]\n  renders a torus through the raster "
                        "backend into FILE.png (default torus.png)\n";
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fputs(usage, help ? stdout : stderr);
        return help && argc == 2 ? 0 : 2;
    }
    const char* path = argc > 1 ? argv[1] : "torus.png";
    register_builtin_middle_ends();
    const Mesh mesh = torus(96, 48, 1.0f, 0.4f);

    // Attribute 0 the position, attribute 1 the normal: two views of one interleaved buffer.
    const VertexBuffer buffer{mesh.vertices.data(), mesh.vertices.size() * sizeof(float),
                              6 * sizeof(float), 0};
    const VertexAttrib attribs[2] = {
        {.buffer = 0, .offset = 0, .format = Format::float32x3},
        {.buffer = 0, .offset = 3 * sizeof(float), .format = Format::float32x3}};

    // The model tilts the torus towards the camera; the view moves it 4 units away; the
    // projection is gluPerspective(45 degrees, 4:3, near 1, far 10).
    const float a = 0.9f, ca = std::cos(a), sa = std::sin(a);
    const Mat4 model = {1, 0, 0, 0, 0, ca, -sa, 0, 0, sa, ca, 0, 0, 0, 0, 1};
    const Mat4 view = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -4, 0, 0, 0, 1};
    const float f = 1.0f / std::tan(0.3927f), n = 1, fa = 10;
    const Mat4 projection = {f / (4.0f / 3),        0, 0, 0,  0, f, 0, 0, 0, 0, (fa + n) / (n - fa),
                             2 * fa * n / (n - fa), 0, 0, -1, 0};
    const Mat4 mvp = multiply(projection, multiply(view, model));

    // The vertex shader declares one generic output (varying 0, the colour) besides the
    // position every shader writes. drawpipe calls it from several threads at once, so it
    // only reads what it captured. `in` holds 4 components per attribute, `out` the record:
    // position in 0-3, varying 0 in 4-7.
    ShaderOutputs outputs;
    outputs.add_varying();
    const VertexShader vs =
        per_vertex_shader(outputs, [mvp, model](const float* in, float* out, uint32_t, uint32_t) {
            for (int r = 0; r < 4; ++r)
                out[r] = mvp[4 * r] * in[0] + mvp[4 * r + 1] * in[1] + mvp[4 * r + 2] * in[2] +
                         mvp[4 * r + 3];
            // The model is a rotation, so it turns normals as it turns positions.
            float normal[3];
            for (int r = 0; r < 3; ++r)
                normal[r] =
                    model[4 * r] * in[4] + model[4 * r + 1] * in[5] + model[4 * r + 2] * in[6];
            const float light[3] = {0.36f, 0.48f, 0.8f}; // unit length, from the upper right
            const float lit =
                std::max(0.0f, normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2]);
            const float shade = 0.15f + 0.85f * lit;
            out[4] = 0.95f * shade, out[5] = 0.6f * shade, out[6] = 0.2f * shade, out[7] = 1;
        });

    // The raster backend reads varying 0 as the colour and keeps a depth buffer, so the far
    // side of the ring is hidden behind the near one.
    const uint32_t width = 640, height = 480;
    RasterBackend image(width, height, {.colour_varying = 0, .depth_test = true});
    image.clear(0xFF302020); // opaque dark blue-grey (bytes R, G, B, A)
    // With a raster state bound, drawpipe clips and maps clip space to this viewport.
    RasterState raster;
    raster.viewport = {0, 0, float(width), float(height), 0, 1};
    raster.cull = CullFace::back; // the inside of the tube never shows

    Context ctx;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(image);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs(attribs);
    ctx.bind_vertex_shader(vs);
    ctx.set_raster_state(raster);

    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u32;
    draw.indices = mesh.indices.data();
    draw.index_buffer_count = uint32_t(mesh.indices.size());
    draw.count = uint32_t(mesh.indices.size());
    try {
        ctx.draw(draw);
        const DrawStats stats = ctx.flush();
        image.write_png(path);
        std::printf("render_mesh_png: a torus of %u triangles in %llu segments on %u threads; "
                    "%llu of %u pixels covered; wrote %s\n",
                    draw.count / 3, (unsigned long long)stats.front.segments, ctx.threads(),
                    (unsigned long long)image.covered_pixels(), width * height, path);
    } catch (const Error& e) {
        std::fprintf(stderr, "render_mesh_png: %s\n", e.what());
        return 1;
    }
    return 0;
}
