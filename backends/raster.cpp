#include "drawpipe/backends/raster.hpp"

#include "drawpipe/decompose.hpp"
#include "drawpipe/error.hpp"

// stb's writer is compiled here, static, so it cannot clash with a driver's own copy.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>

namespace drawpipe {

namespace {

// A stable, well-spread colour per id, opaque.
uint32_t colour_of(uint32_t id) {
    uint32_t h = id * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return 0xFF000000u | (h & 0x00FFFFFFu) | 0x00202020u;
}

} // namespace

RasterBackend::RasterBackend(uint32_t width, uint32_t height)
    : width_(width), height_(height), pixels_(size_t(width) * height, clear_) {}

void RasterBackend::clear(uint32_t rgba) {
    clear_ = rgba;
    std::fill(pixels_.begin(), pixels_.end(), rgba);
}

void RasterBackend::begin_draw(const DrawInfo& draw, const VertexLayout& layout) {
    provoking_ = draw.provoking;
    gs_output_ = layout.gs_output;
}

RasterBackend::Point RasterBackend::to_screen(const uint32_t* v) const {
    const float x = dword_float(v[SLOT_POSITION]), y = dword_float(v[SLOT_POSITION + 1]);
    float w = dword_float(v[SLOT_POSITION + 3]);
    if (!(std::fabs(w) > 1e-20f)) w = 1.0f; // degenerate w: treat as already divided
    // Viewport covers the image; y up as in GL.
    return {(x / w * 0.5f + 0.5f) * float(width_), (1.0f - (y / w * 0.5f + 0.5f)) * float(height_)};
}

void RasterBackend::plot(int x, int y, uint32_t rgba) {
    if (x >= 0 && y >= 0 && x < int(width_) && y < int(height_))
        pixels_[size_t(y) * width_ + x] = rgba;
}

void RasterBackend::fill_triangle(Point a, Point b, Point c, uint32_t rgba) {
    auto edge = [](Point p, Point q, float x, float y) {
        return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x);
    };
    float area = edge(a, b, c.x, c.y);
    if (area == 0.0f || !std::isfinite(area)) return;
    if (area < 0) std::swap(b, c), area = -area; // both windings are drawn (no culling)
    const int x0 = std::max(0, int(std::floor(std::min({a.x, b.x, c.x}))));
    const int x1 = std::min(int(width_) - 1, int(std::ceil(std::max({a.x, b.x, c.x}))));
    const int y0 = std::max(0, int(std::floor(std::min({a.y, b.y, c.y}))));
    const int y1 = std::min(int(height_) - 1, int(std::ceil(std::max({a.y, b.y, c.y}))));
    // Top-left rule: a pixel centre exactly on an edge belongs to top or left edges only.
    auto owns = [](Point p, Point q, float e) {
        if (e != 0.0f) return e > 0.0f;
        const float dy = q.y - p.y, dx = q.x - p.x;
        return dy < 0.0f || (dy == 0.0f && dx > 0.0f);
    };
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const float px = float(x) + 0.5f, py = float(y) + 0.5f;
            if (owns(b, c, edge(b, c, px, py)) && owns(c, a, edge(c, a, px, py)) &&
                owns(a, b, edge(a, b, px, py)))
                pixels_[size_t(y) * width_ + x] = rgba;
        }
}

void RasterBackend::draw_line(Point a, Point b, uint32_t rgba) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len = std::max(std::fabs(dx), std::fabs(dy));
    if (!std::isfinite(len)) return;
    const int steps = int(std::min(len, 65536.0f));
    for (int i = 0; i <= steps; ++i) {
        const float t = steps ? float(i) / float(steps) : 0.0f;
        plot(int(std::floor(a.x + dx * t)), int(std::floor(a.y + dy * t)), rgba);
    }
}

void RasterBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                  std::span<const uint32_t> elts) {
    decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
        // GL's provoking vertex: first or last of the decomposed primitive.
        const uint32_t* pv = vertices.vertex(e[provoking_ == Provoking::last ? n - 1 : 0]);
        const uint32_t rgba = colour_of(gs_output_ ? pv[SLOT_GS_ID] : pv[SLOT_VERTEX_ID]);
        if (n == 3)
            fill_triangle(to_screen(vertices.vertex(e[0])), to_screen(vertices.vertex(e[1])),
                          to_screen(vertices.vertex(e[2])), rgba);
        else if (n == 2)
            draw_line(to_screen(vertices.vertex(e[0])), to_screen(vertices.vertex(e[1])), rgba);
        else {
            const Point p = to_screen(vertices.vertex(e[0]));
            plot(int(std::floor(p.x)), int(std::floor(p.y)), rgba);
        }
    });
}

uint64_t RasterBackend::covered_pixels() const {
    return uint64_t(
        std::count_if(pixels_.begin(), pixels_.end(), [&](uint32_t p) { return p != clear_; }));
}

void RasterBackend::write_png(const std::string& path) const {
    if (!stbi_write_png(path.c_str(), int(width_), int(height_), 4, pixels_.data(),
                        int(width_ * 4)))
        throw Error(ErrorCode::invalid_value, "png: cannot write '" + path + "'");
}

} // namespace drawpipe
