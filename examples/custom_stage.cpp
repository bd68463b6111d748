// A driver's own pipeline stage: with a RasterState bound, decomposed primitives pass the
// built-in stages (clip, cull, ...) and then the driver's stages before its backend. This one
// drops triangles too small to cover a pixel centre (a "small-primitive cull" a tiled
// rasterizer might want) and counts what it saw; a clipped triangle reaches it already cut to
// the viewport.
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/extend/stage.hpp>
#include <drawpipe/middle_ends.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace drawpipe;

class SmallTriangleCull final : public Stage {
  public:
    uint64_t seen = 0, dropped = 0;
    void point(const StagePrim& p) override { next()->point(p); }
    void line(const StagePrim& p) override { next()->line(p); }
    void triangle(const StagePrim& p) override {
        ++seen;
        // Window coordinates (pixels, y up): twice the area.
        auto x = [&](int i) { return dword_float(p.v[i][SLOT_POSITION]); };
        auto y = [&](int i) { return dword_float(p.v[i][SLOT_POSITION + 1]); };
        const float area2 = (x(1) - x(0)) * (y(2) - y(0)) - (x(2) - x(0)) * (y(1) - y(0));
        if (std::fabs(area2) < 0.5f) {
            ++dropped;
            return;
        }
        next()->triangle(p);
    }
};

// Counts what reached it.
class CountBackend final : public Backend {
  public:
    uint64_t elements = 0;
    void begin_draw(const DrawInfo&, const VertexLayout&) override {}
    void draw_elements(Prim, uint8_t, const VertexView&, std::span<const uint32_t> e) override {
        elements += e.size();
    }
};

int main(int argc, char** argv) {
    // No arguments: --help (or -h) prints the usage and writes nothing; anything else is an error.
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fprintf(help ? stdout : stderr,
                     "usage: custom_stage\n  draws a fan of slivers through a driver's own "
                     "pipeline stage and prints its counts\n");
        return help ? 0 : 2;
    }
    register_builtin_middle_ends();
    // A fan of 200 slivers around the view's centre: some reach far outside it, and a run of
    // them stays within a fraction of a pixel of the centre.
    std::vector<float> positions = {0, 0, 0, 1};
    for (int i = 0; i <= 200; ++i) {
        const float a = float(i) * 0.0314f;
        const float r = i >= 100 && i < 120 ? 0.002f : i % 3 ? 0.9f : 3.0f;
        positions.insert(positions.end(), {r * std::cos(a), r * std::sin(a), 0, 1});
    }
    const VertexBuffer vb{positions.data(), positions.size() * sizeof(float), 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};

    Context ctx;
    CountBackend backend;
    SmallTriangleCull cull;
    RasterState raster;
    raster.viewport = {0, 0, 256, 256, 0, 1}; // the backend now gets window coordinates
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers({&vb, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    ctx.set_raster_state(raster);
    ctx.add_stage(cull);
    DrawInfo draw;
    draw.prim = Prim::triangle_fan;
    draw.count = uint32_t(positions.size() / 4);
    ctx.draw(draw);
    ctx.flush();
    std::printf("custom_stage: %llu triangles reached the stage (clipped ones cut to the view),"
                " %llu smaller than half a pixel dropped, %llu elements reached the backend\n",
                (unsigned long long)cull.seen, (unsigned long long)cull.dropped,
                (unsigned long long)backend.elements);
    return cull.seen > 0 && backend.elements == 3 * (cull.seen - cull.dropped) ? 0 : 1;
}
