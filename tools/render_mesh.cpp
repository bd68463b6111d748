#include "tools/render_mesh.hpp"

#include "drawpipe/context.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "tools/common/colour_stages.hpp"
#include "tools/progress.hpp"
#include "workloads/mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <memory>

namespace drawpipe::cli {

namespace {

using Mat4 = std::array<float, 16>; // row-major: out = M * (x, y, z, 1)
using Vec3 = std::array<float, 3>;

Vec3 sub(Vec3 a, Vec3 b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 normalize(Vec3 a) {
    const float l = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    return l > 0 ? Vec3{a[0] / l, a[1] / l, a[2] / l} : Vec3{0, 0, 1};
}
float dot(Vec3 a, Vec3 b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Mat4 multiply(const Mat4& a, const Mat4& b) {
    Mat4 r{};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) r[4 * i + j] += a[4 * i + k] * b[4 * k + j];
    return r;
}

// GL's gluLookAt and gluPerspective, as row-major matrices.
Mat4 look_at(Vec3 eye, Vec3 centre, Vec3 up) {
    const Vec3 f = normalize(sub(centre, eye)), s = normalize(cross(f, up)), u = cross(s, f);
    return {s[0],  s[1],  s[2],  -dot(s, eye), u[0], u[1], u[2], -dot(u, eye),
            -f[0], -f[1], -f[2], dot(f, eye),  0,    0,    0,    1};
}
Mat4 perspective(float fovy, float aspect, float near, float far) {
    const float t = 1.0f / std::tan(fovy / 2);
    return {t / aspect,
            0,
            0,
            0,
            0,
            t,
            0,
            0,
            0,
            0,
            (far + near) / (near - far),
            2 * far * near / (near - far),
            0,
            0,
            -1,
            0};
}

} // namespace

bool is_mesh_path(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    for (const char* m : {".obj", ".ply", ".3ds", ".stl", ".gltf", ".glb", ".dae", ".fbx", ".off"})
        if (ext == m) return true;
    return false;
}

workloads::Workload torus_mesh(uint32_t rings, uint32_t sides) {
    workloads::Workload w;
    w.id = "torus";
    w.name = "mesh";
    w.prim = Prim::triangles;
    w.index_type = IndexType::u32;
    const float tau = 6.2831853f, major = 1.0f, minor = 0.4f;
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < sides; ++s) {
            const float u = tau * float(r) / float(rings), v = tau * float(s) / float(sides);
            const float rad = major + minor * std::cos(v);
            w.positions.insert(w.positions.end(),
                               {rad * std::cos(u), minor * std::sin(v), rad * std::sin(u)});
        }
    auto id = [&](uint32_t r, uint32_t s) { return (r % rings) * sides + s % sides; };
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < sides; ++s)
            for (const uint32_t i : {id(r, s), id(r, s + 1), id(r + 1, s), id(r + 1, s),
                                     id(r, s + 1), id(r + 1, s + 1)})
                w.indices32.push_back(i);
    w.count = uint32_t(w.indices32.size());
    w.vertex_count = rings * sides;
    return w;
}

std::vector<uint32_t> decomposed_triangles(const workloads::Workload& w) {
    const DrawInfo d = w.draw();
    auto index = [&](uint32_t pos) -> uint32_t {
        if (d.index_type == IndexType::u16) return w.indices16[pos];
        if (d.index_type == IndexType::u32) return w.indices32[pos];
        return pos;
    };
    std::vector<uint32_t> out;
    uint32_t run = 0;
    auto flush = [&](uint32_t end) {
        for_each_decomposed(d.prim, d.provoking, end - run, [&](uint32_t n, const uint32_t* pos) {
            if (n == 3)
                for (uint32_t i = 0; i < 3; ++i) out.push_back(index(run + pos[i]));
        });
    };
    for (uint32_t i = 0; i < d.count; ++i)
        if (d.primitive_restart && d.index_type != IndexType::none && index(i) == d.restart_index) {
            flush(i);
            run = i + 1;
        }
    flush(d.count);
    return out;
}

