// A minimal driver embedding drawpipe: it binds a grid mesh and a vertex shader, draws it
// through the built-in fetch_shade middle end into its own backend, and checks what arrived.
// The backend sums the signed screen area of the triangles, so a flipped winding shows.
#include <drawpipe/decompose.hpp>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/middle_ends.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace drawpipe;

// The driver's backend: called from one thread at a time, in draw order.
class AreaBackend final : public Backend {
  public:
    double area = 0;
    uint64_t triangles = 0;

    void begin_draw(const DrawInfo& draw, const VertexLayout&) override {
        provoking_ = draw.provoking;
    }
    void draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                       std::span<const uint32_t> elts) override {
        decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
            if (n != 3) return;
            double p[3][2];
            for (int i = 0; i < 3; ++i)
                for (int c = 0; c < 2; ++c)
                    p[i][c] = dword_float(vertices.vertex(e[i])[SLOT_POSITION + c]);
            area += 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                           (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
            ++triangles;
        });
    }

  private:
    Provoking provoking_ = Provoking::last;
};

int main(int argc, char** argv) {
    // No arguments: --help (or -h) prints the usage and writes nothing; anything else is an error.
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fprintf(help ? stdout : stderr,
                     "usage: minimal_driver\n  draws a grid through fetch_shade into its own "
                     "backend and checks what arrived\n");
        return help ? 0 : 2;
    }
    register_builtin_middle_ends();

    // A 200 x 200 vertex grid over [-1, 1]^2 with counter-clockwise triangles.
    const uint32_t n = 200;
    std::vector<float> positions;
    std::vector<uint32_t> indices;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
            for (float c : {2.0f * x / (n - 1) - 1.0f, 2.0f * y / (n - 1) - 1.0f, 0.0f, 1.0f})
                positions.push_back(c);
    for (uint32_t y = 0; y + 1 < n; ++y)
        for (uint32_t x = 0; x + 1 < n; ++x) {
            const uint32_t v = y * n + x;
            for (uint32_t i : {v, v + 1, v + n, v + 1, v + n + 1, v + n}) indices.push_back(i);
        }
    const VertexBuffer buffer{positions.data(), positions.size() * sizeof(float), 16, 0};
    const VertexAttrib position{0, 0, Format::float32x4, 0};

    Context ctx; // every hardware thread, or $DRAWPIPE_THREADS
    AreaBackend backend;
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&position, 1});
    // Halve x and y: each instance then covers an area of 1.
    ctx.bind_vertex_shader(
        per_vertex_shader({}, [](const float* in, float* position, uint32_t, uint32_t) {
            position[0] = 0.5f * in[0];
            position[1] = 0.5f * in[1];
            position[2] = in[2];
            position[3] = in[3];
        }));
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);

    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u32;
    draw.indices = indices.data();
    draw.index_buffer_count = uint32_t(indices.size());
    draw.count = uint32_t(indices.size());
    draw.instance_count = 3;
    try {
        ctx.draw(draw);
        const DrawStats stats = ctx.flush();
        std::printf("%u threads: %llu segments, %llu triangles, area %.6f (expected 3)\n",
                    ctx.threads(), (unsigned long long)stats.front.segments,
                    (unsigned long long)backend.triangles, backend.area);
    } catch (const Error& e) {
        std::fprintf(stderr, "draw failed: %s\n", e.what());
        return 1;
    }
    const bool ok =
        backend.triangles == 3ull * 2 * (n - 1) * (n - 1) && std::fabs(backend.area - 3.0) < 1e-6;
    return ok ? 0 : 1;
}
