#include "drawpipe/extend/gs_executor.hpp"

#include <algorithm>
#include <array>

namespace drawpipe {

GsStripWriter::GsStripWriter(const GeometryShader& gs, ShadedBatch& out, bool all_streams)
    : multi_(all_streams && gs.streams > 1), out_(out), prim_(gs.output),
      min_(gs_min_strip_vertices(gs.output)), layout_(gs_output_layout(gs)),
      stride_(layout_.stride()), strip_first_(out.vertex_count) {}

void GsStripWriter::vertex(uint32_t stream, const GsOutput& o, uint32_t instance) {
    if (!multi_) {
        if (stream == 0) write_gs_vertex(out_.append_vertices(1, stride_), o, instance, layout_);
        return;
    }
    std::vector<uint32_t>& p = pending_[stream];
    p.resize(p.size() + stride_);
    write_gs_vertex(p.data() + p.size() - stride_, o, instance, layout_);
}

void GsStripWriter::cut_all() {
    for (uint32_t s = 0; s < (multi_ ? kMaxVertexStreams : 1); ++s) cut(s);
}

void GsStripWriter::cut(uint32_t stream) {
    if (multi_) {
        std::vector<uint32_t>& p = pending_[stream];
        const uint32_t n = uint32_t(p.size() / stride_);
        if (n >= min_) {
            const uint32_t first_vertex = out_.vertex_count;
            std::copy(p.begin(), p.end(), out_.append_vertices(n, stride_));
            const uint32_t first = uint32_t(out_.elts.size());
            for (uint32_t i = 0; i < n; ++i) out_.elts.push_back(first_vertex + i);
            out_.prims.push_back({prim_, 0, first, n, uint8_t(stream)});
            ++strips_;
        }
        p.clear();
        return;
    }
    if (stream != 0) return;
    const uint32_t n = out_.vertex_count - strip_first_;
    if (n >= min_) {
        const uint32_t first = uint32_t(out_.elts.size());
        for (uint32_t i = 0; i < n; ++i) out_.elts.push_back(strip_first_ + i);
        out_.prims.push_back({prim_, 0, first, n});
        ++strips_;
    } else if (n > 0) { // too short for one primitive: take its vertices back
        out_.vertices.resize(size_t(strip_first_) * stride_);
        out_.vertex_count = strip_first_;
    }
    strip_first_ = out_.vertex_count;
}

namespace {

// One invocation with GL semantics: every stream goes to the writer (which keeps stream 0,
// or all of them for stream output), and emits on every stream count against max_vertices.
class ReferenceContext final : public GsRecordContext {
  public:
    ReferenceContext(const GeometryShader& gs, GsStripWriter& writer, GsStats& stats,
                     uint32_t instance)
        : gs_(gs), writer_(writer), stats_(stats), instance_(instance) {}

    void start() { emitted_ = 0; }

    void emit_stream_vertex(uint32_t stream, const GsOutput& out) override {
        if (stream >= gs_.streams) return; // GL: undefined; the model ignores it
        if (emitted_ == gs_.max_vertices) {
            ++stats_.dropped;
            return;
        }
        ++emitted_;
        ++stats_.emitted;
        writer_.vertex(stream, out, instance_); // streams past 0 only if the writer keeps them
    }
    void end_stream_primitive(uint32_t stream) override {
        if (stream < gs_.streams) writer_.cut(stream);
    }

  private:
    const GeometryShader& gs_;
    GsStripWriter& writer_;
    GsStats& stats_;
    uint32_t instance_;
    uint32_t emitted_ = 0;
};

} // namespace

void execute_gs_reference(const GeometryShader& gs, std::span<const uint32_t* const> inputs,
                          uint32_t stride, uint32_t primitive_id, GsStripWriter& writer,
                          GsStats& stats) {
    ReferenceContext ctx(gs, writer, stats, inputs[0][SLOT_INSTANCE_ID]);
    for (uint32_t inv = 0; inv < gs.invocations; ++inv) {
        ctx.bind(inputs, stride, primitive_id, inv);
        ctx.start();
        gs.main(ctx);
        writer.cut_all(); // the strips in progress end with the invocation
        ++stats.invocations;
    }
}

} // namespace drawpipe
