#include "drawpipe/extend/draw_segments.hpp"

#include "draw/pipeline/prepared_draw.hpp"

#include <utility>

namespace drawpipe {

// The prepared draw stays here: the source hands out segments that point into it.
struct DrawSegments::Impl {
    PreparedDraw draw;
    SegmentSource source;
    SegmentStorage storage;
    bool begun = false; // a draw is in progress (false before the first begin, or a failed one)

    Impl() = default;
    explicit Impl(PreparedDraw prepared) { begin(std::move(prepared)); }
    void begin(PreparedDraw prepared) {
        draw = std::move(prepared);
        source.begin(draw);
        begun = true;
    }
};

DrawSegments::DrawSegments() : impl_(std::make_unique<Impl>()) {}

DrawSegments::DrawSegments(const DrawState& state, const MiddleEnd& middle,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_draw(state, middle, options))) {}

DrawSegments::DrawSegments(const DrawInfo& draw, const MiddleEndLimits& limits,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_split(draw, limits, options, "(limits)"))) {}

DrawSegments::~DrawSegments() = default;

void DrawSegments::begin(const DrawInfo& draw, const MiddleEndLimits& limits,
                         const DrawOptions& options) {
    Impl& m = *impl_;
    m.begun = false;
    prepare_split_into(m.draw, draw, limits, options, "(limits)");
    m.source.begin(m.draw);
    m.begun = true;
}

bool DrawSegments::next(Segment& seg) {
    return impl_->begun && impl_->source.next(impl_->storage, seg);
}

const FrontEndStats& DrawSegments::stats() const {
    return impl_->source.stats();
}

} // namespace drawpipe
