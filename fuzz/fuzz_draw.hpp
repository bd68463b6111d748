// Draw descriptions from fuzz bytes: the shapes of tests/support/random_draw.hpp (every
// primitive, index type, restart, base vertex, instancing, attributes, a library geometry
// shader), but every choice read from libFuzzer's input, so coverage feedback steers them.
// Sizes stay small: one execution traces a description a few dozen times.
#pragma once

#include "drawpipe/gs.hpp"
#include "drawpipe/prim.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace drawpipe::fuzz {

struct DrawGenLimits {
    uint32_t max_count = 96;    // indices (or vertices) drawn: many segments at limits <= 64
    uint32_t max_count_gs = 32; // with a geometry shader, whose output is larger
    uint32_t max_instances = 3;
};

// A description whose every field comes from `in`. When `in` runs dry, FuzzedDataProvider
// returns the smallest values, so short inputs give short, plain draws.
inline DrawDesc draw_from_bytes(FuzzedDataProvider& in, const DrawGenLimits& lim = {}) {
    DrawDesc d;
    const auto library = gs_library();
    const GeometryShader* gs = nullptr;
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
        gs = &library[in.ConsumeIntegralInRange<size_t>(0, library.size() - 1)];
        d.gs = gs->name;
    }
    // The library's colour vertex shader: always under a GS that reads it, else sometimes.
    if ((gs && gs->input_varyings > 0) || in.ConsumeIntegralInRange<int>(0, 3) == 0) d.vs = "color";
    d.prim = Prim(in.ConsumeIntegralInRange<int>(0, kPrimCount - 1));
    // A GS draw of a primitive GL rejects only tests the rejection: prefer one it takes.
    if (gs && !gs_input_compatible(d.prim, gs->input)) d.prim = gs->input;
    d.index_type = IndexType(in.ConsumeIntegralInRange<int>(0, 3));
    d.count = in.ConsumeIntegralInRange<uint32_t>(0, gs ? lim.max_count_gs : lim.max_count);
    d.count_given = true;
    d.provoking = in.ConsumeBool() ? Provoking::first : Provoking::last;
    d.instances = in.ConsumeIntegralInRange<uint32_t>(0, lim.max_instances);
    d.base_instance = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 5) : 0;
    const uint32_t attribs = in.ConsumeIntegralInRange<uint32_t>(0, 2);
    for (uint32_t a = 0; a < attribs; ++a)
        d.attrib_divisors.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 3));
    if (d.index_type == IndexType::none) {
        d.start = in.ConsumeIntegralInRange<uint32_t>(0, 50);
        return d;
    }
    const uint32_t max_value = d.index_type == IndexType::u8    ? 0xFFu
                               : d.index_type == IndexType::u16 ? 0xFFFFu
                                                                : 100000u;
    // Mostly a few dozen distinct vertices (reuse, so de-duplication matters), sometimes the
    // type's whole range.
    const uint32_t span = in.ConsumeIntegralInRange<int>(0, 3) == 0
                              ? max_value
                              : std::min(max_value, in.ConsumeIntegralInRange<uint32_t>(4, 64));
    d.start =
        in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<uint32_t>(0, 10) : 0;
    d.indices.resize(d.start + d.count + in.ConsumeIntegralInRange<uint32_t>(0, 3));
    for (auto& v : d.indices) v = in.ConsumeIntegralInRange<uint32_t>(0, span);
    if (in.ConsumeBool()) {
        d.restart = true;
        // The type's maximum, an ordinary value, or one no index of the type can hold.
        switch (in.ConsumeIntegralInRange<int>(0, 2)) {
        case 0:
            d.restart_index = d.index_type == IndexType::u32 ? 0xFFFFFFFFu : max_value;
            break;
        case 1:
            d.restart_index = in.ConsumeIntegralInRange<uint32_t>(0, span);
            break;
        default:
            d.restart_index = 0x10005u;
            break;
        }
        if (d.restart_index <= max_value)
            for (auto& v : d.indices)
                if (in.ConsumeIntegralInRange<int>(0, 12) == 0) v = d.restart_index;
    }
    // Negative base vertices are legal when no index goes below zero; the others are errors
    // the reference reports, and the target skips.
    if (in.ConsumeBool()) d.base_vertex = in.ConsumeIntegralInRange<int32_t>(-8, 40);
    return d;
}

// Whether `bytes` is a description in the text format rather than generator input: corpora
// and regressions can then be written as readable descriptions.
inline bool looks_like_text(std::string_view bytes) {
    return bytes.starts_with("prim") || bytes.starts_with("#");
}

} // namespace drawpipe::fuzz
