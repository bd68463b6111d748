#include "drawpipe/backends/raster.hpp"

#include "backends/png.hpp"
#include "drawpipe/decompose.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

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

uint32_t pack(const float* c) {
    uint32_t rgba = 0;
    for (uint32_t i = 0; i < 4; ++i) {
        const float v = std::clamp(c[i], 0.0f, 1.0f); // NaN: 0
        rgba |= uint32_t(std::lround((std::isnan(c[i]) ? 0.0f : v) * 255.0f)) << (8 * i);
    }
    return rgba;
}

constexpr int kSubpixelBits = 8; // llvmpipe's fixed-point precision
constexpr float kOne = float(1 << kSubpixelBits);

} // namespace

RasterBackend::RasterBackend(uint32_t width, uint32_t height, const RasterOptions& options)
    : width_(width), height_(height), options_(options), pixels_(size_t(width) * height, 0),
      depth_(size_t(width) * height, 1.0f) {}

void RasterBackend::clear(uint32_t rgba) {
    clear_ = rgba;
    std::fill(pixels_.begin(), pixels_.end(), rgba);
    std::fill(depth_.begin(), depth_.end(), 1.0f);
}

void RasterBackend::begin_draw(const DrawInfo& draw, const VertexLayout& layout) {
    provoking_ = draw.provoking;
    gs_output_ = layout.gs_output;
    viewport_slot_ = layout.outputs.viewport_index ? int32_t(layout.viewport_slot()) : -1;
    colour_slot_ = -1;
    const int32_t v = options_.colour_varying;
    if (v >= 0 && uint32_t(v) < layout.varying_count() &&
        layout.varying(uint32_t(v)).type == ValueType::float32) {
        colour_slot_ = int32_t(layout.varying_slot(uint32_t(v)));
        interp_ = layout.varying(uint32_t(v)).interp;
    }
}

RasterBackend::Vertex RasterBackend::fetch(const uint32_t* v) const {
    Vertex r{};
    const float x = dword_float(v[SLOT_POSITION]), y = dword_float(v[SLOT_POSITION + 1]);
    const float z = dword_float(v[SLOT_POSITION + 2]), w = dword_float(v[SLOT_POSITION + 3]);
    if (options_.clip_space) {
        const float iw = 1.0f / w;
        r = {(x * iw * 0.5f + 0.5f) * float(width_),
             (y * iw * 0.5f + 0.5f) * float(height_),
             z * iw * 0.5f + 0.5f,
             iw,
             {}};
    } else {
        r = {x, y, z, w, {}};
    }
    for (uint32_t c = 0; c < 4; ++c)
        r.c[c] = colour_slot_ < 0 ? 1.0f : dword_float(v[uint32_t(colour_slot_) + c]);
    return r;
}

void RasterBackend::fragment(int x, int y, float z, const float* c) {
    if (x < 0 || y < 0 || x >= int(width_) || y >= int(height_)) return;
    const size_t i = size_t(y) * width_ + uint32_t(x);
    if (options_.depth_test) {
        // GL: after polygon offset, depths are limited to [0, 1]; under depth clamp to the
        // primitive's depth range.
        z = std::clamp(z, zmin_, zmax_);
        if (!(z < depth_[i])) return;
        depth_[i] = z;
    }
    pixels_[i] = pack(c);
}

