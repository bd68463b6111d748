// The fetch plan and SimdShade, the vectorised path's per-draw half (the kernels are in
// draw/simd_shade.cpp).
#include "draw/internal/fetch_plan.hpp"

#include "drawpipe/shading.hpp"
#include "drawpipe/simd_shade.hpp"

#include <algorithm>
#include <limits>

namespace drawpipe {

namespace {

constexpr uint32_t kOneFloat = 0x3f800000u; // 1.0f

// The formats the kernels read as raw dwords, by name, so that any other format (present
// or added later) goes through fetch_attrib. Returns the component count, 0 for others.
uint32_t fast_components(Format f, uint32_t& one) {
    switch (f) {
    case Format::float32x1:
        return one = kOneFloat, 1;
    case Format::float32x2:
        return one = kOneFloat, 2;
    case Format::float32x3:
        return one = kOneFloat, 3;
    case Format::float32x4:
        return one = kOneFloat, 4;
    case Format::uint32x1:
    case Format::sint32x1:
        return one = 1, 1;
    case Format::uint32x2:
    case Format::sint32x2:
        return one = 1, 2;
    case Format::uint32x3:
    case Format::sint32x3:
        return one = 1, 3;
    case Format::uint32x4:
    case Format::sint32x4:
        return one = 1, 4;
    default:
        return 0;
    }
}

AttribPlan plan_attrib(const VertexBuffer& b, const VertexAttrib& a) {
    AttribPlan p;
    p.constant = a.divisor != 0;
    p.divisor = a.divisor;
    p.stride = b.stride;
    p.buffer = b;
    p.attrib = a;
    const uint32_t comps = fast_components(a.format, p.one);
    if (comps == 0) {
        p.kind = FetchKind::fallback;
        return p;
    }
    // fetch_attrib's bound: element e is inside when base + e * stride + size <= b.size.
    const uint64_t size = 4 * comps;
    const uint64_t base = uint64_t(b.offset) + a.offset;
    if (b.data == nullptr || base > b.size || size > b.size - base) return p; // zero
    p.kind = FetchKind::fast;
    p.comps = uint8_t(comps);
    p.base = static_cast<const unsigned char*>(b.data) + base;
    p.last =
        b.stride == 0 ? std::numeric_limits<uint64_t>::max() : (b.size - base - size) / b.stride;
    return p;
}

} // namespace

FetchPlan make_fetch_plan(const DrawState& state, const VertexLayout& layout) {
    FetchPlan p;
    p.vs = state.vs;
    p.base_instance = state.draw.base_instance;
    p.stride = layout.stride();
    p.attrib_count = state.vs ? uint32_t(std::min<size_t>(state.input.attribs.size(), kMaxAttribs))
                              : layout.varying_count();
    for (uint32_t a = 0; a < p.attrib_count; ++a) {
        const VertexAttrib& attrib = state.input.attribs[a];
        if (!attrib.enabled) { // its buffer need not be bound: fetch_attrib gives `current`
            p.attribs[a].kind = FetchKind::fallback;
            p.attribs[a].constant = true;
            p.attribs[a].attrib = attrib;
            continue;
        }
        p.attribs[a] = plan_attrib(state.input.buffers[attrib.buffer], attrib);
    }
    preset_record(layout, p.preset.data());
    return p;
}

SimdShade::SimdShade(const DrawState& state)
    : layout_(vertex_layout_for(state)),
      plan_(std::make_unique<const FetchPlan>(make_fetch_plan(state, layout_))) {}
SimdShade::~SimdShade() = default;
SimdShade::SimdShade(SimdShade&&) noexcept = default;
SimdShade& SimdShade::operator=(SimdShade&&) noexcept = default;

void SimdShade::shade_vertices(const uint32_t* ids, uint32_t n, uint32_t instance,
                               uint32_t* out) const {
    if (n > 0) simd_shade_vertices({plan_.get(), ids, 0, n, instance, out});
}

void SimdShade::shade_fetched(const Segment& seg, uint32_t instance, uint32_t* out) const {
    if (seg.fetch_count == 0) return;
    if (seg.linear_fetch())
        simd_shade_vertices(
            {plan_.get(), nullptr, seg.fetch_start, seg.fetch_count, instance, out});
    else
        simd_shade_vertices(
            {plan_.get(), seg.fetch_elts.data(), seg.fetch_bias, seg.fetch_count, instance, out});
}

void SimdShade::shade_segment(const Segment& seg, ShadedBatch& out) const {
    const uint32_t stride = layout_.stride();
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        const uint32_t base = out.vertex_count;
        shade_fetched(seg, instance, out.append_unset_vertices(seg.fetch_count, stride));
        const uint32_t first = uint32_t(out.elts.size());
        simd_emit_elts(seg.linear_draw() ? nullptr : seg.draw_elts.data(), seg.draw_count, base,
                       out.append_unset_elts(seg.draw_count));
        out.prims.push_back({seg.prim, seg.flags, first, seg.draw_count});
    }
}

std::string_view simd_target() {
    return simd_target_name();
}

} // namespace drawpipe
