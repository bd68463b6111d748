// fuzz_render: bytes -> parse_draw_text -> render_description (clip, viewport, the stages the
// description's state asks for, the raster backend) on a small image: once through
// fetch_shade at its own limit on one thread, and once through a middle end, strategy, limit
// and thread count picked from the input's hash. A parse or draw Error is an expected outcome
// for bad text (a middle end may decline a draw); a crash, a sanitizer report, a hang, an
// exception of another type, or two images that differ is a bug.
#include "fuzz/fuzz_common.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "tools/render_desc.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace drawpipe;

namespace {

constexpr uint64_t kMaxWork = 4096; // vertices x instances
constexpr uint64_t kMaxVertexIds = 4096;
constexpr uint32_t kImage = 24;

const char* const kMiddleEnds[] = {"fetch_shade", "fetch_shade_simd", "a4xx", "gen7", "mali"};
const char* const kStrategies[] = {"distinct", "vsplit", "direct-64", "exact", "none"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::optional<DrawDesc> parsed = fuzz::parse_or_nothing(text);
    if (!parsed) return 0;
    const DrawDesc& d = *parsed;
    // The renderer stores a value for every vertex id up to the largest the draw reads.
    if (!fuzz::cheap_enough(d, kMaxWork, kMaxWork) || cli::vertex_span(d) > kMaxVertexIds)
        return -1;
    cli::DescRender reference;
    reference.width = reference.height = kImage;
    std::optional<RasterBackend> want;
    try {
        reference.gs = fuzz::gs_of(d);
        want.emplace(cli::render_description(d, reference));
    } catch (const Error&) {
        return 0;
    }
    const size_t h = std::hash<std::string_view>{}(text);
    cli::DescRender variant = reference;
    variant.middle_end = kMiddleEnds[h % 5];
    variant.strategy = *Strategy::parse(kStrategies[(h / 5) % 5]);
    variant.max_vertices = uint32_t(h / 25 % 2 ? 0 : 4 + (h / 50) % 29);
    variant.threads = uint32_t(1 + (h / 2000) % 2);
    // The variant's SIMD kernels at every level this CPU runs, in turn (the reference's
    // middle end may be the vectorised one too: it ran at the best level).
    static const std::vector<std::string> levels = simd_targets();
    pin_simd_target(levels[(h / 4000) % levels.size()]);
    std::optional<RasterBackend> got;
    try {
        got.emplace(cli::render_description(d, variant));
    } catch (const Error&) {
        pin_simd_target("");
        return 0; // the middle end declined the draw, or the limit is too small for it
    }
    pin_simd_target("");
    for (uint32_t y = 0; y < kImage; ++y)
        for (uint32_t x = 0; x < kImage; ++x)
            if (want->pixel(x, y) != got->pixel(x, y)) {
                std::fprintf(stderr,
                             "pixel (%u, %u) is %08X through fetch_shade and %08X through %s, "
                             "strategy %s, limit %u, %u threads:\n%.*s\n",
                             x, y, want->pixel(x, y), got->pixel(x, y), variant.middle_end.c_str(),
                             kStrategies[(h / 5) % 5], variant.max_vertices, variant.threads,
                             int(size), reinterpret_cast<const char*>(data));
                std::abort();
            }
    return 0;
}
