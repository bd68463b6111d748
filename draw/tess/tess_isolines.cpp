// The isoline domain: lines of constant v, each from u = 0 to u = 1; outer level 0 counts the
// lines (always integer spacing), outer level 1 places the points along them with the chosen
// spacing. docs/tessellation.md.
#include "draw/tess/tess_detail.hpp"

namespace drawpipe::tess {

bool tessellate_isolines(const TessState& state, const TessLevels& levels, TessDomain& out) {
    if (culls(levels.outer[0]) || culls(levels.outer[1])) return false;
    const LevelRules rules = level_rules(state.spacing);
    const float detail = clamp_level(levels.outer[1], rules.lo, rules.hi, rules.integer);
    const bool detail_odd = rules.integer ? (int(detail) & 1) != 0 : rules.odd;
    const Spacing along = make_spacing(to_fixed(detail), detail_odd);
    const float density = clamp_level(levels.outer[0], 1, 64, true);
    const Spacing across = make_spacing(to_fixed(density), (int(density) & 1) != 0);
    const int lines = across.points - 1; // no line at v = 1
    const int per_line = along.points;

    std::array<float, kMaxEdgePoints> u{};
    for (int p = 0; p < per_line; ++p) u[size_t(p)] = to_float(place(along, p));
    const size_t n_points = size_t(lines) * size_t(per_line);
    out.coords.resize(n_points);
    auto* c = out.coords.data();
    for (int l = 0; l < lines; ++l) {
        const float v = to_float(place(across, l));
        for (int p = 0; p < per_line; ++p) *c++ = {u[size_t(p)], v, 0.0f};
    }
    if (state.point_mode) {
        out.elements.resize(n_points);
        for (size_t i = 0; i < n_points; ++i) out.elements[i] = uint32_t(i);
        return true;
    }
    out.elements.resize(size_t(lines) * size_t(per_line - 1) * 2);
    uint32_t* e = out.elements.data();
    for (int l = 0; l < lines; ++l) {
        const uint32_t first = uint32_t(l * per_line);
        for (int p = 1; p < per_line; ++p) {
            *e++ = first + uint32_t(p) - 1;
            *e++ = first + uint32_t(p);
        }
    }
    return true;
}

} // namespace drawpipe::tess
