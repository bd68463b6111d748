#include "middle_ends/intel_gen7/gen7_middle_end.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/plain_draw.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/tess.hpp"
#include "middle_ends/intel_gen7/ff_reader.hpp"
#include "middle_ends/intel_gen7/gs_thread.hpp"

#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace drawpipe::gen7 {

namespace {

// Gen7Counter's names, in its order.
constexpr std::string_view kCounterNames[] = {
    "gen7_threads", "urb_vertex_writes", "urb_header_writes",
    "header_bytes", "urb_entry_bytes",   "vertices_out",
};
static_assert(std::size(kCounterNames) == COUNTER_COUNT && COUNTER_COUNT <= kMaxCounters);

// Runs a shader on made-up inputs and notes whether it ever cuts.
class ProbeContext final : public GsContext {
  public:
    ProbeContext(uint32_t vertices, uint32_t prim, uint32_t instance, uint32_t invocation)
        : vertices_(vertices), prim_(prim), instance_(instance), invocation_(invocation) {}
    uint32_t vertex_count() const override { return vertices_; }
    uint32_t load(uint32_t vertex, uint32_t slot) override {
        if (slot == SLOT_VERTEX_ID) return prim_ * vertices_ + vertex;
        return slot == SLOT_INSTANCE_ID ? instance_ : 0;
    }
    uint32_t primitive_id_in() const override { return prim_; }
    uint32_t invocation_id() const override { return invocation_; }
    void emit_stream_vertex(uint32_t, const GsOutput&) override {}
    void end_stream_primitive(uint32_t) override { cut = true; }
    bool cut = false;

  private:
    uint32_t vertices_, prim_, instance_, invocation_;
};

// One GS thread's view of the shader: emits become URB writes through GsThread.
class ThreadContext final : public GsRecordContext {
  public:
    ThreadContext(const GeometryShader& gs, const GsProgram& program, const VertexLayout& layout,
                  std::vector<uint32_t>& vue)
        : gs_(gs), program_(program), layout_(layout), vue_(vue) {}

    void start(UrbEntry& entry, uint32_t instance) {
        thread_.emplace(program_, entry);
        instance_ = instance;
    }
    void finish() { thread_->end_thread(); }

    void emit_stream_vertex(uint32_t stream, const GsOutput& out) override {
        if (stream >= gs_.streams) return; // undeclared stream: GL leaves it undefined
        write_gs_vertex(vue_.data(), out, instance_, layout_);
        thread_->emit_vertex(stream, vue_);
    }
    void end_stream_primitive(uint32_t stream) override {
        if (stream >= gs_.streams) return;
        if (program_.format == ControlDataFormat::cut && program_.bits_per_vertex == 0)
            throw Error(ErrorCode::middle_end_failure,
                        "gs " + gs_.name +
                            ": end_primitive() at run time, but the shader declares "
                            "uses_end_primitive = false, so the program has no cut bits");
        thread_->end_primitive(stream);
    }

  private:
    const GeometryShader& gs_;
    const GsProgram& program_;
    const VertexLayout& layout_; // of the output vertices: every declared output in the VUE
    std::vector<uint32_t>& vue_;
    std::optional<GsThread> thread_;
    uint32_t instance_ = 0;
};

struct Gen7Scratch final : GsScratch {
    std::vector<uint32_t> vue; // one output vertex on its way to the URB
    UrbEntry entry;
    std::vector<OutputRun> runs;
};

} // namespace

bool probe_uses_end_primitive(const GeometryShader& gs) {
    const uint32_t vertices = gs_input_vertices(gs.input);
    for (uint32_t instance = 0; instance < 2; ++instance)
        for (uint32_t prim = 0; prim < 8; ++prim)
            for (uint32_t inv = 0; inv < gs.invocations; ++inv) {
                ProbeContext ctx(vertices, prim, instance, inv);
                gs.main(ctx);
                if (ctx.cut) return true;
            }
    return false;
}

GsProgram compile_for(const GeometryShader& gs, const VertexLayout& layout, bool stream_output) {
    GsDesc d;
    d.output = gs.output;
    d.max_vertices = gs.max_vertices;
    d.uses_end_primitive = gs.output != Prim::points && gs.uses_end_primitive;
    d.stream_mask = (1u << gs.streams) - 1;
    d.stream_output = stream_output;
    d.vue_slots = (layout.stride() + 3) / 4;
    return compile_gs(d);
}

