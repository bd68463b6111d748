// drawpipe's stream output behind drawpipe_so.h: Mesa's pipe_stream_output_info becomes a
// StreamOutputState (validated by drawpipe), its outputs' places in Mesa's vertex records the
// plan's copies, and each segment is one capture session begun at the targets' fill.
#include "drawpipe_so.h"

#include <drawpipe/backend.hpp>
#include <drawpipe/error.hpp>
#include <drawpipe/extend/segment.hpp>
#include <drawpipe/stream_output.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

// The state dp_so_set last took, compared field by field so that a draw like the last one
// keeps its validated StreamOutput.
struct Key {
    unsigned vertex_size = 0, clip_pos_offset = 0, data_offset = 0, num_registers = 0;
    int position_output = -1;
    std::vector<dp_so_output> outputs;
    unsigned stride[4] = {};
    dp_so_target targets[4] = {};
    bool provoking_first = false;

    // Compared with the state as given, so that a draw like the last one allocates nothing.
    bool matches(const dp_so_state& s) const {
        if (outputs.size() != s.num_outputs) return false;
        for (size_t i = 0; i < outputs.size(); ++i)
            if (std::memcmp(&outputs[i], &s.outputs[i], sizeof outputs[i]) != 0) return false;
        for (unsigned b = 0; b < 4; ++b)
            if (stride[b] != s.stride[b] || targets[b].data != s.targets[b].data ||
                targets[b].offset != s.targets[b].offset || targets[b].size != s.targets[b].size)
                return false;
        return vertex_size == s.vertex_size && clip_pos_offset == s.clip_pos_offset &&
               data_offset == s.data_offset && num_registers == s.num_registers &&
               position_output == s.position_output && provoking_first == s.provoking_first;
    }
};

Key key_of(const dp_so_state& s) {
    Key k;
    k.vertex_size = s.vertex_size;
    k.clip_pos_offset = s.clip_pos_offset;
    k.data_offset = s.data_offset;
    k.num_registers = s.num_registers;
    k.position_output = s.position_output;
    k.outputs.assign(s.outputs, s.outputs + s.num_outputs);
    for (unsigned b = 0; b < 4; ++b) {
        k.stride[b] = s.stride[b];
        k.targets[b] = s.targets[b];
    }
    k.provoking_first = s.provoking_first;
    return k;
}

} // namespace

struct dp_so {
    std::optional<Key> key;
    std::string refusal; // why the last state was refused, empty when taken
    std::unique_ptr<StreamOutput> so;
    StreamOutputPlan plan;
    uint32_t record_dwords = 0;
    Provoking pv = Provoking::last;
};

namespace {

// Resolves a taken state into `so`; returns the reason when drawpipe refuses it.
std::string build(dp_so& so, const dp_so_state& s) {
    if (s.vertex_size % 4 || s.clip_pos_offset % 4 || s.data_offset % 4)
        return "a vertex layout not in dwords";
    StreamOutputState state;
    state.mode = CaptureMode::interleaved;
    StreamOutputPlan plan;
    for (unsigned i = 0; i < s.num_outputs; ++i) {
        const dp_so_output& o = s.outputs[i];
        // Only a geometry shader has streams past 0, and it keeps the draw with Mesa.
        if (o.stream != 0) return "an output of a vertex stream past 0";
        if (o.register_index >= s.num_registers) return "an output of no register";
        if (o.output_buffer >= kMaxStreamOutputBuffers) return "an output of no buffer";
        // Every output is a vec4 register to drawpipe's checks; where it lies is the plan's.
        state.outputs.push_back({CaptureSource::varying, o.register_index, o.start_component,
                                 o.num_components, o.output_buffer, o.dst_offset, 0});
        const bool position = int(o.register_index) == s.position_output;
        const uint32_t src = (position ? s.clip_pos_offset : s.data_offset + 16 * o.register_index) /
                                 4 +
                             o.start_component;
        if (4 * (src + o.num_components) > s.vertex_size) return "an output past the vertex";
        plan.copies[0].push_back({o.output_buffer, src, o.dst_offset, o.num_components});
        plan.buffer_mask[0] |= 1u << o.output_buffer;
    }
    for (unsigned b = 0; b < kMaxStreamOutputBuffers; ++b) {
        const dp_so_target& t = s.targets[b];
        // A missing target is a range with no room: nothing fits, as in Mesa's so_emit.
        state.buffers[b] = {t.data, t.data ? t.offset : 0, t.data ? t.size : 0, 4 * s.stride[b]};
    }
    try {
        so.so = std::make_unique<StreamOutput>(state);
    } catch (const Error& e) {
        return e.what();
    }
    so.plan = std::move(plan);
    so.record_dwords = s.vertex_size / 4;
    so.pv = s.provoking_first ? Provoking::first : Provoking::last;
    return {};
}

} // namespace

