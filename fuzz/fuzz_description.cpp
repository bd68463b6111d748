// fuzz_description: bytes -> parse_draw_text -> bind_draw -> draw_serial (fetch_shade, trace
// backend). A parse or draw Error is an expected outcome for bad text; a crash, a sanitizer
// report, a hang or an exception of another type is a bug. Also checks that a parsed
// description survives format_draw_text and parsing back unchanged.
#include "fuzz/fuzz_common.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace drawpipe;

namespace {

// Vertices x instances one description may draw, and attribute elements it may bind: enough
// for several 4096-vertex segments, small enough for thousands of executions a second.
constexpr uint64_t kMaxWork = 16384;
constexpr uint64_t kMaxElements = 1 << 16;

bool same_draw(const DrawDesc& a, const DrawDesc& b) {
    return a.prim == b.prim && a.index_type == b.index_type && a.indices == b.indices &&
           a.restart == b.restart && a.restart_index == b.restart_index && a.start == b.start &&
           a.count == b.count && a.base_vertex == b.base_vertex && a.instances == b.instances &&
           a.base_instance == b.base_instance && a.provoking == b.provoking &&
           a.attrib_divisors == b.attrib_divisors && a.gs == b.gs && a.vs == b.vs;
}

void check_round_trip(const DrawDesc& d) {
    const std::string text = format_draw_text(d);
    DrawDesc back;
    try {
        back = parse_draw_text(text);
    } catch (const Error& e) {
        std::fprintf(stderr, "format_draw_text wrote text that does not parse (%s):\n%s\n",
                     e.what(), text.c_str());
        std::abort();
    }
    if (!same_draw(d, back)) {
        std::fprintf(stderr, "format_draw_text does not parse back to the same draw:\n%s\n",
                     text.c_str());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const FetchShade middle; // default limit: large draws split
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::optional<DrawDesc> parsed = fuzz::parse_or_nothing(text);
    if (!parsed) return 0;
    const DrawDesc& d = *parsed;
    check_round_trip(d);
    if (!fuzz::cheap_enough(d, kMaxWork, kMaxElements)) return -1; // not added to the corpus
    try {
        const GeometryShader* gs = fuzz::gs_of(d);
        const auto bound = bind_draw(d);
        fuzz::trace_serial(*bound, fuzz::vs_of(d), gs, middle);
    } catch (const Error&) {
    }
    return 0;
}