void RasterBackend::triangle(const Vertex& a0, const Vertex& b0, const Vertex& c0,
                             const float* flat) {
    // Fixed-point vertices; counter-clockwise (y up) so that inside means every edge > 0.
    const Vertex* v[3] = {&a0, &b0, &c0};
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; ++i) {
        if (!std::isfinite(v[i]->x) || !std::isfinite(v[i]->y) || std::fabs(v[i]->x) > 1e7f ||
            std::fabs(v[i]->y) > 1e7f)
            return;
        X[i] = std::llround(v[i]->x * kOne);
        Y[i] = std::llround(v[i]->y * kOne);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0) return;
    if (area < 0) {
        std::swap(v[1], v[2]), std::swap(X[1], X[2]), std::swap(Y[1], Y[2]);
        area = -area;
    }
    const int64_t xmin = std::max<int64_t>(0, std::min({X[0], X[1], X[2]}) >> kSubpixelBits);
    const int64_t xmax =
        std::min<int64_t>(width_ - 1, std::max({X[0], X[1], X[2]}) >> kSubpixelBits);
    const int64_t ymin = std::max<int64_t>(0, std::min({Y[0], Y[1], Y[2]}) >> kSubpixelBits);
    const int64_t ymax =
        std::min<int64_t>(height_ - 1, std::max({Y[0], Y[1], Y[2]}) >> kSubpixelBits);
    // Edge i runs from vertex i+1 to i+2 (opposite vertex i). A centre exactly on an edge
    // belongs to it when the edge is a left edge or a bottom one (y up): the top-left rule of
    // a rasterizer whose rows run from the bottom of the image, as llvmpipe's do for an FBO.
    int64_t ex[3], ey[3];
    bool owns[3];
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        ex[i] = X[k] - X[j];
        ey[i] = Y[k] - Y[j];
        owns[i] = ey[i] < 0 || (ey[i] == 0 && (options_.top_edge_rule ? ex[i] < 0 : ex[i] > 0));
    }
    const float inv_area = 1.0f / float(area);
    // Depth and outputs are interpolated on the vertices' own positions, as llvmpipe's plane
    // equations are set up from the float positions (only coverage uses the snapped ones):
    // on a thin triangle the two give visibly different colours and depths.
    const double fx0 = v[0]->x, fy0 = v[0]->y;
    const double fx1 = v[1]->x - fx0, fy1 = v[1]->y - fy0;
    const double fx2 = v[2]->x - fx0, fy2 = v[2]->y - fy0;
    const double fdet = fx1 * fy2 - fx2 * fy1;
    for (int64_t py = ymin; py <= ymax; ++py)
        for (int64_t px = xmin; px <= xmax; ++px) {
            const int64_t cx = (px << kSubpixelBits) + (1 << (kSubpixelBits - 1));
            const int64_t cy = (py << kSubpixelBits) + (1 << (kSubpixelBits - 1));
            int64_t e[3];
            bool in = true;
            for (int i = 0; i < 3 && in; ++i) {
                const int j = (i + 1) % 3;
                e[i] = ex[i] * (cy - Y[j]) - ey[i] * (cx - X[j]);
                in = e[i] > 0 || (e[i] == 0 && owns[i]);
            }
            if (!in) continue;
            float l[3];
            for (int i = 0; i < 3; ++i) l[i] = float(e[i]) * inv_area;
            float m[3] = {l[0], l[1], l[2]}; // the weights for depth and colours
            if (fdet != 0) {
                const double qx = double(px) + 0.5 - fx0, qy = double(py) + 0.5 - fy0;
                const double m1 = (qx * fy2 - fx2 * qy) / fdet, m2 = (fx1 * qy - qx * fy1) / fdet;
                m[0] = float(1 - m1 - m2), m[1] = float(m1), m[2] = float(m2);
            }
            // Offsets from vertex 0, so that a depth all three share comes out exact.
            const float z = v[0]->z + m[1] * (v[1]->z - v[0]->z) + m[2] * (v[2]->z - v[0]->z);
            float c[4];
            if (flat) {
                std::copy_n(flat, 4, c);
            } else {
                float p[3];
                for (int i = 0; i < 3; ++i)
                    p[i] = interp_ == Interp::noperspective ? m[i] : m[i] * v[i]->iw;
                // As offsets from vertex 0, so that a colour all three share comes out exact.
                const float s = 1.0f / (p[0] + p[1] + p[2]);
                const float b1 = p[1] * s, b2 = p[2] * s;
                for (int k = 0; k < 4; ++k)
                    c[k] = v[0]->c[k] + b1 * (v[1]->c[k] - v[0]->c[k]) +
                           b2 * (v[2]->c[k] - v[0]->c[k]);
            }
            fragment(int(px), int(py), z, c);
        }
}

namespace {

// llvmpipe's float-to-fixed rounding (util_iround of 256 * a): halves away from zero, the
// sum taken in float.
int64_t snap_fixed(float a) {
    const float f = kOne * a;
    return f >= 0.0f ? int64_t(f + 0.5f) : int64_t(f - 0.5f);
}

float frac(float f) {
    return f - std::floor(f);
}

} // namespace

