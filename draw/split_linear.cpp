// Non-indexed draws (draw/internal/split_linear.hpp).
#include "draw/internal/split_linear.hpp"

namespace drawpipe::detail {

Splitter& linear_splitter(SplitterPool& pool, const SplitParams& p) {
    return pool.make<LinearSplitter>(p);
}

} // namespace drawpipe::detail
