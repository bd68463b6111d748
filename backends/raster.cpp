#include "drawpipe/backends/raster.hpp"

#include "drawpipe/decompose.hpp"
#include "drawpipe/error.hpp"

// stb's writer is compiled here, static, so it cannot clash with a driver's own copy.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
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
        owns[i] = ey[i] < 0 || (ey[i] == 0 && ex[i] > 0);
    }
    const float inv_area = 1.0f / float(area);
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
            // Offsets from vertex 0, so that a depth all three share comes out exact.
            const float z = v[0]->z + l[1] * (v[1]->z - v[0]->z) + l[2] * (v[2]->z - v[0]->z);
            float c[4];
            if (flat) {
                std::copy_n(flat, 4, c);
            } else {
                float p[3];
                for (int i = 0; i < 3; ++i)
                    p[i] = interp_ == Interp::noperspective ? l[i] : l[i] * v[i]->iw;
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

void RasterBackend::line(const Vertex& a0, const Vertex& b0, const float* flat) {
    // Ends snapped to the subpixel grid triangles use.
    auto snap = [](Vertex v) {
        if (std::fabs(v.x) < 1e7f && std::fabs(v.y) < 1e7f) {
            v.x = float(std::llround(v.x * kOne)) / kOne;
            v.y = float(std::llround(v.y * kOne)) / kOne;
        }
        return v;
    };
    const Vertex a = snap(a0), b = snap(b0);
    const float dx = b.x - a.x, dy = b.y - a.y;
    if (!std::isfinite(dx) || !std::isfinite(dy) || (dx == 0 && dy == 0) || std::fabs(a.x) > 1e7f ||
        std::fabs(a.y) > 1e7f || std::fabs(b.x) > 1e7f || std::fabs(b.y) > 1e7f)
        return;
    // GL's diamond-exit rule: pixel (px, py) is drawn when the segment meets the open diamond
    // |x - cx| + |y - cy| < 1/2 around its centre and does not end inside it. The distance
    // along the segment is convex and piecewise linear in t, so its minimum is at an end or
    // where the segment crosses the diamond's x or y axis.
    auto dist = [&](float t, float cx, float cy) {
        return std::fabs(a.x + t * dx - cx) + std::fabs(a.y + t * dy - cy);
    };
    auto exits = [&](int px, int py, float& t_hit) {
        const float cx = float(px) + 0.5f, cy = float(py) + 0.5f;
        if (dist(1, cx, cy) < 0.5f) return false; // ends inside: not exited
        float best = dist(0, cx, cy);
        t_hit = 0;
        for (const float t : {dx != 0 ? (cx - a.x) / dx : -1.0f, dy != 0 ? (cy - a.y) / dy : -1.0f})
            if (t > 0 && t <= 1 && dist(t, cx, cy) < best) best = dist(t, cx, cy), t_hit = t;
        return best < 0.5f;
    };
    const bool xmajor = std::fabs(dx) >= std::fabs(dy);
    const float a_major = xmajor ? a.x : a.y, b_major = xmajor ? b.x : b.y;
    const int limit = int(xmajor ? width_ : height_), other = int(xmajor ? height_ : width_);
    const int first = std::max(0, int(std::floor(std::min(a_major, b_major))) - 1);
    const int last = std::min(limit - 1, int(std::floor(std::max(a_major, b_major))) + 1);
    for (int m = first; m <= last; ++m) {
        // The segment's minor coordinate at this row or column's centre, clamped to the segment.
        const float d_major = xmajor ? dx : dy;
        const float t_c = std::clamp((float(m) + 0.5f - a_major) / d_major, 0.0f, 1.0f);
        const int n0 = int(std::floor(xmajor ? a.y + t_c * dy : a.x + t_c * dx));
        for (int n = n0 - 1; n <= n0 + 1; ++n) {
            if (n < 0 || n >= other) continue;
            const int px = xmajor ? m : n, py = xmajor ? n : m;
            float t_hit;
            if (!exits(px, py, t_hit)) continue;
            // Attributes vary along the major axis only, as llvmpipe's line set-up has them,
            // extrapolated past an end the way its plane equations are.
            const float t = (float(m) + 0.5f - a_major) / d_major;
            const float z = a.z + t * (b.z - a.z);
            float c[4];
            if (flat) {
                std::copy_n(flat, 4, c);
            } else {
                const float pa = interp_ == Interp::noperspective ? 1 - t : (1 - t) * a.iw;
                const float pb = interp_ == Interp::noperspective ? t : t * b.iw;
                const float f = pb / (pa + pb);
                for (int k = 0; k < 4; ++k) c[k] = a.c[k] + f * (b.c[k] - a.c[k]);
            }
            fragment(px, py, z, c);
        }
    }
}

void RasterBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                  std::span<const uint32_t> elts) {
    decompose_for_raster(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
        // GL's provoking vertex: first or last of the decomposed primitive.
        const uint32_t* pv = vertices.vertex(e[provoking_ == Provoking::last ? n - 1 : 0]);
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
            const Vertex p = fetch(vertices.vertex(e[0]));
            if (std::isfinite(p.x) && std::isfinite(p.y) && std::fabs(p.x) < 1e7f &&
                std::fabs(p.y) < 1e7f)
                fragment(int(std::floor(p.x)), int(std::floor(p.y)), p.z, flat ? flat : p.c);
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
    // Encoded in memory, then written here: stb's own file writer does not report a failed
    // write (a full disk), and a picture that was not written must not pass for one.
    std::vector<unsigned char> png;
    const auto append = [](void* to, void* data, int size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        static_cast<std::vector<unsigned char>*>(to)->insert(
            static_cast<std::vector<unsigned char>*>(to)->end(), bytes, bytes + size);
    };
    if (!stbi_write_png_to_func(append, &png, int(width_), int(height_), 4, rows.data(),
                                int(width_ * 4)))
        throw Error(ErrorCode::invalid_value, "png: cannot encode '" + path + "'");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw Error(ErrorCode::io_error, "png '" + path + "': " + std::strerror(errno));
    errno = 0;
    const bool wrote = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    const int write_error = errno;
    const bool closed = std::fclose(f) == 0; // flushes: a full disk may show only here
    if (!wrote || !closed)
        throw Error(ErrorCode::io_error,
                    "png '" + path + "': " + std::strerror(wrote ? errno : write_error));
}

} // namespace drawpipe
