// Random draw descriptions for property tests: every primitive, index type, restart,
// base vertex, instancing and attributes, kept small enough to trace quickly.
#pragma once

#include "drawpipe/prim.hpp"
#include "tools/common/draw_text.hpp"

#include <random>

namespace drawpipe::test {

struct RandomDrawOptions {
    uint32_t max_count = 300;
    uint32_t max_instances = 3;
    bool allow_restart = true;
    bool allow_attribs = true;
};

inline DrawDesc random_draw(std::mt19937& rng, Prim prim, const RandomDrawOptions& o = {}) {
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    DrawDesc d;
    d.prim = prim;
    if (prim == Prim::patches) d.patch_vertices = uni(1, 4) == 1 ? uni(1, 32) : uni(1, 4);
    d.index_type = IndexType(uni(0, 3));
    d.count = uni(0, o.max_count);
    d.count_given = true;
    d.provoking = uni(0, 1) ? Provoking::last : Provoking::first;
    d.instances = uni(0, 8) == 0 ? 0 : uni(1, o.max_instances);
    d.base_instance = uni(0, 2) == 0 ? uni(0, 5) : 0;
    if (o.allow_attribs) {
        const uint32_t na = uni(0, 2);
        for (uint32_t a = 0; a < na; ++a)
            d.attrib_divisors.push_back(uni(0, 3) == 0 ? uni(1, 3) : 0);
    }
    if (d.index_type == IndexType::none) {
        d.start = uni(0, 50);
        return d;
    }
    const uint32_t max_value = d.index_type == IndexType::u8    ? 255
                               : d.index_type == IndexType::u16 ? 65535
                                                                : 100000;
    const uint32_t span = uni(0, 3) == 0 ? max_value : std::min<uint32_t>(max_value, uni(4, 64));
    d.start = uni(0, 3) == 0 ? uni(0, 10) : 0;
    d.indices.resize(d.start + d.count + uni(0, 3));
    for (auto& v : d.indices) v = uni(0, span);
    if (o.allow_restart && uni(0, 2) == 0) {
        d.restart = true;
        // Sometimes the type's maximum, sometimes an ordinary value, sometimes one that can't fit.
        const uint32_t pick = uni(0, 2);
        d.restart_index = pick == 0 ? max_value : pick == 1 ? uni(0, span) : 0x10000u + 5;
        if (d.index_type == IndexType::u32 && pick == 0) d.restart_index = 0xFFFFFFFFu;
        for (auto& v : d.indices)
            if (uni(0, 12) == 0 && d.restart_index <= max_value) v = d.restart_index;
    }
    if (uni(0, 2) == 0) d.base_vertex = int32_t(uni(0, 40));
    return d;
}

} // namespace drawpipe::test
