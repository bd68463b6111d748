#include "drawpipe/middle_ends.hpp"

#include "drawpipe/registry.hpp"
#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"
#include "drawpipe/fetch_shade.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "middle_ends/mali/mali_middle_end.hpp"

#include <mutex>

namespace drawpipe {

void register_builtin_middle_ends() {
    static std::once_flag once;
    std::call_once(once, [] {
        MiddleEndRegistry& r = MiddleEndRegistry::global();
        // One line per middle end.
        r.add("fetch_shade", "GL-semantics reference: fetch, shade, emit",
              [] { return std::make_unique<FetchShade>(); });
        r.add("gen7", "Intel gen7 GS: URB entries with a cut-bit / stream-id control header",
              [] { return std::make_unique<gen7::Gen7MiddleEnd>(); });
        r.add("a4xx",
              "Adreno A4xx GS: one run per output vertex ended by a kill (switch-rewritten when "
              "independent)",
              [] { return std::make_unique<a4xx::A4xxMiddleEnd>(); });
        r.add("a4xx_naive", "Adreno A4xx GS, every run re-executes the shader up to its vertex",
              [] { return std::make_unique<a4xx::A4xxMiddleEnd>(a4xx::Mode::naive); });
        r.add("mali", "Mali instanced fetch: padded counts, magic divisors, thread dispatch",
              [] { return std::make_unique<mali::MaliMiddleEnd>(); });
    });
}

} // namespace drawpipe