extern "C" struct dp_so *dp_so_create(void) {
    try {
        return new dp_so;
    } catch (const std::exception&) {
        return nullptr;
    }
}

extern "C" void dp_so_destroy(struct dp_so *so) {
    delete so;
}

extern "C" bool dp_so_set(struct dp_so *so, const struct dp_so_state *s, char *why,
                          unsigned why_size) {
    try {
        if (!so->key || !so->key->matches(*s)) {
            so->so.reset();
            so->key.reset();
            so->refusal = build(*so, *s);
            so->key = key_of(*s);
        }
    } catch (const std::exception& e) {
        so->key.reset();
        so->refusal = e.what();
    }
    if (!so->refusal.empty() && why && why_size)
        std::snprintf(why, why_size, "%s", so->refusal.c_str());
    return so->refusal.empty() && so->so;
}

extern "C" bool dp_so_begin(struct dp_so *so, const unsigned internal_offset[4]) {
    if (!so->so) return false;
    const StreamOutputState& st = so->so->state();
    std::array<size_t, kMaxStreamOutputBuffers> fill{};
    for (unsigned b = 0; b < kMaxStreamOutputBuffers; ++b) {
        // begin_at refuses a fill past its buffer's size (caught below).
        if (st.buffers[b].data) fill[b] = internal_offset[b];
    }
    try {
        if (so->so->begun()) so->so->end();
        so->so->begin_at(fill);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

extern "C" void dp_so_end(struct dp_so *so) {
    if (so->so && so->so->begun()) so->so->end();
}

extern "C" void dp_so_reserve(struct dp_so *so, unsigned prim, unsigned flags, unsigned count,
                              struct dp_so_slot *slot) {
    StreamOutputCounts n;
    const StreamOutputReservation r = so->so->reserve(
        so->plan, 0, Prim(prim), uint8_t(flags & (SPLIT_BEFORE | SPLIT_AFTER)), count, n);
    for (unsigned b = 0; b < kMaxStreamOutputBuffers; ++b) {
        slot->position[b] = r.position[b];
        slot->end[b] = so->so->written_bytes(b);
    }
    slot->generated = unsigned(r.generated);
    slot->written = unsigned(r.written);
}

extern "C" bool dp_so_write_slot(const struct dp_so *so, const struct dp_so_slot *slot,
                                 const void *verts, unsigned vertex_count, unsigned prim,
                                 const uint16_t *elts, unsigned count) {
    if (!slot->written) return true;
    // Widened elements, one list per thread (segments are written on many at once).
    thread_local std::vector<uint32_t> wide;
    try {
        wide.resize(count);
    } catch (const std::exception&) {
        return false;
    }
    for (unsigned i = 0; i < count; ++i) wide[i] = elts ? elts[i] : i;
    StreamOutputReservation r;
    for (unsigned b = 0; b < kMaxStreamOutputBuffers; ++b) r.position[b] = slot->position[b];
    r.generated = slot->generated;
    r.written = slot->written;
    const VertexView view{static_cast<const uint32_t *>(verts), vertex_count, so->record_dwords};
    so->so->write_reserved(so->plan, 0, r, Prim(prim), so->pv, view, wide);
    return true;
}

extern "C" unsigned dp_so_prims_drawn(unsigned prim, unsigned count, unsigned flags) {
    if (prim > unsigned(Prim::polygon)) return 0;
    return unsigned(drawn_prim_count(Prim(prim), count, uint8_t(flags & (SPLIT_BEFORE | SPLIT_AFTER))));
}
