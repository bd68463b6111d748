// A middle end around another, for the CLI's instruments (a progress count, a thread tag):
// the name, scratch and counters stay the wrapped one's, and each per-draw object it prepares
// is handed to wrap_draw(), which returns the object that shades in its place.
#pragma once

#include "drawpipe/extend/middle_end.hpp"

#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace drawpipe::cli {

class WrappedMiddleEnd : public MiddleEnd {
  public:
    explicit WrappedMiddleEnd(std::shared_ptr<const MiddleEnd> inner) : inner_(std::move(inner)) {}

    std::string_view name() const override { return inner_->name(); }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const final {
        auto draw = inner_->prepare(state);
        if (!draw) return nullptr;
        return wrap_draw(std::move(draw));
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner_->make_scratch();
    }
    std::span<const std::string_view> counters() const override { return inner_->counters(); }
    std::vector<DerivedFigure> derived(std::span<const uint64_t> c) const override {
        return inner_->derived(c);
    }

  protected:
    virtual std::shared_ptr<const MiddleEndDraw>
    wrap_draw(std::shared_ptr<const MiddleEndDraw> draw) const = 0;

  private:
    std::shared_ptr<const MiddleEnd> inner_;
};

} // namespace drawpipe::cli
