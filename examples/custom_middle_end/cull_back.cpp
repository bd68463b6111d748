// A middle end plugged in from outside the library: `cull_back` fetches and shades like
// fetch_shade, then drops back-facing (clockwise) triangles before the backend sees them, as
// a fixed-function cull unit would. It is two small classes (the stateless middle end and the
// draw it prepares) and one registration line; drawpipe's pipeline runs the prepared draw on
// every thread and keeps the output in draw order.
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/extend/serial.hpp>
#include <drawpipe/extend/shading.hpp>
#include <drawpipe/prim.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

using namespace drawpipe;

// The draw as cull_back prepared it: immutable, shared by every thread shading its segments.
class CullBackDraw final : public MiddleEndDraw {
  public:
    explicit CullBackDraw(const DrawState& state)
        : MiddleEndDraw({}, vertex_layout_for(state)), state_(state) {}

    // Shades the segment's vertices per instance, then keeps the counter-clockwise triangles
    // of its primitives as a triangle list. Reads only its arguments and the per-draw state.
    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override {
        const uint32_t stride = layout().stride();
        for (uint32_t i = 0; i < seg.instance_count; ++i) {
            const uint32_t base = out.vertex_count;
            uint32_t* v = out.append_vertices(seg.fetch_count, stride);
            for (uint32_t f = 0; f < seg.fetch_count; ++f)
                shade_vertex(state_, layout(), seg.vertex_id(f), seg.instance_first + i,
                             seg.draw_id, v + f * stride);
            const uint32_t first = uint32_t(out.elts.size());
            for_each_decomposed(
                seg.prim, state_.draw.provoking, seg.draw_count, [&](uint32_t, const uint32_t* p) {
                    const uint32_t e[3] = {base + seg.draw_elt(p[0]), base + seg.draw_elt(p[1]),
                                           base + seg.draw_elt(p[2])};
                    if (signed_area(out, stride, e) > 0)
                        out.elts.insert(out.elts.end(), e, e + 3);
                    else
                        ++out.counters[0];
                });
            out.prims.push_back(
                {Prim::triangles, seg.flags, first, uint32_t(out.elts.size()) - first});
        }
    }

  private:
    static float signed_area(const ShadedBatch& b, uint32_t stride, const uint32_t e[3]) {
        auto xy = [&](uint32_t k, int c) {
            return dword_float(b.vertices[size_t(e[k]) * stride + SLOT_POSITION + c]);
        };
        return (xy(1, 0) - xy(0, 0)) * (xy(2, 1) - xy(0, 1)) -
               (xy(2, 0) - xy(0, 0)) * (xy(1, 1) - xy(0, 1));
    }
    DrawState state_;
};

// The middle end itself holds nothing per draw: prepare() checks the draw and hands back
// the CullBackDraw that shades it.
class CullBack final : public MiddleEnd {
  public:
    std::string_view name() const override { return "cull_back"; }

    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        const PrimShape shape = prim_shape(state.draw.prim);
        if (state.gs || shape.first < 3 || state.draw.prim >= Prim::lines_adjacency)
            throw Error(ErrorCode::unsupported,
                        "prim: cull_back draws triangles, quads and polygons only");
        return std::make_shared<CullBackDraw>(state);
    }
    std::span<const std::string_view> counters() const override {
        static const std::string_view names[] = {"culled"};
        return names;
    }
};

// Counts what arrives: triangles and an order-sensitive hash of their vertex ids.
class TallyBackend final : public Backend {
  public:
    uint64_t triangles = 0, hash = 0;
    void begin_draw(const DrawInfo&, const VertexLayout&) override {}
    void draw_elements(Prim, uint8_t, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        triangles += elts.size() / 3;
        for (uint32_t e : elts) hash = (hash ^ v.vertex(e)[SLOT_VERTEX_ID]) * 0x100000001B3ull;
    }
};

int main(int argc, char** argv) {
    // No arguments: --help (or -h) prints the usage and writes nothing; anything else is an error.
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fprintf(help ? stdout : stderr,
                     "usage: custom_middle_end\n  registers the cull_back middle end, draws "
                     "through it and checks what it dropped\n");
        return help ? 0 : 2;
    }
    // The one registration line: the middle end is now bindable by name, like the built-ins.
    MiddleEndRegistry::global().add("cull_back", "drops clockwise triangles",
                                    std::make_shared<CullBack>());

    // A 300 x 300 vertex grid drawn twice as one triangle strip per row: first walking each
    // column bottom-up (clockwise triangles, all culled), then top-down (all kept).
    const uint32_t n = 300;
    std::vector<float> positions;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
            for (float c : {float(x), float(y), 0.0f, 1.0f}) positions.push_back(c);
    std::vector<uint32_t> up, down;
    for (uint32_t y = 0; y + 1 < n; ++y) {
        for (uint32_t x = 0; x < n; ++x) {
            up.insert(up.end(), {y * n + x, (y + 1) * n + x});
            down.insert(down.end(), {(y + 1) * n + x, y * n + x});
        }
        up.push_back(~0u);
        down.push_back(~0u);
    }
    const VertexBuffer buffer{positions.data(), positions.size() * sizeof(float), 16, 0};
    const VertexAttrib position{0, 0, Format::float32x4, 0};

    ContextOptions options;
    options.inline_below = 0; // always the parallel pipeline, to show it keeps the order
    Context ctx(options);
    TallyBackend backend, reference;
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&position, 1});
    ctx.bind_middle_end("cull_back");
    ctx.bind_backend(backend);
    uint64_t culled = 0;
    for (const std::vector<uint32_t>* list : {&up, &down}) {
        DrawInfo draw;
        draw.prim = Prim::triangle_strip;
        draw.index_type = IndexType::u32;
        draw.indices = list->data();
        draw.index_buffer_count = draw.count = uint32_t(list->size());
        draw.primitive_restart = true;
        draw.restart_index = ~0u;
        ctx.draw(draw);
        culled += ctx.flush().counters[0];
        CullBack middle; // the one-thread reference (drawpipe/extend/serial.hpp)
        draw_serial({draw, {{&buffer, 1}, {&position, 1}}, nullptr, nullptr}, middle, reference);
    }
    const uint64_t per_draw = 2ull * (n - 1) * (n - 1);
    std::printf("%u threads: %llu triangles kept, %llu culled\n", ctx.threads(),
                (unsigned long long)backend.triangles, (unsigned long long)culled);
    const bool ok =
        backend.triangles == per_draw && culled == per_draw && backend.hash == reference.hash;
    return ok ? 0 : 1;
}
