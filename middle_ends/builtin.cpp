#include "drawpipe/middle_ends.hpp"

#include "drawpipe/registry.hpp"
#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "middle_ends/mali/mali_middle_end.hpp"

#include <memory>
#include <mutex>

namespace drawpipe {

void register_builtin_middle_ends() {
    static std::once_flag once;
    std::call_once(once, [] {
        MiddleEndRegistry& r = MiddleEndRegistry::global();
        // One line per middle end; fetch_shade is always registered by the library itself.
        r.add("gen7", "Intel gen7 GS: URB entries with a cut-bit / stream-id control header",
              std::make_shared<gen7::Gen7MiddleEnd>());
        r.add("a4xx",
              "Adreno A4xx GS: one launch per output vertex ended by a kill (switch-rewritten when "
              "independent)",
              std::make_shared<a4xx::A4xxMiddleEnd>());
        r.add("a4xx_naive", "Adreno A4xx GS, every launch re-executes the shader up to its vertex",
              std::make_shared<a4xx::A4xxMiddleEnd>(a4xx::Mode::naive));
        r.add("mali", "Mali instanced fetch: padded counts, magic divisors, thread dispatch",
              std::make_shared<mali::MaliMiddleEnd>());
    });
}

} // namespace drawpipe