std::shared_ptr<const MiddleEndDraw> Gen7MiddleEnd::prepare(const DrawState& state) const {
    refuse_tess(state, name());
    if (!state.gs) return std::make_shared<PlainDraw>(state, max_vertices_);
    const GeometryShader& gs = *state.gs;
    GsProgram program = compile_for(gs, gs_output_layout(gs), stream_output_);
    return std::make_shared<Gen7GsDraw>(state, std::move(program), max_vertices_, observer_);
}

std::unique_ptr<MiddleEndScratch> Gen7MiddleEnd::make_scratch() const {
    return std::make_unique<Gen7Scratch>();
}

std::span<const std::string_view> Gen7MiddleEnd::counters() const {
    return kCounterNames;
}

Gen7GsDraw::Gen7GsDraw(const DrawState& state, GsProgram program, uint32_t max_vertices,
                       ThreadObserver observer)
    : MiddleEndDraw({.max_vertices = gs_segment_vertex_limit(*state.gs, max_vertices),
                     .assemble_as = state.gs->input,
                     // Compiled for stream output, the URB holds every stream's vertices and
                     // the stream-id control data tells them apart; without it the thread
                     // drops streams past 0, so there is nothing to deliver.
                     .delivers_streams = program.desc.stream_output},
                    gs_output_layout(*state.gs)),
      state_(state), in_layout_(vertex_layout_for(state)), program_(std::move(program)),
      observer_(std::move(observer)) {}

void Gen7GsDraw::shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const {
    const GeometryShader& gs = *state_.gs;
    auto& sc = static_cast<Gen7Scratch&>(*scratch);
    const uint32_t out_stride = layout().stride();
    sc.vue.assign(out_stride, 0);
    ThreadContext ctx(gs, program_, layout(), sc.vue);
    for_each_shaded_gs_input(
        state_, in_layout_, seg, sc,
        [&](uint32_t instance, uint32_t p, std::span<const uint32_t* const> inputs) {
            const uint32_t prim_id = seg.prim_id_first + p;
            for (uint32_t inv = 0; inv < gs.invocations; ++inv) {
                // One thread: the shader writes the URB entry...
                ctx.bind(inputs, in_layout_.stride(), prim_id, inv);
                ctx.start(sc.entry, instance);
                gs.main(ctx);
                ctx.finish();
                // ...and the fixed-function side reads it back into strips.
                sc.runs.clear();
                read_output_runs(program_, sc.entry, sc.runs);
                // Every run goes on with the stream its control data gave it (the stream-id
                // bits of points; strips are stream 0): stream output captures each stream,
                // and the draw module rasterizes stream 0 alone (PrimRange::stream).
                for (const OutputRun& r : sc.runs) {
                    const uint32_t base = out.vertex_count;
                    uint32_t* v = out.append_vertices(r.count, out_stride);
                    for (uint32_t n = 0; n < r.count; ++n, v += out_stride)
                        read_vertex(program_, sc.entry, r.first + n, {v, out_stride});
                    const uint32_t first = uint32_t(out.elts.size());
                    for (uint32_t n = 0; n < r.count; ++n) out.elts.push_back(base + n);
                    out.prims.push_back({gs.output, 0, first, r.count, uint8_t(r.stream)});
                    if (r.stream == 0) out.counters[COUNTER_VERTICES_OUT] += r.count;
                }
                for (const UrbWrite& w : sc.entry.writes())
                    ++out.counters[w.kind == UrbWriteKind::header ? COUNTER_HEADER_WRITES
                                                                  : COUNTER_VERTEX_WRITES];
                ++out.counters[COUNTER_THREADS];
                out.counters[COUNTER_HEADER_BYTES] += kHwordBytes * program_.header_hwords;
                out.counters[COUNTER_URB_BYTES] += program_.urb_entry_bytes;
                if (observer_) observer_({instance, prim_id, inv, &program_, &sc.entry});
            }
        });
}

} // namespace drawpipe::gen7
