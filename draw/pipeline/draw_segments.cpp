#include "drawpipe/extend/draw_segments.hpp"

#include "draw/pipeline/prepared_draw.hpp"

#include <utility>

namespace drawpipe {

// The prepared draw stays here: the source hands out segments that point into it.
struct DrawSegments::Impl {
    PreparedDraw draw;
    SegmentSource source;
    SegmentStorage storage;

    explicit Impl(PreparedDraw prepared) : draw(std::move(prepared)) { source.begin(draw); }
};

DrawSegments::DrawSegments(const DrawState& state, const MiddleEnd& middle,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_draw(state, middle, options))) {}

DrawSegments::DrawSegments(const DrawInfo& draw, const MiddleEndLimits& limits,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_split(draw, limits, options, "(limits)"))) {}

DrawSegments::~DrawSegments() = default;

bool DrawSegments::next(Segment& seg) {
    return impl_->source.next(impl_->storage, seg);
}

const FrontEndStats& DrawSegments::stats() const {
    return impl_->source.stats();
}

} // namespace drawpipe