MeshPicture render_mesh(const workloads::Workload& mesh, const MeshView& view) {
    const uint32_t n = mesh.vertex_count;
    if (view.progress) view.progress->phase("computing normals");
    // Per-vertex normals: the sum of the faces' normals around each vertex.
    std::vector<Vec3> normal(n, Vec3{0, 0, 0});
    auto pos = [&](uint32_t v) {
        return Vec3{mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]};
    };
    const std::vector<uint32_t> tris = decomposed_triangles(mesh);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
        const uint32_t a = tris[t], b = tris[t + 1], c = tris[t + 2];
        const Vec3 fn = cross(sub(pos(b), pos(a)), sub(pos(c), pos(a)));
        for (const uint32_t v : {a, b, c})
            for (int k = 0; k < 3; ++k) normal[v][k] += fn[k];
    }
    std::vector<float> normals;
    normals.reserve(size_t(n) * 3);
    for (const Vec3& v : normal)
        for (const float c : normalize(v)) normals.push_back(c);

    // Instances stand side by side along x, a little apart, centred on the mesh's place.
    Vec3 lo = pos(0), hi = pos(0);
    for (uint32_t v = 0; v < n; ++v)
        for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], pos(v)[k]), hi[k] = std::max(hi[k], pos(v)[k]);
    const uint32_t instances = std::max(view.instances, 1u);
    // Apart by a little more than the mesh's footprint's diagonal, so that no copy hides part
    // of the next from any azimuth.
    const float spacing = std::max(std::hypot(hi[0] - lo[0], hi[2] - lo[2]) * 1.1f, 1e-6f);
    const float first_x = -0.5f * float(instances - 1) * spacing;
    lo[0] += first_x, hi[0] -= first_x;

    // A camera looking at the bounds' centre from the azimuth and elevation. By default it
    // frames the mesh: as close as keeps the projection of every vertex (of the first and the
    // last instance: the others lie between) within 90% of the picture's width and height, the
    // picture shifted (as a lens shift would) so that the mesh sits in its middle.
    const Vec3 centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    const float radius = std::max(1e-6f, std::sqrt(dot(sub(hi, lo), sub(hi, lo))) / 2);
    const float fovy = 40.0f * float(M_PI) / 180;
    const float aspect = float(view.width) / float(view.height);
    const float az = view.azimuth * float(M_PI) / 180, el = view.elevation * float(M_PI) / 180;
    const Vec3 back{std::cos(el) * std::sin(az), std::sin(el), std::cos(el) * std::cos(az)};
    float dist = view.distance;
    float shift_x = 0, shift_y = 0; // added to the normalized device coordinates
    // The band a legend covers at the top, in device coordinates: framed below it.
    const float band = std::min(1.0f, 2.0f * float(view.top_reserved) / float(view.height));
    if (!(dist > 0)) {
        const Vec3 forward{-back[0], -back[1], -back[2]};
        const Vec3 side = normalize(cross(forward, {0, 1, 0}));
        const Vec3 up = cross(side, forward);
        const float tan_y = std::tan(fovy / 2), tan_x = tan_y * aspect;
        // Each vertex as (towards the eye, along the picture's x, along its y).
        std::vector<Vec3> rel;
        rel.reserve(size_t(n) * 2);
        float nearest = -radius;
        if (view.progress) view.progress->phase("framing the camera", 34); // extent() calls
        for (const float shift : {first_x, first_x + float(instances - 1) * spacing})
            for (uint32_t v = 0; v < n; ++v) {
                Vec3 p = sub(pos(v), centre);
                p[0] += shift;
                rel.push_back({dot(p, back), dot(p, side), dot(p, up)});
                nearest = std::max(nearest, rel.back()[0]);
            }
        // The projection's extent at distance d: x0, x1, y0, y1 in device coordinates.
        auto extent = [&](float d) {
            if (view.progress) view.progress->advance(1);
            std::array<float, 4> e{1e30f, -1e30f, 1e30f, -1e30f};
            for (const Vec3& r : rel) {
                const float depth = d - r[0], x = r[1] / depth / tan_x, y = r[2] / depth / tan_y;
                e = {std::min(e[0], x), std::max(e[1], x), std::min(e[2], y), std::max(e[3], y)};
            }
            return e;
        };
        auto fits = [&](float d) {
            const auto e = extent(d);
            return e[1] - e[0] <= 1.8f && e[3] - e[2] <= 0.9f * (2 - band);
        };
        // Centred, within 90% of each half: close enough to start from, and far enough.
        float far_enough = nearest + radius * 0.05f;
        for (const Vec3& r : rel)
            far_enough = std::max({far_enough, r[0] + std::fabs(r[1]) / (0.9f * tan_x),
                                   r[0] + std::fabs(r[2]) / (0.9f * (1 - band / 2) * tan_y)});
        float near_enough = nearest + radius * 0.05f; // every vertex in front of the eye
        if (fits(near_enough)) {
            far_enough = near_enough;
        } else {
            for (int i = 0; i < 32; ++i) {
                const float mid = (near_enough + far_enough) / 2;
                (fits(mid) ? far_enough : near_enough) = mid;
            }
        }
        dist = far_enough;
        const auto e = extent(dist);
        shift_x = -(e[0] + e[1]) / 2, shift_y = -(e[2] + e[3]) / 2 - band / 2;
    }
    const Vec3 eye{centre[0] + dist * back[0], centre[1] + dist * back[1],
                   centre[2] + dist * back[2]};
    Mat4 mvp = multiply(perspective(fovy, aspect, std::max(dist - radius * 1.5f, radius * 0.01f),
                                    dist + radius * 1.5f),
                        look_at(eye, centre, {0, 1, 0}));
    for (int j = 0; j < 4; ++j)
        mvp[j] += shift_x * mvp[12 + j], mvp[4 + j] += shift_y * mvp[12 + j];
    const Vec3 light = normalize(sub(eye, centre)); // a headlight, a little from above
    const Vec3 key = normalize({light[0], light[1] + 0.5f, light[2]});

    // The vertex shader: clip position (instance i moved along x), and a lit warm grey as the
    // colour output (a plain grey when a stage colours by key and lights its colours with it).
    // Colouring by thread adds a flat integer output, varying 1, for the tag the middle end's
    // thread writes (ThreadTagMiddleEnd).
    const bool by_thread = view.colours == MeshColours::middle_end_thread;
    const std::array<float, 3> tint = view.colours == MeshColours::shading
                                          ? std::array<float, 3>{0.85f, 0.8f, 0.7f}
                                          : std::array<float, 3>{1, 1, 1};
    ShaderOutputs outputs;
    outputs.add_varying();
    if (by_thread) outputs.add_varying({ValueType::uint32, Interp::flat, 1});
    const VertexShader vs =
        per_vertex_shader(outputs, [mvp, key, tint, first_x, spacing](const float* in, float* out,
                                                                      uint32_t, uint32_t i) {
            const float x = in[0] + first_x + float(i) * spacing;
            for (int r = 0; r < 4; ++r)
                out[r] = mvp[4 * r] * x + mvp[4 * r + 1] * in[1] + mvp[4 * r + 2] * in[2] +
                         mvp[4 * r + 3];
            const float lit =
                0.25f + 0.75f * std::max(0.0f, in[4] * key[0] + in[5] * key[1] + in[6] * key[2]);
            out[4] = tint[0] * lit, out[5] = tint[1] * lit, out[6] = tint[2] * lit, out[7] = 1.0f;
        });

    const VertexBuffer buffers[2] = {{mesh.positions.data(), mesh.positions.size() * 4, 12, 0},
                                     {normals.data(), normals.size() * 4, 12, 0}};
    const VertexAttrib attribs[2] = {{0, 0, Format::float32x3, 0}, {1, 0, Format::float32x3, 0}};
    ContextOptions co;
    co.threads = view.threads;
    co.draw = view.options;
    Context ctx(co);
    MeshPicture picture{
        RasterBackend(view.width, view.height, {.colour_varying = 0, .depth_test = true}),
        0,
        {},
        0};
    std::shared_ptr<const MiddleEnd> middle = MiddleEndRegistry::global().find(view.middle_end);
    if (by_thread) middle = std::make_shared<ThreadTagMiddleEnd>(std::move(middle), 1);
    if (view.progress)
        middle = std::make_shared<ProgressMiddleEnd>(std::move(middle), *view.progress);
    ctx.bind_middle_end(std::move(middle));
    ctx.bind_backend(picture.image);
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);
    ctx.bind_vertex_shader(vs);
    RasterState raster;
    raster.viewport = {0, 0, float(view.width), float(view.height), 0, 1};
    ctx.set_raster_state(raster);
    // The stage that colours each triangle by what the pipeline did with it, if any.
    std::unique_ptr<KeyColours> colours;
    switch (view.colours) {
    case MeshColours::shading:
        break;
    case MeshColours::segment:
        colours = std::make_unique<SegmentColours>(0, !view.flat);
        break;
    case MeshColours::instance:
        colours = std::make_unique<InstanceColours>(0, !view.flat);
        break;
    case MeshColours::middle_end_thread:
        colours = std::make_unique<ThreadColours>(0, 1, !view.flat);
        break;
    }
    if (colours) ctx.add_stage(*colours);
    DrawInfo draw = mesh.draw();
    draw.instance_count = instances;
    picture.triangles = uint64_t(tris.size() / 3) * instances;
    if (view.progress)
        view.progress->phase("drawing " + std::to_string(picture.triangles) + " triangles",
                             uint64_t(draw.count) * instances);
    ctx.draw(draw);
    ctx.flush();
    if (view.progress) view.progress->done();
    if (colours) picture.colours = colours->keys_seen(), picture.keys = colours->keys();
    return picture;
}

} // namespace drawpipe::cli
