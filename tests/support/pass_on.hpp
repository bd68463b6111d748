// A driver stage that hands everything on unchanged: its presence makes a Context run the
// pipeline stages over every batch, in the ordered sink (a driver stage that cannot be copied
// keeps the chain there), the path other ways of running the stages are checked against.
#pragma once

#include "drawpipe/extend/stage.hpp"

namespace drawpipe::test {

class PassOn final : public Stage {
  public:
    void point(const StagePrim& p) override { next()->point(p); }
    void line(const StagePrim& p) override { next()->line(p); }
    void triangle(const StagePrim& p) override { next()->triangle(p); }
};

} // namespace drawpipe::test
