#include "tools/legend.hpp"

#include "drawpipe/error.hpp"
#include "tools/common/files.hpp"

// Both compiled here, file-local: backends/png.cpp has its own copy of the PNG writer.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_easy_font.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

namespace drawpipe::cli {

namespace {

// RGBA8 rows, top row first, as the PNG stores them.
struct Canvas {
    uint32_t width, height;
    std::vector<uint32_t> px;

    // Blends `rgb` over the rectangle at `alpha` (0..1), clipped to the canvas.
    void fill(double x0, double y0, double x1, double y1, std::array<float, 3> rgb,
              float alpha = 1.0f) {
        const auto cx0 = uint32_t(std::clamp(std::lround(x0), 0L, long(width)));
        const auto cx1 = uint32_t(std::clamp(std::lround(x1), 0L, long(width)));
        const auto cy0 = uint32_t(std::clamp(std::lround(y0), 0L, long(height)));
        const auto cy1 = uint32_t(std::clamp(std::lround(y1), 0L, long(height)));
        for (uint32_t y = cy0; y < cy1; ++y)
            for (uint32_t x = cx0; x < cx1; ++x) {
                uint32_t& p = px[size_t(y) * width + x];
                uint32_t out = 0xFF000000u; // opaque: the key reads the same on any viewer
                for (int c = 0; c < 3; ++c) {
                    const float under = float((p >> (8 * c)) & 0xFF) / 255.0f;
                    const float v = rgb[size_t(c)] * alpha + under * (1 - alpha);
                    out |= uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)) << (8 * c);
                }
                p = out;
            }
    }

    // Text with its top left at (x, y), `scale` canvas pixels per font pixel.
    void text(double x, double y, const std::string& s, int scale, std::array<float, 3> rgb) {
        std::vector<char> str(s.begin(), s.end());
        str.push_back('\0');
        std::vector<char> quads(str.size() * 300 + 64);
        const int n =
            stb_easy_font_print(0, 0, str.data(), nullptr, quads.data(), int(quads.size()));
        // Each quad is 4 vertices of x, y, z (floats) and an RGBA colour: 16 bytes.
        for (int q = 0; q < n; ++q) {
            float vx[4], vy[4];
            for (int v = 0; v < 4; ++v) {
                std::memcpy(&vx[v], quads.data() + (q * 4 + v) * 16, 4);
                std::memcpy(&vy[v], quads.data() + (q * 4 + v) * 16 + 4, 4);
            }
            fill(x + *std::min_element(vx, vx + 4) * scale,
                 y + *std::min_element(vy, vy + 4) * scale,
                 x + *std::max_element(vx, vx + 4) * scale,
                 y + *std::max_element(vy, vy + 4) * scale, rgb);
        }
    }
};

int text_width(const std::string& s) {
    std::vector<char> str(s.begin(), s.end());
    str.push_back('\0');
    return stb_easy_font_width(str.data());
}

// Font pixels per canvas pixel: readable at 1024 wide without covering much of the picture.
int scale_for(uint32_t width) {
    return width >= 1800 ? 3 : width >= 640 ? 2 : 1;
}

// The scale for `lines` on a canvas `width` wide: smaller when a line would not fit.
int scale_for(uint32_t width, const std::vector<std::string>& lines) {
    int s = scale_for(width);
    for (const std::string& l : lines)
        while (s > 1 && double(text_width(l) * s + 8 * s) > double(width)) --s;
    return s;
}

} // namespace

uint32_t legend_reserve(uint32_t width, size_t lines) {
    const int s = scale_for(width);
    return uint32_t((lines + 2) * 11 * s + 8 * s);
}

void write_png_with_legend(const RasterBackend& image, const Legend& legend,
                           const std::string& path, const std::string& option) {
    Canvas c{image.width(), image.height(), {}};
    c.px.resize(size_t(c.width) * c.height);
    for (uint32_t y = 0; y < c.height; ++y)
        for (uint32_t x = 0; x < c.width; ++x)
            c.px[size_t(c.height - 1 - y) * c.width + x] = image.pixel(x, y);

    const int s = scale_for(c.width, legend.lines);
    const double pad = 4.0 * s, line_h = 11.0 * s, swatch = 8.0 * s;
    const std::array<float, 3> white{1, 1, 1}, panel{0.08f, 0.08f, 0.1f};
    if (legend.caption && !legend.lines.empty()) {
        const std::string& t = legend.lines.front();
        const double w = text_width(t) * s + 2 * pad, top = c.height - line_h - 2 * pad;
        c.fill(0, top, w, c.height, panel, 0.8f);
        c.text(pad, top + pad + s, t, s, white);
    } else if (!legend.lines.empty()) {
        // The box: every line, then the swatches in rows that fit the box's width.
        double w = 0;
        for (const std::string& l : legend.lines) w = std::max(w, double(text_width(l)) * s);
        w = std::min(w, double(c.width) - 2 * pad);
        std::vector<double> item_w;
        for (const std::string& label : legend.swatch_labels)
            item_w.push_back(swatch + 3.0 * s + text_width(label) * s + 8.0 * s);
        const double more_w = legend.more.empty() ? 0 : text_width(legend.more) * s;
        uint32_t rows = item_w.empty() ? 0 : 1;
        double at = 0;
        for (const double iw : item_w) {
            if (at > 0 && at + iw > w) ++rows, at = 0;
            at += iw;
        }
        if (!legend.more.empty() && at + more_w > w) ++rows;
        const double h = double(legend.lines.size() + rows) * line_h + 2 * pad;
        c.fill(0, 0, w + 2 * pad, h, panel, 0.8f);
        double y = pad + s;
        for (const std::string& l : legend.lines) {
            c.text(pad, y, l, s, white);
            y += line_h;
        }
        double x = pad;
        for (size_t i = 0; i < item_w.size(); ++i) {
            if (x > pad && x + item_w[i] > pad + w) x = pad, y += line_h;
            c.fill(x, y - s, x + swatch, y - s + swatch, legend.swatch_colours[i]);
            c.text(x + swatch + 3.0 * s, y, legend.swatch_labels[i], s, white);
            x += item_w[i];
        }
        if (!legend.more.empty()) {
            if (x > pad && x + more_w > pad + w) x = pad, y += line_h;
            c.text(x, y, legend.more, s, white);
        }
    }

    // Encoded in memory, then written whole: a failed write (a full disk) is reported.
    std::string png;
    const auto append = [](void* to, void* data, int size) {
        static_cast<std::string*>(to)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, int(c.width), int(c.height), 4, c.px.data(),
                                int(c.width * 4)))
        throw Error(ErrorCode::io_error, option + " '" + path + "': cannot encode the PNG");
    write_output_file(path, option, png);
}

} // namespace drawpipe::cli
