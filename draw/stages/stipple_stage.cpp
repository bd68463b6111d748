// Line stipple (glLineStipple), as Mesa's draw pipeline applies it before llvmpipe draws: a
// counter steps once per pixel of a line's major-axis length (rounded up), fragment i is on
// when bit (counter / factor) mod 16 of the pattern is set, and each dash (consecutive "on"
// pixels) is drawn as a sub-line between the line's points at i / length. The counter continues
// from line to line and restarts on PRIM_RESET_STIPPLE and reset_stipple().
#include "draw/stages/stages.hpp"

#include <algorithm>
#include <cmath>

namespace drawpipe {

void StippleStage::segment(const StagePrim& prim, float t0, float t1) {
    // Every output is interpolated linearly in window space, the position included (its w
    // slot holds 1 / w, which is linear there); integer outputs come from the first vertex.
    const VertexLayout& l = plan_.layout;
    StagePrim out = prim;
    for (uint32_t e = 0; e < 2; ++e) {
        const float t = e == 0 ? t0 : t1;
        // An end at the line's own end stays that vertex, as in Mesa's emit_segment:
        // a + 1 * (b - a) need not be b.
        if (e == 0 ? !(t > 0.0f) : !(t < 1.0f)) continue;
        uint32_t* r = new_vertex(prim.v[0]);
        auto lerp = [&](uint32_t d) {
            const float a = dword_float(prim.v[0][d]), b = dword_float(prim.v[1][d]);
            r[d] = float_dword(a + t * (b - a));
        };
        for (uint32_t d = SLOT_POSITION; d < SLOT_POSITION + 4; ++d) lerp(d);
        for (uint32_t i = 0; i < l.varying_count(); ++i)
            if (l.varying(i).type == ValueType::float32)
                for (uint32_t c = 0; c < 4; ++c) lerp(l.varying_slot(i) + c);
        for (uint32_t d = l.point_size_slot(); d < l.layer_slot(); ++d) lerp(d);
        out.v[e] = r;
    }
    out.flags = 0;
    next()->line(out);
}

void StippleStage::line(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    if (prim.flags & PRIM_RESET_STIPPLE) counter_ = 0;
    auto pos = [&](uint32_t i, uint32_t c) { return dword_float(prim.v[i][SLOT_POSITION + c]); };
    const float length =
        std::max(std::fabs(pos(1, 0) - pos(0, 0)), std::fabs(pos(1, 1) - pos(0, 1)));
    if (!std::isfinite(length)) return;
    const uint32_t factor = plan_.state.stipple_factor, pattern = plan_.state.stipple_pattern;
    const int steps = int(std::ceil(length));
    bool on = false;
    int start = 0;
    for (int i = 0; i < steps; ++i) {
        const bool bit = (pattern >> ((counter_ / factor) & 15)) & 1;
        if (bit != on) {
            if (on && start != i) segment(prim, float(start) / length, float(i) / length);
            if (!on) start = i;
            on = bit;
        }
        ++counter_;
    }
    if (on && float(start) < length) segment(prim, float(start) / length, 1.0f);
}

} // namespace drawpipe
