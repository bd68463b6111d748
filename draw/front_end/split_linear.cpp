// Non-indexed draws (draw/front_end/split_linear.hpp).
#include "draw/front_end/split_linear.hpp"

namespace drawpipe::detail {

Splitter& linear_splitter(SplitterPool& pool, const SplitParams& p) {
    return pool.make<LinearSplitter>(p);
}

} // namespace drawpipe::detail
