// The raster backend: draws what reached it into an RGBA8 image, so a person can look at
// a draw. Positions (clip space) are divided by w and mapped to the viewport; triangles are
// filled with the top-left rule, lines and points drawn one pixel wide. Flat shading: each
// primitive takes its colour from its provoking vertex's id, as GL's flat interpolation does.
#pragma once

#include "drawpipe/backend.hpp"

#include <string>
#include <vector>

namespace drawpipe {

class RasterBackend final : public Backend {
  public:
    RasterBackend(uint32_t width, uint32_t height);

    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override;
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override;

    void clear(uint32_t rgba = 0xFF000000u);
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    uint32_t pixel(uint32_t x, uint32_t y) const { return pixels_[size_t(y) * width_ + x]; }
    uint64_t covered_pixels() const; // pixels not equal to the clear colour
    // Writes the image as PNG; throws Error on failure.
    void write_png(const std::string& path) const;

  private:
    struct Point {
        float x, y;
    };
    Point to_screen(const uint32_t* v) const;
    void fill_triangle(Point a, Point b, Point c, uint32_t rgba);
    void draw_line(Point a, Point b, uint32_t rgba);
    void plot(int x, int y, uint32_t rgba);

    uint32_t width_, height_;
    uint32_t clear_ = 0xFF000000u;
    std::vector<uint32_t> pixels_;
    Provoking provoking_ = Provoking::last;
    bool gs_output_ = false;
};

} // namespace drawpipe
