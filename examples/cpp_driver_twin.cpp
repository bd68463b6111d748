// The C++ twin of c_driver.c: the same scene through the C++ API (<drawpipe/drawpipe.hpp>),
// printing the same text, which a test compares byte for byte. Reading the two side by side
// maps each C call to its C++ counterpart.
#include <drawpipe/decompose.hpp>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/gs.hpp>
#include <drawpipe/middle_ends.hpp>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace drawpipe;

namespace {

constexpr uint32_t kGrid = 16;
constexpr uint32_t kStreamOutputVertices = 300; // room for 100 of draw 1's 450 triangles

uint64_t fnv1a(uint64_t hash, const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
    return hash;
}

// Hashes every vertex record in element order and sums the triangles' signed area.
class TraceBackend final : public Backend {
  public:
    int draw = 0;
    Provoking provoking = Provoking::last; // the draw's, for decompose_elements
    uint64_t calls = 0, elements = 0, triangles = 0, hash = 0;
    double area = 0;

    void begin_draw(const DrawInfo& info, const VertexLayout& layout) override {
        ++draw;
        provoking = info.provoking;
        calls = elements = triangles = 0;
        hash = 14695981039346656037ull;
        area = 0;
        std::printf("draw %d: prim %d, provoking %s, stride %u, varyings %u%s\n", draw,
                    int(info.prim), info.provoking == Provoking::last ? "last" : "first",
                    layout.stride(), layout.varying_count(),
                    layout.gs_output ? ", from a geometry shader" : "");
    }
    void draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                       std::span<const uint32_t> elts) override {
        ++calls;
        elements += elts.size();
        for (uint32_t e : elts)
            hash = fnv1a(hash, vertices.vertex(e), vertices.stride * sizeof(uint32_t));
        // Any primitive type may arrive (strips whole when no stage had to touch them), so
        // decompose it into GL's points, lines and triangles.
        decompose_elements(prim, provoking, elts, [&](uint32_t n, const uint32_t* t) {
            if (n != 3) return;
            double p[3][2];
            for (int i = 0; i < 3; ++i)
                for (int c = 0; c < 2; ++c)
                    p[i][c] = dword_float(vertices.vertex(t[i])[SLOT_POSITION + c]);
            area += 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                           (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
            ++triangles;
        });
    }
    void end_draw() override {
        std::printf("  calls %" PRIu64 ", elements %" PRIu64 ", triangles %" PRIu64
                    ", area %.3f, hash %016" PRIx64 "\n",
                    calls, elements, triangles, area, hash);
    }
};

// Scales the grid by 0.9 and passes the colour (attribute 1) on as varying 0.
void vertex_shader(const ShaderBlock& block) {
    const float scale = 0.9f;
    for (uint32_t lane = 0; lane < block.count; ++lane) {
        block.out[0][lane] = scale * block.in[0][lane];
        block.out[1][lane] = scale * block.in[1][lane];
        block.out[2][lane] = block.in[2][lane];
        block.out[3][lane] = 1.0f;
        for (int c = 0; c < 4; ++c) block.out[4 + c][lane] = block.in[4 + c][lane];
    }
}

// Each input triangle shrunk by half towards its centre, tagged with its primitive id.
void geometry_shader(GsContext& gs) {
    float centre[2] = {0, 0};
    for (uint32_t v = 0; v < 3; ++v)
        for (int c = 0; c < 2; ++c) centre[c] += dword_float(gs.load(v, SLOT_POSITION + c)) / 3.0f;
    for (uint32_t v = 0; v < 3; ++v) {
        GsOutput out;
        out.id = gs.primitive_id_in();
        for (int c = 0; c < 4; ++c) {
            const float p = dword_float(gs.load(v, SLOT_POSITION + c));
            out.position[c] = c < 2 ? centre[c] + 0.5f * (p - centre[c]) : p;
            out.varyings[0][c] = gs.varying(v, 0, c);
        }
        gs.emit_vertex(out);
    }
    gs.end_primitive();
}

void print_stats(const MiddleEnd& middle, const DrawStats& s) {
    std::printf("stats: segments %" PRIu64 ", indices %" PRIu64 ", fetched %" PRIu64
                ", generated %" PRIu64 ", written %" PRIu64 "\n",
                s.front.segments, s.front.indices, s.front.fetched, s.primitives.generated[0],
                s.primitives.written[0]);
    const auto names = middle.counters();
    for (size_t i = 0; i < names.size(); ++i)
        std::printf("  %.*s %" PRIu64 "\n", int(names[i].size()), names[i].data(), s.counters[i]);
}

} // namespace

