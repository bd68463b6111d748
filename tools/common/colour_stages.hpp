// Pipeline stages for pictures that explain what the pipeline did: each triangle coloured by
// the segment it came from, the instance that drew it, or the thread whose middle end shaded
// it. Each colour is read from what the pipeline handed on (its batches, the instance id in
// every vertex record, a tag the middle end's thread wrote), never worked out on the side.
#pragma once

#include "drawpipe/error.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/stage.hpp"
#include "tools/common/wrapped_middle_end.hpp"

#include <oneapi/tbb/task_arena.h>

#include <array>
#include <cmath>
#include <memory>
#include <set>

namespace drawpipe::cli {

// Colour number `key` of a palette whose neighbours are far apart: hues a golden angle apart
// (keys 0, 1, 2 are red, blue, green), fairly saturated. Each channel is a whole number of
// 255ths, so that the raster backend interpolating three equal colours rounds back to the same
// bytes: a picture holds exactly one colour per key.
inline std::array<float, 3> key_colour(uint32_t key) {
    const double h = std::fmod(double(key) * 0.6180339887498949, 1.0) * 6.0;
    const double s = 0.7, v = 0.95;
    const double f = h - std::floor(h), p = v * (1 - s), q = v * (1 - s * f),
                 t = v * (1 - s * (1 - f));
    std::array<double, 3> rgb;
    switch (int(h) % 6) {
    case 0:
        rgb = {v, t, p};
        break;
    case 1:
        rgb = {q, v, p};
        break;
    case 2:
        rgb = {p, v, t};
        break;
    case 3:
        rgb = {p, q, v};
        break;
    case 4:
        rgb = {t, p, v};
        break;
    default:
        rgb = {v, p, q};
        break;
    }
    return {float(std::lround(rgb[0] * 255)) / 255.0f, float(std::lround(rgb[1] * 255)) / 255.0f,
            float(std::lround(rgb[2] * 255)) / 255.0f};
}

// Colours each triangle by a key (key()) in the colour varying of its vertices, and counts the
// keys it met. Points and lines pass unchanged. `lit`: each vertex's key colour is multiplied by
// the colour it arrived with (a lit grey), so the picture keeps the mesh's shading; otherwise
// the key colours replace it, exactly one colour per key.
class KeyColours : public Stage {
  public:
    explicit KeyColours(uint32_t colour_varying, bool lit = false)
        : varying_(colour_varying), lit_(lit) {}
    // Distinct keys of the triangles coloured so far: segments, instances or threads.
    size_t keys_seen() const { return seen_.size(); }
    // Those keys, in increasing order: for the picture's legend.
    const std::set<uint32_t>& keys() const { return seen_; }

    void point(const StagePrim& p) override { next()->point(p); }
    void line(const StagePrim& p) override { next()->line(p); }
    void triangle(const StagePrim& p) override {
        const uint32_t k = key(p);
        if (seen_.empty() || k != last_) seen_.insert(k), last_ = k;
        const std::array<float, 3> rgb = key_colour(k);
        const uint32_t slot = draw_.layout->varying_slot(varying_);
        StagePrim out = p;
        for (uint32_t i = 0; i < 3; ++i) {
            uint32_t* v = new_vertex(p.v[i]);
            for (uint32_t c = 0; c < 3; ++c)
                v[slot + c] = float_dword(lit_ ? rgb[c] * dword_float(v[slot + c]) : rgb[c]);
            v[slot + 3] = float_dword(1.0f);
            out.v[i] = v;
        }
        next()->triangle(out);
    }

  protected:
    virtual uint32_t key(const StagePrim& p) const = 0;

  private:
    uint32_t varying_;
    bool lit_;
    std::set<uint32_t> seen_;
    uint32_t last_ = 0;
};

// By the segment a triangle came from, so the picture shows how the front end split the mesh:
// the stages see one flush per batch, and a batch is one segment.
class SegmentColours final : public KeyColours {
  public:
    using KeyColours::KeyColours;
    void begin_draw(const StageDraw& draw) override {
        segment_ = 0;
        Stage::begin_draw(draw);
    }
    void flush() override {
        ++segment_;
        Stage::flush();
    }

  private:
    uint32_t key(const StagePrim&) const override { return segment_; }
    uint32_t segment_ = 0;
};

// By instance: the 0-based instance id the front end wrote into every vertex record's header
// (clipping copies it into the vertices it makes).
class InstanceColours final : public KeyColours {
  public:
    using KeyColours::KeyColours;

  private:
    uint32_t key(const StagePrim& p) const override { return p.v[0][SLOT_INSTANCE_ID]; }
};

// By the pipeline thread that shaded the triangle's segment: the tag ThreadTagMiddleEnd wrote
// into the flat varying `tag_varying` of every vertex (clipping copies a flat varying from the
// provoking vertex).
class ThreadColours final : public KeyColours {
  public:
    ThreadColours(uint32_t colour_varying, uint32_t tag_varying, bool lit = false)
        : KeyColours(colour_varying, lit), tag_(tag_varying) {}

  private:
    uint32_t key(const StagePrim& p) const override {
        return p.v[0][draw_.layout->varying_slot(tag_)];
    }
    uint32_t tag_;
};

// A middle end around another: each segment is shaded by the wrapped one, then every vertex of
// its batch gets, in its varying `tag_varying`, the index of the thread that ran shade() (its
// slot in the context's task arena: 0 .. threads - 1; the calling thread is 0, and so is
// everything a one-thread context or an inline flush draws). The name, limits, layout,
// scratch and counters stay the wrapped middle end's.
class ThreadTagMiddleEnd final : public WrappedMiddleEnd {
  public:
    ThreadTagMiddleEnd(std::shared_ptr<const MiddleEnd> inner, uint32_t tag_varying)
        : WrappedMiddleEnd(std::move(inner)), tag_(tag_varying) {}

  private:
    std::shared_ptr<const MiddleEndDraw>
    wrap_draw(std::shared_ptr<const MiddleEndDraw> draw) const override {
        if (tag_ >= draw->layout().varying_count())
            throw Error(ErrorCode::invalid_value,
                        "ThreadTagMiddleEnd: the shader declares no varying " +
                            std::to_string(tag_));
        return std::make_shared<Draw>(std::move(draw), tag_);
    }

    class Draw final : public MiddleEndDraw {
      public:
        Draw(std::shared_ptr<const MiddleEndDraw> inner, uint32_t tag)
            : MiddleEndDraw(inner->limits(), inner->layout()), inner_(std::move(inner)),
              slot_(layout().varying_slot(tag)) {}
        void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override {
            inner_->shade(seg, scratch, out);
            const int slot = tbb::this_task_arena::current_thread_index();
            const uint32_t thread = slot < 0 ? 0 : uint32_t(slot);
            const uint32_t stride = layout().stride();
            for (uint32_t v = 0; v < out.vertex_count; ++v)
                out.vertices[size_t(v) * stride + slot_] = thread;
        }

      private:
        std::shared_ptr<const MiddleEndDraw> inner_;
        uint32_t slot_;
    };

    uint32_t tag_;
};

} // namespace drawpipe::cli
