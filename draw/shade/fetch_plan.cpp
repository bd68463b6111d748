// The fetch plan and SimdShade, the vectorised path's per-draw half (the kernels are in
// draw/shade/simd_shade.cpp).
#include "draw/shade/fetch_plan.hpp"
#include "draw/shade/raster_plan.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/simd_shade.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

#include <hwy/targets.h>

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

struct SimdShade::Plan : FetchPlan {};

SimdShade::SimdShade(const DrawState& state)
    : layout_(vertex_layout_for(state)),
      plan_(std::make_unique<const Plan>(Plan{make_fetch_plan(state, layout_)})) {}
SimdShade::~SimdShade() = default;
SimdShade::SimdShade(SimdShade&&) noexcept = default;
SimdShade& SimdShade::operator=(SimdShade&&) noexcept = default;

void SimdShade::shade_vertices(const uint32_t* ids, uint32_t n, uint32_t instance, uint32_t draw_id,
                               uint32_t* out) const {
    if (n > 0) simd_shade_vertices({plan_.get(), ids, 0, n, instance, out, nullptr, draw_id});
}

void SimdShade::shade_fetched(const Segment& seg, uint32_t instance, uint32_t* out) const {
    if (seg.fetch_count == 0) return;
    if (seg.linear_fetch())
        simd_shade_vertices({plan_.get(), nullptr, seg.fetch_start, seg.fetch_count, instance, out,
                             nullptr, seg.draw_id});
    else
        simd_shade_vertices({plan_.get(), seg.fetch_elts.data(), seg.fetch_bias, seg.fetch_count,
                             instance, out, nullptr, seg.draw_id});
}

void SimdShade::shade_segment(const Segment& seg, ShadedBatch& out) const {
    const uint32_t first_vertex = out.vertex_count;
    for (uint32_t i = 0; i < seg.instance_count; ++i)
        shade_fetched(seg, seg.instance_first + i,
                      out.append_unset_vertices(seg.fetch_count, layout_.stride()));
    emit_segment(seg, first_vertex, out);
}

bool SimdShade::shade_segment(const Segment& seg, ShadedBatch& out, const PostShadeStep& post,
                              ClipResults& clip) const {
    // One instance per segment, as every middle end on this path has: the step rides along.
    if (seg.instance_count != 1 || out.vertex_count != 0 || seg.fetch_count == 0) {
        shade_segment(seg, out);
        return false;
    }
    shade_post(seg, out, post, clip);
    emit_segment(seg, 0, out);
    return true;
}

void SimdShade::emit_segment(const Segment& seg, uint32_t first_vertex, ShadedBatch& out) const {
    uint32_t base = first_vertex;
    for (uint32_t i = 0; i < seg.instance_count; ++i, base += seg.fetch_count) {
        const uint32_t first = uint32_t(out.elts.size());
        simd_emit_elts(seg.linear_draw() ? nullptr : seg.draw_elts.data(), seg.draw_count, base,
                       out.append_unset_elts(seg.draw_count));
        out.prims.push_back({seg.prim, seg.flags, first, seg.draw_count});
    }
}

void SimdShade::shade_post(const Segment& seg, ShadedBatch& out, const PostShadeStep& step,
                           ClipResults& clip) const {
    const uint32_t n = seg.fetch_count;
    const size_t padded = (size_t(n) + kShaderLanes - 1) / kShaderLanes * kShaderLanes;
    clip.clip_mask.resize(padded, boost::container::default_init);
    clip.clip_pos.resize(4 * padded, boost::container::default_init);
    PostShadeJob post{&raster_plan_of(step), clip.clip_mask.data(), clip.clip_pos.data(), 0};
    ShadeJob job{plan_.get(),
                 nullptr,
                 seg.fetch_start,
                 n,
                 seg.instance_first,
                 out.append_unset_vertices(n, layout_.stride()),
                 &post,
                 seg.draw_id};
    if (!seg.linear_fetch()) {
        job.elts = seg.fetch_elts.data();
        job.first_or_bias = seg.fetch_bias;
    }
    simd_shade_vertices(job);
    if (post.clip_or && post.soa_from > 0) {
        // The blocks before the first vertex outside again, for their clip-space rows (the
        // records and masks they rewrite are the same bits).
        PostShadeJob again{post.plan, post.clip_mask, post.clip_soa, 0, true, 0};
        ShadeJob before = job;
        before.n = post.soa_from;
        before.post = &again;
        simd_shade_vertices(before);
    }
    clip.clip_or = post.clip_or;
    clip.clip_mask.resize(n);
    // The clip stage reads a position per vertex: the kernel's blocks of rows, transposed
    // (only batches with a vertex outside go there).
    if (post.clip_or) {
        float block[4 * kShaderLanes];
        for (uint32_t first = 0; first < n; first += kShaderLanes) {
            float* p = clip.clip_pos.data() + 4 * size_t(first);
            std::copy_n(p, 4 * kShaderLanes, block);
            const uint32_t count = std::min(kShaderLanes, n - first);
            for (uint32_t l = 0; l < count; ++l)
                for (uint32_t c = 0; c < 4; ++c) p[4 * l + c] = block[c * kShaderLanes + l];
        }
    }
    clip.clip_pos.resize(4 * size_t(n));
}

std::string_view simd_target() {
    return simd_target_name();
}

namespace {

// The levels there are, taken once at load time: once one is pinned, Highway reports that one.
const std::vector<int64_t> g_levels = hwy::SupportedAndGeneratedTargets();

} // namespace

std::vector<std::string> simd_targets() {
    std::vector<std::string> names;
    for (const int64_t t : g_levels) names.emplace_back(hwy::TargetName(t));
    return names;
}

void pin_simd_target(std::string_view name) {
    if (name.empty()) return hwy::SetSupportedTargetsForTest(0);
    auto same = [](std::string_view a, std::string_view b) {
        return a.size() == b.size() &&
               std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                   return std::toupper(static_cast<unsigned char>(x)) ==
                          std::toupper(static_cast<unsigned char>(y));
               });
    };
    std::string there;
    for (const int64_t t : g_levels) {
        if (same(name, hwy::TargetName(t))) return hwy::SetSupportedTargetsForTest(t);
        there += std::string(there.empty() ? "" : ", ") + hwy::TargetName(t);
    }
    throw Error(ErrorCode::invalid_value,
                "simd target '" + std::string(name) + "': this build and CPU run " + there);
}

} // namespace drawpipe
