#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/gs_executor.hpp"
#include "drawpipe/extend/plain_draw.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/tess.hpp"

#include <array>
#include <iterator>
#include <utility>

namespace drawpipe::a4xx {

namespace {

// A4xxCounter's names, in its order.
constexpr std::string_view kCounterNames[] = {"invocations", "kills", "vertices", "steps_naive",
                                              "steps_switch"};
static_assert(std::size(kCounterNames) == COUNTER_COUNT && COUNTER_COUNT <= kMaxCounters);

struct A4xxScratch final : GsScratch {
    LocalMemory lm; // the staged input primitives of the group being launched
};

// Launches the GS for the staged primitives [p0, p1) of one instance (local-memory slots
// 0 .. p1 - p0 - 1), primitive by primitive, and assembles what every stream leaves as
// strips (`writer` keeps them all: PrimRange::stream).
void launch_group(const GeometryShader& gs, Mode mode, const LocalMemory& lm, uint32_t instance,
                  uint32_t prim_id_first, uint32_t p0, uint32_t p1, GsStripWriter& writer,
                  std::array<uint64_t, kMaxCounters>& c) {
    // ir3 runs a non-point shader once per stream (strips cannot mix streams); points
    // carry the stream in prim_info instead.
    const bool clone = gs.streams > 1 && gs.output != Prim::points;
    const int clones = clone ? int(gs.streams) : 1;
    for (uint32_t p = p0; p < p1; ++p) {
        const uint32_t prim_id = prim_id_first + p;
        for (uint32_t inv = 0; inv < gs.invocations; ++inv) {
            for (int s = 0; s < clones; ++s) {
                // Launch for vertex 0, 1, ... until one kills or max_vertices.
                for (uint32_t k = 0; k < gs.max_vertices; ++k) {
                    const uint32_t r0x = pack_r0x({p - p0, inv, k});
                    const LaunchResult r = launch_once(gs, mode, lm, r0x, prim_id, clone ? s : -1);
                    ++c[COUNTER_INVOCATIONS];
                    c[COUNTER_STEPS_NAIVE] += r.steps_naive;
                    if (gs.independent_vertices) c[COUNTER_STEPS_SWITCH] += r.steps_switch;
                    if (r.killed) {
                        ++c[COUNTER_KILLS];
                        break;
                    }
                    ++c[COUNTER_VERTICES];
                    // Fixed function: prim_info's bits 0-1 name the vertex's stream, and its
                    // new-primitive flag starts a strip of that stream. Every stream the
                    // shader declares goes on (stream output captures them; only stream 0
                    // is rasterized, which the draw module sees to by PrimRange::stream).
                    const uint32_t stream = prim_info_stream(r.prim_info);
                    if (stream >= gs.streams) continue; // no stream-output slot configured
                    if (prim_info_new_prim(r.prim_info)) writer.cut(stream);
                    GsOutput o = r.out;
                    o.layer = prim_info_layer(r.prim_info);
                    o.viewport = prim_info_viewport(r.prim_info);
                    writer.vertex(stream, o, instance);
                }
                writer.cut_all(); // the sequence (a clone's, with clones) ends every strip
            }
        }
    }
}

} // namespace

A4xxGsDraw::A4xxGsDraw(const DrawState& state, Mode mode, uint32_t max_vertices)
    : MiddleEndDraw({.max_vertices = gs_segment_vertex_limit(*state.gs, max_vertices),
                     .assemble_as = state.gs->input,
                     .delivers_streams = true}, // prim_info's stream bits: every stream
                    gs_output_layout(*state.gs)),
      state_(state), in_layout_(vertex_layout_for(state)), mode_(mode) {}

void A4xxGsDraw::shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const {
    const GeometryShader& gs = *state_.gs;
    auto& sc = static_cast<A4xxScratch&>(*scratch);
    const uint32_t V = gs_input_vertices(gs.input);
    sc.lm.configure(V, in_layout_);
    const uint32_t prims = seg.draw_count / V;
    GsStripWriter writer(gs, out, true);
    // Local memory holds kPrimSlots primitives (r0.x has 5 bits of slot): stage each one,
    // and launch the group once it is full or the instance's primitives are all staged.
    for_each_shaded_gs_input(
        state_, in_layout_, seg, sc,
        [&](uint32_t instance, uint32_t p, std::span<const uint32_t* const> inputs) {
            const uint32_t p0 = p - p % kPrimSlots;
            sc.lm.stage(p - p0, inputs);
            if (p + 1 - p0 == kPrimSlots || p + 1 == prims)
                launch_group(gs, mode_, sc.lm, instance, seg.prim_id_first, p0, p + 1, writer,
                             out.counters);
        });
}

std::shared_ptr<const MiddleEndDraw> A4xxMiddleEnd::prepare(const DrawState& state) const {
    refuse_tess(state, name());
    if (!state.gs) return std::make_shared<PlainDraw>(state, max_vertices_);
    const GeometryShader& gs = *state.gs;
    if (forced_ == Mode::switch_rewrite && !gs.independent_vertices)
        throw Error(ErrorCode::unsupported,
                    "gs " + gs.name +
                        ": the switch-rewritten A4xx mode needs a shader that declares "
                        "independent_vertices");
    const Mode mode =
        forced_.value_or(gs.independent_vertices ? Mode::switch_rewrite : Mode::naive);
    return std::make_shared<A4xxGsDraw>(state, mode, max_vertices_);
}

std::unique_ptr<MiddleEndScratch> A4xxMiddleEnd::make_scratch() const {
    return std::make_unique<A4xxScratch>();
}

std::span<const std::string_view> A4xxMiddleEnd::counters() const {
    return kCounterNames;
}

} // namespace drawpipe::a4xx
