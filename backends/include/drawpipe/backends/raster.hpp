// The raster backend: draws points, lines and triangles into an RGBA8 image with GL's
// rasterization rules, so a driver can render with drawpipe and compare with OpenGL.
//
// With a RasterState bound (drawpipe/raster_state.hpp) positions arrive in window
// coordinates: pixel centres at half-integers, triangles filled by edge functions in 8-bit
// subpixel fixed point with a tie rule for centres on an edge, lines as llvmpipe sets them up
// (a parallelogram `RasterOptions::line_width` pixels across the minor axis whose ends follow
// the diamond-exit rule, attributes varying along the major axis), width-1 points at the
// pixel holding them. The colour is a generic output (smooth: perspective-correct,
// noperspective: linear, flat: the provoking vertex's), rounded to 8 bits per channel; an
// optional depth buffer tests GL_LESS. Without a RasterState, `clip_space` maps positions
// divided by w to the whole image (no clipping), as a quick look at a draw.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/limits.hpp"

#include <array>
#include <string>
#include <vector>

namespace drawpipe {

struct RasterOptions {
    bool clip_space = false;    // positions are clip space: divide by w, map to the whole image
    bool colour_by_id = false;  // a hashed colour per provoking vertex (or GS output) id
    int32_t colour_varying = 0; // the generic output read as RGBA; absent: opaque white
    bool depth_test = false;    // GL_LESS against a depth buffer cleared to 1
    // The width lines are drawn at, as llvmpipe draws them natively (rounded, at least 1).
    // A driver drawing wide lines here sets RasterState::wide_line_threshold at or above it,
    // so that the wide-line stage hands them on whole.
    float line_width = 1.0f;
    // GL_DEPTH_CLAMP (RasterState::depth_clamp, which leaves near and far unclipped): each
    // fragment's depth is clamped to [min, max] of its primitive's depth range,
    // depth_ranges[i] for i the viewport index of its provoking vertex (0 when the layout has
    // none or i >= kMaxViewports; a driver repeats viewport 0's range past its viewport count)
    // instead of [0, 1].
    bool depth_clamp = false;
    // A pixel centre exactly on a horizontal edge belongs to the primitive's bottom edges
    // (y up), or with top_edge_rule to its top edges: llvmpipe flips its rule so under
    // glClipControl's upper_left (Mesa's state tracker flips the rasterizer's
    // bottom_edge_rule), for triangles and lines alike; drawpipe's wide-point stage follows
    // RasterState::clip_origin. A driver drawing a Vulkan picture sets it too.
    bool top_edge_rule = false;
    std::array<std::array<float, 2>, kMaxViewports> depth_ranges = full_depth_ranges();

    static std::array<std::array<float, 2>, kMaxViewports> full_depth_ranges() {
        std::array<std::array<float, 2>, kMaxViewports> r;
        r.fill({0.0f, 1.0f});
        return r;
    }
};

class RasterBackend final : public Backend {
  public:
    RasterBackend(uint32_t width, uint32_t height, const RasterOptions& options = {});

    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override;
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override;

    // RGBA8 as bytes R, G, B, A in memory (0xAABBGGRR); depth to 1.
    void clear(uint32_t rgba = 0);
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    // Row y = 0 is the bottom row, as in OpenGL.
    uint32_t pixel(uint32_t x, uint32_t y) const { return pixels_[size_t(y) * width_ + x]; }
    // The depth buffer (1 where nothing passed, and everywhere without depth_test).
    float depth(uint32_t x, uint32_t y) const { return depth_[size_t(y) * width_ + x]; }
    uint64_t covered_pixels() const; // pixels not equal to the clear colour
    // Writes the image as PNG, top row first; throws Error(io_error) with the OS's reason when
    // the file cannot be opened or written whole (a full disk included).
    void write_png(const std::string& path) const;

  private:
    struct Vertex {
        float x, y, z, iw; // window coordinates, 1 / w
        float c[4];        // colour
    };
    Vertex fetch(const uint32_t* v) const;
    void triangle(const Vertex& a, const Vertex& b, const Vertex& c, const float* flat);
    void line(const Vertex& a, const Vertex& b, const float* flat);
    void fragment(int x, int y, float z, const float* c);

    uint32_t width_, height_;
    RasterOptions options_;
    uint32_t clear_ = 0;
    std::vector<uint32_t> pixels_;
    std::vector<float> depth_;
    Provoking provoking_ = Provoking::last;
    bool gs_output_ = false;
    int32_t colour_slot_ = -1;        // record dword of the colour output, -1: white
    int32_t viewport_slot_ = -1;      // record dword of the viewport index, -1: none
    float zmin_ = 0.0f, zmax_ = 1.0f; // the current primitive's fragment depth range
    Interp interp_ = Interp::smooth;
};

} // namespace drawpipe
