#include "middle_ends/adreno_a4xx/a4xx_gs.hpp"

#include "drawpipe/limits.hpp"

#include <algorithm>

namespace drawpipe::a4xx {

uint32_t lm_record_offset(uint32_t V, uint32_t attribs, uint32_t v, uint32_t slot) {
    if (slot < SLOT_POSITION) return lm_header_offset(v) + 4 * slot;
    if (slot < kVertexHeaderDwords) return lm_position_offset(v) + 4 * (slot - SLOT_POSITION);
    const uint32_t a = (slot - kVertexHeaderDwords) / 4, c = (slot - kVertexHeaderDwords) % 4;
    if (a >= attribs) return ~0u;
    return lm_varying_offset(V, a, v) + 4 * c;
}

void LocalMemory::configure(uint32_t V, uint32_t attribs) {
    V_ = V;
    attribs_ = attribs;
    stride_ = lm_prim_stride(V, attribs);
    record_dwords_ = kVertexHeaderDwords + 4 * attribs;
    psize_slot_ = ~0u;
    dwords_.assign(size_t(kPrimSlots) * stride_ / 4, 0);
}

void LocalMemory::configure(uint32_t V, const VertexLayout& layout) {
    const uint32_t psize = layout.outputs.point_size ? layout.point_size_slot() : ~0u;
    if (V == V_ && layout.stride() == record_dwords_ && psize == psize_slot_) return;
    configure(V, (layout.stride() - kVertexHeaderDwords + 3) / 4);
    record_dwords_ = layout.stride();
    psize_slot_ = psize;
}

void LocalMemory::stage(uint32_t slot, std::span<const uint32_t* const> records) {
    const uint32_t base = slot * stride_;
    for (uint32_t v = 0; v < V_; ++v) {
        for (uint32_t s = 0; s < record_dwords_; ++s)
            dwords_[(base + lm_record_offset(V_, attribs_, v, s)) / 4] = records[v][s];
        dwords_[(base + lm_position_offset(v) + 0x10) / 4] =
            psize_slot_ != ~0u ? records[v][psize_slot_] : float_dword(1.0f); // point size
    }
}

uint32_t LocalMemory::load(uint32_t byte_addr) const {
    const size_t i = byte_addr / 4;
    return i < dwords_.size() ? dwords_[i] : 0;
}

namespace {

// The launch's view of the shader: ir3's lowering (vertex_count / vertex_flags; README.md,
// "ir3's lowering") with the A4xx inputs. A naive launch stops at its vertex (later calls do
// nothing); a switch-rewritten launch executes only the calls between the previous emit and
// its own.
class LaunchContext final : public GsContext {
  public:
    LaunchContext(Mode mode, const LocalMemory& lm, uint32_t r0x, uint32_t r0y, int stream)
        : mode_(mode), lm_(lm), r0x_(r0x), r0y_(r0y), stream_(stream) {
        const R0x f = unpack_r0x(r0x);
        target_ = f.vertex;
        base_ = f.prim_slot * lm.prim_stride();
    }

    uint32_t vertex_count() const override { return lm_.vertices(); }
    uint32_t primitive_id_in() const override { return r0y_; }
    uint32_t invocation_id() const override { return unpack_r0x(r0x_).invocation; }

    uint32_t load(uint32_t vertex, uint32_t slot) override {
        if (!step()) return 0;
        if (mode_ == Mode::switch_rewrite && count_ != target_) return 0; // not in this case
        const uint32_t off = lm_record_offset(lm_.vertices(), lm_.attribs(), vertex, slot);
        return off == ~0u || vertex >= lm_.vertices() ? 0 : lm_.load(base_ + off);
    }
    void emit_stream_vertex(uint32_t stream, const GsOutput& out) override {
        if (!in_clone(stream) || !step()) return;
        if (count_ == target_) {
            r_.prim_info = pack_prim_info(flags_new_, stream, out.layer, out.viewport);
            r_.out = out;
            done_ = true; // the launch has its vertex and stops
        }
        ++count_;
        flags_new_ = false;
    }
    void end_stream_primitive(uint32_t stream) override {
        if (!in_clone(stream) || !step()) return;
        flags_new_ = true; // ir3 ignores the stream here: a clone only sees its own ends
    }

    LaunchResult finish() {
        if (!done_) { // reached the end without its vertex: kill
            r_.killed = true;
            ++r_.steps_naive;
            ++r_.steps_switch;
        }
        return r_;
    }

  private:
    bool in_clone(uint32_t stream) const { return stream_ < 0 || stream == uint32_t(stream_); }
    // Counts one shader step; false once the launch has stopped.
    bool step() {
        if (done_) return false;
        ++r_.steps_naive;
        if (count_ == target_) ++r_.steps_switch;
        return true;
    }

    Mode mode_;
    const LocalMemory& lm_;
    uint32_t r0x_, r0y_;
    int stream_;
    uint32_t target_ = 0, base_ = 0;
    uint32_t count_ = 0;    // vertices emitted so far (ir3's vertex_count)
    bool flags_new_ = true; // ir3's vertex_flags = 4: at entry and after end_primitive
    bool done_ = false;
    LaunchResult r_;
};

} // namespace

LaunchResult launch_once(const GeometryShader& gs, Mode mode, const LocalMemory& lm, uint32_t r0x,
                         uint32_t r0y, int stream) {
    LaunchContext ctx(mode, lm, r0x, r0y, stream);
    gs.main(ctx);
    return ctx.finish();
}

} // namespace drawpipe::a4xx