void RasterBackend::line(const Vertex& a, const Vertex& b, const float* flat) {
    // llvmpipe's line set-up (Mesa 22.3 lp_setup_line.c), as a reference rasterizer: the line
    // becomes a parallelogram `width` pixels across its minor axis (width rounded, at least
    // 1), its two ends moved along the major axis by a diamond-exit test on the end points'
    // positions within their pixels, then rasterized like a triangle with four edges. The
    // float steps are llvmpipe's own, in its order, so that the pixels come out the same.
    for (const Vertex* v : {&a, &b})
        if (!std::isfinite(v->x) || !std::isfinite(v->y) || std::fabs(v->x) > 1e7f ||
            std::fabs(v->y) > 1e7f)
            return;
    auto sign = [](float x) { return x >= 0; };
    const float w = options_.line_width; // GL clamps it to the implementation's range
    const float width = w >= 1.0f ? std::min(w, kMaxLineWidth) : 1.0f;
    const int64_t fixed_width = int64_t(width + 0.5f) << kSubpixelBits;
    const Vertex* v1 = &a;
    const Vertex* v2 = &b;
    float dx = v1->x - v2->x, dy = v1->y - v2->y;
    const float area = dx * dx + dy * dy;
    if (area == 0) return;
    // The attribute planes take the line as it came: value at v1, slope along the major axis.
    const float plane_x0 = v1->x, plane_y0 = v1->y;
    float plane_dx = dx, plane_dy = dy;
    const float one_over_area = 1.0f / area;
    float x_offset = 0, y_offset = 0, x_offset_end = 0, y_offset_end = 0;
    int64_t X[4], Y[4];
    const float x1diff = v1->x - std::floor(v1->x) - 0.5f;
    const float y1diff = v1->y - std::floor(v1->y) - 0.5f;
    float x2diff = v2->x - std::floor(v2->x) - 0.5f;
    float y2diff = v2->y - std::floor(v2->y) - 0.5f;
    if (std::fabs(dx) >= std::fabs(dy)) {
        const float dydx = dy / dx;
        if (y2diff == -0.5f && dy < 0) y2diff = 0.5f;
        bool draw_start, draw_end;
        if (std::fabs(x1diff) + std::fabs(y1diff) < 0.5f)
            draw_start = true;
        else if (sign(x1diff) == sign(-dx))
            draw_start = false;
        else if (sign(-y1diff) != sign(dy))
            draw_start = true;
        else {
            const float yi = frac(v1->y) + x1diff * dydx;
            draw_start = yi < 1.0f && yi > 0.0f;
        }
        if (std::fabs(x2diff) + std::fabs(y2diff) < 0.5f)
            draw_end = false;
        else if (sign(x2diff) != sign(-dx))
            draw_end = false;
        else if (sign(-y2diff) == sign(dy))
            draw_end = true;
        else {
            const float yi = frac(v2->y) + x2diff * dydx;
            draw_end = yi < 1.0f && yi > 0.0f;
        }
        const bool will_draw_start = sign(-x1diff) != sign(dx);
        const bool will_draw_end = sign(x2diff) == sign(-dx) || x2diff == 0;
        plane_dx *= 1 + dydx * dydx;
        plane_dy = 0;
        if (dx < 0) {
            std::swap(v1, v2);
            dx = -dx, dy = -dy;
            if (will_draw_start != draw_start) {
                x_offset_end = -x1diff - 0.5f;
                y_offset_end = x_offset_end * dydx;
            }
            if (will_draw_end != draw_end) {
                x_offset = -x2diff - 0.5f;
                y_offset = x_offset * dydx;
            }
        } else {
            if (will_draw_start != draw_start) {
                x_offset = -x1diff + 0.5f;
                y_offset = x_offset * dydx;
            }
            if (will_draw_end != draw_end) {
                x_offset_end = -x2diff + 0.5f;
                y_offset_end = x_offset_end * dydx;
            }
        }
        X[0] = X[3] = snap_fixed(v1->x + x_offset - 0.5f);
        X[1] = X[2] = snap_fixed(v2->x + x_offset_end - 0.5f);
        const int64_t y1 = snap_fixed(v1->y + y_offset - 0.5f);
        const int64_t y2 = snap_fixed(v2->y + y_offset_end - 0.5f);
        Y[0] = y1 - fixed_width / 2, Y[1] = y2 - fixed_width / 2;
        Y[2] = y2 + fixed_width / 2, Y[3] = y1 + fixed_width / 2;
    } else {
        const float dxdy = dx / dy;
        if (x2diff == -0.5f && dx < 0) x2diff = 0.5f;
        bool draw_start, draw_end;
        if (std::fabs(x1diff) + std::fabs(y1diff) < 0.5f)
            draw_start = true;
        else if (sign(-y1diff) == sign(dy))
            draw_start = false;
        else if (sign(x1diff) != sign(-dx))
            draw_start = true;
        else {
            const float xi = frac(v1->x) + y1diff * dxdy;
            draw_start = xi < 1.0f && xi > 0.0f;
        }
        if (std::fabs(x2diff) + std::fabs(y2diff) < 0.5f)
            draw_end = false;
        else if (sign(-y2diff) != sign(dy))
            draw_end = false;
        else if (sign(x2diff) == sign(-dx))
            draw_end = true;
        else {
            const float xi = frac(v2->x) + y2diff * dxdy;
            draw_end = xi < 1.0f && xi >= 0.0f;
        }
        const bool will_draw_start = sign(y1diff) == sign(dy);
        const bool will_draw_end = sign(-y2diff) == sign(dy) || y2diff == 0;
        plane_dx = 0;
        plane_dy *= 1 + dxdy * dxdy;
        if (dy > 0) {
            std::swap(v1, v2);
            dx = -dx, dy = -dy;
            if (will_draw_start != draw_start) {
                y_offset_end = -y1diff + 0.5f;
                x_offset_end = y_offset_end * dxdy;
            }
            if (will_draw_end != draw_end) {
                y_offset = -y2diff + 0.5f;
                x_offset = y_offset * dxdy;
            }
        } else {
            if (will_draw_start != draw_start) {
                y_offset = -y1diff - 0.5f;
                x_offset = y_offset * dxdy;
            }
            if (will_draw_end != draw_end) {
                y_offset_end = -y2diff - 0.5f;
                x_offset_end = y_offset_end * dxdy;
            }
        }
        const int64_t x1 = snap_fixed(v1->x + x_offset - 0.5f);
        const int64_t x2 = snap_fixed(v2->x + x_offset_end - 0.5f);
        X[0] = x1 - fixed_width / 2, X[1] = x2 - fixed_width / 2;
        X[2] = x2 + fixed_width / 2, X[3] = x1 + fixed_width / 2;
        Y[0] = Y[3] = snap_fixed(v1->y + y_offset - 0.5f);
        Y[1] = Y[2] = snap_fixed(v2->y + y_offset_end - 0.5f);
    }
    // Four edges i -> i + 1, clockwise with y up; a pixel (sampled at its centre, which the
    // half-pixel offset above put on integers) is inside when every edge function is
    // positive, a centre exactly on an edge belonging to it by the same rule as triangles.
    int64_t ex[4], ey[4], c[4];
    for (int i = 0; i < 4; ++i) {
        const int j = (i + 1) % 4;
        ey[i] = Y[i] - Y[j]; // llvmpipe's dcdx
        ex[i] = X[i] - X[j]; // and dcdy
        c[i] = ey[i] * X[i] - ex[i] * Y[i];
        if (ey[i] < 0 || (ey[i] == 0 && (options_.top_edge_rule ? ex[i] < 0 : ex[i] > 0))) ++c[i];
    }
    const int64_t xmin =
        std::max<int64_t>(0, (std::min({X[0], X[1], X[2], X[3]}) >> kSubpixelBits) - 1);
    const int64_t xmax =
        std::min<int64_t>(width_ - 1, (std::max({X[0], X[1], X[2], X[3]}) >> kSubpixelBits) + 1);
    const int64_t ymin =
        std::max<int64_t>(0, (std::min({Y[0], Y[1], Y[2], Y[3]}) >> kSubpixelBits) - 1);
    const int64_t ymax =
        std::min<int64_t>(height_ - 1, (std::max({Y[0], Y[1], Y[2], Y[3]}) >> kSubpixelBits) + 1);
    // Attributes as llvmpipe's line planes: a0 + dadx * px + dady * py at pixel (px, py),
    // varying along the major axis only; perspective ones divided by the interpolated 1 / w.
    const bool persp = interp_ != Interp::noperspective;
    auto plane = [&](float a1, float a2, float& a0, float& dadx, float& dady) {
        const float da21 = a1 - a2;
        dadx = da21 * plane_dx * one_over_area;
        dady = da21 * plane_dy * one_over_area;
        a0 = a1 - (dadx * (plane_x0 - 0.5f) + dady * (plane_y0 - 0.5f));
    };
    // The colour is a + f * (b - a) for f the (perspective) fraction of the way to b, so
    // that a colour both ends share comes out exact, as flat shading needs.
    float z0, zdx, zdy, w0, wdx, wdy, f0, fdx, fdy;
    plane(a.z, b.z, z0, zdx, zdy);
    plane(a.iw, b.iw, w0, wdx, wdy);
    plane(0.0f, persp ? b.iw : 1.0f, f0, fdx, fdy);
    for (int64_t py = ymin; py <= ymax; ++py)
        for (int64_t px = xmin; px <= xmax; ++px) {
            const int64_t sx = px << kSubpixelBits, sy = py << kSubpixelBits;
            bool in = true;
            for (int i = 0; i < 4 && in; ++i) in = c[i] - ey[i] * sx + ex[i] * sy > 0;
            if (!in) continue;
            const float fx = float(px), fy = float(py);
            const float z = z0 + zdx * fx + zdy * fy;
            float col[4];
            if (flat) {
                std::copy_n(flat, 4, col);
            } else {
                const float w = persp ? 1.0f / (w0 + wdx * fx + wdy * fy) : 1.0f;
                const float f = (f0 + fdx * fx + fdy * fy) * w;
                for (int k = 0; k < 4; ++k) col[k] = a.c[k] + f * (b.c[k] - a.c[k]);
            }
            fragment(int(px), int(py), z, col);
        }
}

void RasterBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                  std::span<const uint32_t> elts) {
    decompose_for_raster(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
        // GL's provoking vertex: first or last of the decomposed primitive.
        const uint32_t* pv = vertices.vertex(e[provoking_ == Provoking::last ? n - 1 : 0]);
        if (options_.depth_clamp) {
            const uint32_t vi = viewport_slot_ < 0 ? 0 : pv[viewport_slot_];
            const auto& r = options_.depth_ranges[vi < kMaxViewports ? vi : 0];
            zmin_ = std::min(r[0], r[1]), zmax_ = std::max(r[0], r[1]);
        }
        float flat_c[4];
        const float* flat = nullptr;
        if (options_.colour_by_id) {
            const uint32_t rgba = colour_of(gs_output_ ? pv[SLOT_GS_ID] : pv[SLOT_VERTEX_ID]);
            for (int k = 0; k < 4; ++k) flat_c[k] = float((rgba >> (8 * k)) & 0xFF) / 255.0f;
            flat = flat_c;
        } else if (colour_slot_ < 0 || interp_ == Interp::flat) {
            const Vertex p = fetch(pv);
            std::copy_n(p.c, 4, flat_c);
            flat = flat_c;
        }
        if (n == 3) {
            triangle(fetch(vertices.vertex(e[0])), fetch(vertices.vertex(e[1])),
                     fetch(vertices.vertex(e[2])), flat);
        } else if (n == 2) {
            line(fetch(vertices.vertex(e[0])), fetch(vertices.vertex(e[1])), flat);
        } else {
            // As llvmpipe's legacy GL points (lp_setup_point.c): the position snapped to its
            // 1/256 subpixel grid first, so a point a hair below a pixel boundary (a corner
            // clipping made) lands in the pixel above it; one exactly on a row boundary goes
            // up, or down under top_edge_rule.
            const Vertex p = fetch(vertices.vertex(e[0]));
            const int64_t down = options_.top_edge_rule ? 1 : 0;
            if (std::isfinite(p.x) && std::isfinite(p.y) && std::fabs(p.x) < 1e7f &&
                std::fabs(p.y) < 1e7f)
                fragment(int(snap_fixed(p.x) >> kSubpixelBits),
                         int((snap_fixed(p.y) - down) >> kSubpixelBits), p.z, flat ? flat : p.c);
        }
    });
}

uint64_t RasterBackend::covered_pixels() const {
    return uint64_t(
        std::count_if(pixels_.begin(), pixels_.end(), [&](uint32_t p) { return p != clear_; }));
}

void RasterBackend::write_png(const std::string& path) const {
    // PNG rows run from the top; the image's row 0 is the bottom.
    std::vector<uint32_t> rows(pixels_.size());
    for (uint32_t y = 0; y < height_; ++y)
        std::copy_n(pixels_.data() + size_t(y) * width_, width_,
                    rows.data() + size_t(height_ - 1 - y) * width_);
    write_rgba_png(path, width_, height_, rows);
}

} // namespace drawpipe
