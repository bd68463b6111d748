#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/gs_executor.hpp"

#include <algorithm>
#include <vector>

namespace drawpipe::a4xx {

namespace {

enum Counter : uint32_t { INVOCATIONS, KILLS, VERTICES, STEPS_NAIVE, STEPS_SWITCH };
constexpr std::string_view kCounters[] = {"invocations", "kills", "vertices", "steps_naive",
                                          "steps_switch"};

struct A4xxScratch final : MiddleEnd::Scratch {
    std::vector<uint32_t> shaded; // the segment's VS outputs
    LocalMemory lm;
};

} // namespace

A4xxMiddleEnd::A4xxMiddleEnd(std::optional<Mode> mode, uint32_t max_vertices)
    : forced_(mode), max_vertices_(max_vertices), plain_(max_vertices) {}

MiddleEndLimits A4xxMiddleEnd::prepare(const DrawState& state) {
    state_ = state;
    if (!state.gs) return plain_.prepare(state);
    const GeometryShader& gs = *state.gs;
    validate_gs(gs);
    check_gs_draw(gs, state.draw->prim);
    if (forced_ == Mode::switch_rewrite && !gs.independent_vertices)
        throw Error(ErrorCode::unsupported,
                    "gs " + gs.name +
                        ": the switch-rewritten A4xx mode needs a shader that declares "
                        "independent_vertices");
    mode_ = forced_.value_or(gs.independent_vertices ? Mode::switch_rewrite : Mode::naive);
    in_layout_ = vertex_layout_for(state.input);
    out_layout_ = gs_output_layout(gs);
    return {gs_segment_vertex_limit(gs, max_vertices_), false, gs.input};
}

const VertexLayout& A4xxMiddleEnd::layout() const {
    return state_.gs ? out_layout_ : plain_.layout();
}

std::unique_ptr<MiddleEnd::Scratch> A4xxMiddleEnd::make_scratch() const {
    return std::make_unique<A4xxScratch>();
}

std::span<const std::string_view> A4xxMiddleEnd::counter_names() const {
    if (!state_.gs) return {};
    return kCounters;
}

void A4xxMiddleEnd::run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const {
    if (!state_.gs) return plain_.run(seg, nullptr, out);
    const GeometryShader& gs = *state_.gs;
    A4xxScratch local;
    A4xxScratch& sc = scratch ? static_cast<A4xxScratch&>(*scratch) : local;
    const uint32_t V = gs_input_vertices(gs.input);
    if (sc.lm.vertices() != V || sc.lm.attribs() != in_layout_.attrib_count)
        sc.lm.configure(V, in_layout_.attrib_count);
    const uint32_t stride = in_layout_.stride();
    sc.shaded.resize(size_t(seg.fetch_count) * stride);
    // ir3 runs a non-point shader once per stream (strips cannot mix streams); points
    // carry the stream in prim_info instead.
    const bool clone = gs.streams > 1 && gs.output != Prim::points;
    const int clones = clone ? int(gs.streams) : 1;
    GsStripWriter writer(gs, out);
    auto& c = out.counters;
    const uint32_t prims = seg.draw_count / V;
    const uint32_t* records[6];

    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        for (uint32_t f = 0; f < seg.fetch_count; ++f)
            shade_vertex(state_, in_layout_, seg.vertex_id(f), instance,
                         &sc.shaded[size_t(f) * stride]);
        for (uint32_t p0 = 0; p0 < prims; p0 += kPrimSlots) {
            const uint32_t p1 = std::min(prims, p0 + kPrimSlots);
            for (uint32_t p = p0; p < p1; ++p) {
                for (uint32_t v = 0; v < V; ++v)
                    records[v] = &sc.shaded[size_t(seg.draw_elt(p * V + v)) * stride];
                sc.lm.stage(p - p0, {records, V});
            }
            for (uint32_t p = p0; p < p1; ++p) {
                const uint32_t prim_id = seg.prim_id_first + p;
                for (uint32_t inv = 0; inv < gs.invocations; ++inv) {
                    for (int s = 0; s < clones; ++s) {
                        // Launch runs for vertex 0, 1, ... until one kills or max_vertices.
                        for (uint32_t k = 0; k < gs.max_vertices; ++k) {
                            const uint32_t r0x = pack_r0x({p - p0, inv, k});
                            const RunResult r =
                                run_once(gs, mode_, sc.lm, r0x, prim_id, clone ? s : -1);
                            ++c[INVOCATIONS];
                            c[STEPS_NAIVE] += r.steps_naive;
                            if (gs.independent_vertices) c[STEPS_SWITCH] += r.steps_switch;
                            if (r.killed) {
                                ++c[KILLS];
                                break;
                            }
                            ++c[VERTICES];
                            // Fixed function: only stream 0 is rasterized; prim_info's
                            // new-primitive flag starts a strip.
                            if (prim_info_stream(r.prim_info) != 0) continue;
                            if (prim_info_new_prim(r.prim_info)) writer.cut();
                            GsOutput o = r.out;
                            o.layer = prim_info_layer(r.prim_info);
                            o.viewport = prim_info_viewport(r.prim_info);
                            writer.vertex(o, instance, 0);
                        }
                        writer.cut();
                    }
                }
            }
        }
    }
}

} // namespace drawpipe::a4xx
