// A pipeline stage for pictures that explain splitting: each triangle is coloured by the
// segment it came from.
#pragma once

#include "drawpipe/stage.hpp"

namespace drawpipe::cli {

// Colours each triangle by the segment it came from, so the picture shows how the front end
// split the mesh: the stages see one flush per batch, and a batch is one segment.
class SegmentColours final : public Stage {
  public:
    explicit SegmentColours(uint32_t varying) : varying_(varying) {}
    void begin_draw(const StageDraw& draw) override {
        segment_ = 0;
        Stage::begin_draw(draw);
    }
    void point(const StagePrim& p) override { next()->point(p); }
    void line(const StagePrim& p) override { next()->line(p); }
    void triangle(const StagePrim& p) override {
        // A well-spread colour per segment, in the colour varying of every vertex.
        uint32_t h = (segment_ + 1) * 0x9E3779B1u;
        h ^= h >> 15;
        const float rgb[3] = {0.25f + float(h & 0xFF) / 340.0f,
                              0.25f + float((h >> 8) & 0xFF) / 340.0f,
                              0.25f + float((h >> 16) & 0xFF) / 340.0f};
        StagePrim out = p;
        for (uint32_t i = 0; i < 3; ++i) {
            uint32_t* v = new_vertex(p.v[i]);
            const uint32_t slot = draw_.layout->varying_slot(varying_);
            for (uint32_t c = 0; c < 3; ++c) v[slot + c] = float_dword(rgb[c]);
            v[slot + 3] = float_dword(1.0f);
            out.v[i] = v;
        }
        next()->triangle(out);
    }
    void flush() override {
        ++segment_;
        Stage::flush();
    }

  private:
    uint32_t varying_;
    uint32_t segment_ = 0;
};

} // namespace drawpipe::cli
