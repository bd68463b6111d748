#include "middle_ends/builtin.hpp"

#include "draw/registry.hpp"
#include "middle_ends/fetch_shade/fetch_shade.hpp"

#include <mutex>

namespace drawpipe {

void register_builtin_middle_ends() {
    static std::once_flag once;
    std::call_once(once, [] {
        MiddleEndRegistry& r = MiddleEndRegistry::global();
        // One line per middle end.
        r.add("fetch_shade", "GL-semantics reference: fetch, shade, emit", [] { return std::make_unique<FetchShade>(); });
    });
}

} // namespace drawpipe