int main(int argc, char** argv) {
    // No arguments: --help (or -h) prints the usage and writes nothing; anything else is an error.
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fprintf(help ? stdout : stderr,
                     "usage: cpp_driver_twin\n  draws c_driver.c's scene through the C++ API and "
                     "prints what reached the backend\n");
        return help ? 0 : 2;
    }
    register_builtin_middle_ends();
    float positions[kGrid * kGrid][3];
    uint8_t colours[kGrid * kGrid][4];
    for (uint32_t y = 0; y < kGrid; ++y)
        for (uint32_t x = 0; x < kGrid; ++x) {
            const uint32_t v = y * kGrid + x;
            positions[v][0] = 2.0f * float(x) / (kGrid - 1) - 1.0f;
            positions[v][1] = 2.0f * float(y) / (kGrid - 1) - 1.0f;
            positions[v][2] = 0.25f;
            colours[v][0] = uint8_t(x * 16);
            colours[v][1] = uint8_t(y * 16);
            colours[v][2] = uint8_t(255 - x * 8);
            colours[v][3] = 255;
        }
    // Counter-clockwise triangles, clockwise on odd rows (the ones culling removes).
    std::vector<uint16_t> indices;
    for (uint32_t y = 0; y + 1 < kGrid; ++y)
        for (uint32_t x = 0; x + 1 < kGrid; ++x) {
            const auto v = uint16_t(y * kGrid + x);
            const uint16_t quad[6] = {v,
                                      uint16_t(v + 1),
                                      uint16_t(v + kGrid),
                                      uint16_t(v + 1),
                                      uint16_t(v + kGrid + 1),
                                      uint16_t(v + kGrid)};
            for (int i = 0; i < 6; ++i) indices.push_back(quad[y % 2 ? 5 - i : i]);
        }
    std::vector<uint8_t> strip; // zig-zagging over the first two rows
    for (uint32_t x = 0; x < kGrid; ++x) strip.push_back(uint8_t(kGrid + x)), strip.push_back(x);

    Context ctx;
    const VertexBuffer buffers[2] = {{positions, sizeof positions, 12, 0},
                                     {colours, sizeof colours, 4, 0}};
    VertexAttrib attribs[2];
    attribs[0].format = Format::float32x3;
    attribs[1].buffer = 1;
    attribs[1].format = Format::unorm8x4;
    ctx.set_vertex_buffers(buffers);
    ctx.set_vertex_attribs(attribs);

    VertexShader vs;
    vs.outputs.add_varying(); // the colour: smooth, 4 components
    vs.run = vertex_shader;
    ctx.bind_vertex_shader(vs);

    RasterState raster;
    raster.viewport.width = raster.viewport.height = 64;
    raster.cull = CullFace::back;
    raster.flatshade = true;
    ctx.set_raster_state(raster);

    TraceBackend traced;
    ctx.bind_backend(traced);

    // Stream output: position and colour, interleaved, 8 dwords a vertex.
    static float captured[kStreamOutputVertices][8];
    StreamOutputState so;
    so.outputs = {{CaptureSource::position, 0, 0, 4, 0, 0, 0},
                  {CaptureSource::varying, 0, 0, 4, 0, 4, 0}};
    so.buffers[0] = {captured, 0, sizeof captured, sizeof captured[0]};
    ctx.set_stream_output(so);

    // Draw 1: the grid, captured, on fetch_shade.
    auto fetch_shade = MiddleEndRegistry::global().find("fetch_shade");
    ctx.bind_middle_end(fetch_shade);
    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u16;
    draw.indices = indices.data();
    draw.index_buffer_count = uint32_t(indices.size());
    draw.count = uint32_t(indices.size());
    ctx.begin_stream_output();
    ctx.draw(draw);
    const StreamOutputCounts counts = ctx.end_stream_output();
    const size_t bytes = ctx.stream_output_written_bytes(0);
    print_stats(*fetch_shade, ctx.flush());
    std::printf("stream output: %" PRIu64 " of %" PRIu64 " triangles, bytes %zu, hash %016" PRIx64
                "\n",
                counts.written[0], counts.generated[0], bytes,
                fnv1a(14695981039346656037ull, captured, bytes));
    const uint64_t grid_triangles = traced.triangles;

    // Draw 2: the strip through the geometry shader, on a4xx.
    ctx.clear_stream_output();
    GeometryShader gs;
    gs.name = "shrink";
    gs.input = Prim::triangles;
    gs.output = Prim::triangle_strip;
    gs.max_vertices = 3;
    gs.outputs.add_varying();
    gs.input_varyings = 1;
    gs.main = geometry_shader;
    ctx.bind_geometry_shader(&gs);
    auto a4xx = MiddleEndRegistry::global().find("a4xx");
    ctx.bind_middle_end(a4xx);
    draw = DrawInfo{};
    draw.prim = Prim::triangle_strip;
    draw.index_type = IndexType::u8;
    draw.indices = strip.data();
    draw.index_buffer_count = uint32_t(strip.size());
    draw.count = uint32_t(strip.size());
    ctx.draw(draw);
    print_stats(*a4xx, ctx.flush());

    // A bad draw throws at draw() and queues nothing.
    draw.count = 1000;
    ErrorCode bad = ErrorCode::invalid_value;
    try {
        ctx.draw(draw);
    } catch (const Error& e) {
        bad = e.code();
    }
    std::printf("a draw past its index buffer: %s\n", error_code_name(bad));

    const bool ok = grid_triangles == 8 * 2 * (kGrid - 1) && counts.written[0] == 100 &&
                    counts.generated[0] == 2 * (kGrid - 1) * (kGrid - 1) &&
                    traced.triangles == 2 * (kGrid - 1) && bad == ErrorCode::index_buffer_overrun;
    return ok ? 0 : 1;
}
