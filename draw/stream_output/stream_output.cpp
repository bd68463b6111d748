#include "drawpipe/stream_output.hpp"

#include "drawpipe/backend.hpp"
#include "drawpipe/decompose.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/segment.hpp"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <limits>
#include <string>

namespace drawpipe {

namespace {

// Bound ranges from this size on are written with streaming stores (above any L2 cache).
constexpr size_t kStreamingCapture = size_t(8) << 20;

// Copies `bytes` of each listed vertex record (from dword `src` on) to dst, `stride` bytes
// apart; returns the bytes the vertices took. Locals and restrict: the stores would otherwise
// make the compiler reload every pointer and count per vertex.
size_t copy_vertices(std::byte* __restrict dst, size_t stride, const uint32_t* __restrict src,
                     uint32_t record_dwords, const uint32_t* __restrict elts, size_t n,
                     size_t bytes, bool stream) {
    if (bytes == 16) {
#if defined(__SSE2__)
        // Large captures stream past the caches: their bytes are read later (by the driver,
        // or a draw of what was captured) and would only evict the records being read now.
        if (stream && (reinterpret_cast<uintptr_t>(dst) | stride) % 16 == 0) {
            for (size_t i = 0; i < n; ++i) {
                __m128i v;
                std::memcpy(&v, src + size_t(elts[i]) * record_dwords, 16);
                _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i * stride), v);
            }
            return n * stride;
        }
#endif
        for (size_t i = 0; i < n; ++i)
            std::memcpy(dst + i * stride, src + size_t(elts[i]) * record_dwords, 16);
    } else {
        for (size_t i = 0; i < n; ++i)
            std::memcpy(dst + i * stride, src + size_t(elts[i]) * record_dwords, bytes);
    }
    return n * stride;
}

[[noreturn]] void bad(const std::string& what) {
    throw Error(ErrorCode::invalid_value, "stream output: " + what);
}

std::string out_name(size_t i) {
    return "outputs[" + std::to_string(i) + "]";
}

const char* source_name(CaptureSource s) {
    switch (s) {
    case CaptureSource::position:
        return "position";
    case CaptureSource::varying:
        return "varying";
    case CaptureSource::point_size:
        return "point_size";
    case CaptureSource::clip_distance:
        return "clip_distance";
    case CaptureSource::layer:
        return "layer";
    case CaptureSource::viewport_index:
        return "viewport_index";
    case CaptureSource::vertex_id:
        return "vertex_id";
    case CaptureSource::instance_id:
        return "instance_id";
    case CaptureSource::gs_id:
        return "gs_id";
    case CaptureSource::draw_id:
        return "draw_id";
    case CaptureSource::tess_coord:
        return "tess_coord";
    }
    return "?";
}

// Components a source can have at most, whatever the stage declares.
uint32_t source_max_components(CaptureSource s) {
    switch (s) {
    case CaptureSource::position:
    case CaptureSource::varying:
        return 4;
    case CaptureSource::clip_distance:
        return kMaxClipDistances;
    case CaptureSource::tess_coord:
        return 2;
    default:
        return 1;
    }
}

} // namespace

void validate_stream_output(const StreamOutputState& state) {
    const auto& outs = state.outputs;
    // GL refuses to begin transform feedback with nothing to capture.
    if (outs.empty()) bad("outputs: none declared");
    if (state.mode != CaptureMode::interleaved && state.mode != CaptureMode::separate)
        bad("mode: not interleaved or separate");
    std::array<int, kMaxStreamOutputBuffers> stream_of;
    stream_of.fill(-1);
    uint32_t total = 0;
    for (size_t i = 0; i < outs.size(); ++i) {
        const CapturedOutput& o = outs[i];
        const std::string n = out_name(i);
        if (uint32_t(o.source) > uint32_t(CaptureSource::tess_coord)) bad(n + ".source: unknown");
        // A buffer index past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS names no binding point.
        if (o.buffer >= kMaxStreamOutputBuffers)
            bad(n + ".buffer: " + std::to_string(o.buffer) + ", at most " +
                std::to_string(kMaxStreamOutputBuffers - 1));
        // GL_MAX_VERTEX_STREAMS bounds the streams a geometry shader has.
        if (o.stream >= kMaxVertexStreams)
            bad(n + ".stream: " + std::to_string(o.stream) + ", at most " +
                std::to_string(kMaxVertexStreams - 1));
        // An output is captured whole components at a time, within what the source holds.
        const uint32_t max = source_max_components(o.source);
        if (o.components == 0 || o.first_component >= max || o.components > max - o.first_component)
            bad(n + ".components: " + std::to_string(o.first_component) + " + " +
                std::to_string(o.components) + " do not fit the " + source_name(o.source) + "'s " +
                std::to_string(max));
        // Separate mode puts each output alone in a buffer of at most 4 components.
        if (state.mode == CaptureMode::separate && o.components > kMaxSeparateComponents)
            bad(n + ".components: " + std::to_string(o.components) +
                ", separate outputs take at most " + std::to_string(kMaxSeparateComponents));
        total += o.components;
        // GL: every output captured into one buffer comes from the same vertex stream.
        if (stream_of[o.buffer] >= 0 && uint32_t(stream_of[o.buffer]) != o.stream)
            bad(n + ".stream: buffer " + std::to_string(o.buffer) + " already captures stream " +
                std::to_string(stream_of[o.buffer]));
        stream_of[o.buffer] = int(o.stream);
        const StreamOutputBuffer& b = state.buffers[o.buffer];
        const std::string bn = "buffers[" + std::to_string(o.buffer) + "]";
        // Captured values are dwords, so a vertex occupies whole dwords in the buffer.
        if (b.stride == 0 || b.stride % 4 != 0)
            bad(bn + ".stride: " + std::to_string(b.stride) + " is not a positive multiple of 4");
        // GL's glBindBufferRange takes only dword-aligned transform-feedback offsets.
        if (b.offset % 4 != 0)
            bad(bn + ".offset: " + std::to_string(b.offset) + " is not a multiple of 4");
        // A range must not wrap the address space, and memory must back a nonempty range.
        if (b.size > std::numeric_limits<size_t>::max() - b.offset)
            bad(bn + ".size: offset + size overflows");
        if (b.size > 0 && !b.data) bad(bn + ".data: null with a nonzero size");
        // The output must lie inside the vertex's stride, or it would spill into the next one.
        if (uint64_t(o.offset) + o.components > b.stride / 4)
            bad(n + ".offset: dwords " + std::to_string(o.offset) + " + " +
                std::to_string(o.components) + " pass the stride of " + bn + " (" +
                std::to_string(b.stride / 4) + " dwords)");
        // Two outputs writing the same dword would make the buffer depend on their order.
        for (size_t j = 0; j < i; ++j) {
            const CapturedOutput& p = outs[j];
            if (p.buffer == o.buffer && p.offset < o.offset + o.components &&
                o.offset < p.offset + p.components)
                bad(n + ".offset: overlaps " + out_name(j) + " in " + bn);
        }
        // Separate mode: output i alone in its buffer.
        if (state.mode == CaptureMode::separate)
            for (size_t j = 0; j < i; ++j)
                if (outs[j].buffer == o.buffer)
                    bad(n + ".buffer: separate mode gives each output its own buffer, " +
                        out_name(j) + " uses " + std::to_string(o.buffer) + " already");
    }
    // GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS / _INTERLEAVED_COMPONENTS.
    if (state.mode == CaptureMode::separate && outs.size() > kMaxSeparateOutputs)
        bad("outputs: " + std::to_string(outs.size()) + " separate outputs, at most " +
            std::to_string(kMaxSeparateOutputs));
    if (state.mode == CaptureMode::interleaved && total > kMaxInterleavedComponents)
        bad("outputs: " + std::to_string(total) + " interleaved components, at most " +
            std::to_string(kMaxInterleavedComponents));
}

StreamOutputPlan plan_stream_output(const StreamOutputState& state, const VertexLayout& layout,
                                    uint32_t streams) {
    StreamOutputPlan plan;
    const ShaderOutputs& so = layout.outputs;
    for (size_t i = 0; i < state.outputs.size(); ++i) {
        const CapturedOutput& o = state.outputs[i];
        const std::string n = out_name(i) + " (" + source_name(o.source) + ")";
        auto missing = [&](const std::string& why) { bad(n + ": " + why); };
        // Only a geometry shader has streams past 0, and only as many as it declares.
        if (o.stream >= streams)
            missing("stream " + std::to_string(o.stream) + ", the last vertex stage has " +
                    std::to_string(streams));
        uint32_t slot = 0, have = 1;
        switch (o.source) {
        case CaptureSource::position:
            slot = SLOT_POSITION, have = 4;
            break;
        case CaptureSource::varying:
            if (o.index >= layout.varying_count())
                missing("varying " + std::to_string(o.index) + ", the stage writes " +
                        std::to_string(layout.varying_count()));
            slot = layout.varying_slot(o.index), have = layout.varying(o.index).components;
            break;
        case CaptureSource::point_size:
            if (!so.point_size) missing("the stage does not write it");
            slot = layout.point_size_slot();
            break;
        case CaptureSource::clip_distance:
            slot = layout.clip_distance_slot(), have = so.clip_distances;
            break;
        case CaptureSource::layer:
            if (!so.layer) missing("the stage does not write it");
            slot = layout.layer_slot();
            break;
        case CaptureSource::viewport_index:
            if (!so.viewport_index) missing("the stage does not write it");
            slot = layout.viewport_slot();
            break;
        case CaptureSource::vertex_id:
        case CaptureSource::instance_id:
        case CaptureSource::draw_id:
            // A geometry shader's output vertex has no vertex id of its own.
            if (layout.gs_output) missing("not an output of a geometry shader");
            // After tessellation the header's dword 2 holds gl_TessCoord's u, not a draw id.
            if (layout.tess_output && o.source == CaptureSource::draw_id)
                missing("not an output of a tessellation evaluation stage");
            slot = o.source == CaptureSource::vertex_id     ? SLOT_VERTEX_ID
                   : o.source == CaptureSource::instance_id ? SLOT_INSTANCE_ID
                                                            : SLOT_DRAW_ID;
            break;
        case CaptureSource::gs_id:
            if (!layout.gs_output) missing("only a geometry shader writes it");
            slot = SLOT_GS_ID;
            break;
        case CaptureSource::tess_coord:
            if (!layout.tess_output) missing("only a tessellation evaluation stage has it");
            slot = SLOT_GS_ID, have = 2; // the header's u and v (drawpipe/tess.hpp)
            break;
        }
        // GL's link error: capturing components the output does not have.
        if (o.first_component + o.components > have)
            missing("components " + std::to_string(o.first_component) + " + " +
                    std::to_string(o.components) + ", the stage writes " + std::to_string(have));
        plan.copies[o.stream].push_back(
            {o.buffer, slot + o.first_component, o.offset, o.components});
        plan.buffer_mask[o.stream] |= 1u << o.buffer;
    }
    return plan;
}

uint64_t decomposed_prim_count(Prim prim, uint32_t count) {
    const uint32_t prims = gl_prim_count(prim, trim_count(prim, count));
    // Quads and quad strips decompose into two triangles each; every other GL primitive
    // is one point, line or triangle.
    return prim == Prim::quads || prim == Prim::quad_strip ? 2 * uint64_t(prims) : prims;
}

uint64_t drawn_prim_count(Prim prim, uint32_t count, uint8_t flags) {
    // A polygon is one primitive however many vertices it has, and however many pieces a
    // split cuts it into (the pieces after the first carry SPLIT_BEFORE).
    if (prim == Prim::polygon) return count >= 3 && !(flags & SPLIT_BEFORE) ? 1 : 0;
    return gl_prim_count(prim, trim_count(prim, count));
}

bool StreamOutput::capturing(const StreamOutputPlan& plan, uint32_t stream) const {
    if (!active()) return false;
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        if ((plan.buffer_mask[stream] >> b & 1) && state_.buffers[b].size > 0) return true;
    return false;
}

StreamOutput::StreamOutput(const StreamOutputState& state) : state_(state) {
    validate_stream_output(state_);
}

void StreamOutput::begin() {
    // GL: glBeginTransformFeedback while active is GL_INVALID_OPERATION.
    if (begun_) throw Error(ErrorCode::invalid_operation, "stream output: begin: already begun");
    begun_ = true;
    paused_ = false;
    position_.fill(0);
    vertices_.fill(0);
    counts_ = {};
}

void StreamOutput::begin_at(const std::array<size_t, kMaxStreamOutputBuffers>& written) {
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        if (written[b] > state_.buffers[b].size)
            bad("begin_at: buffers[" + std::to_string(b) + "] holds " + std::to_string(written[b]) +
                " bytes, more than its size " + std::to_string(state_.buffers[b].size));
    begin();
    position_ = written;
}

void StreamOutput::pause() {
    // GL: pausing needs an active, unpaused session.
    if (!begun_ || paused_)
        throw Error(ErrorCode::invalid_operation, "stream output: pause: no running session");
    paused_ = true;
}

void StreamOutput::resume() {
    if (!begun_ || !paused_)
        throw Error(ErrorCode::invalid_operation, "stream output: resume: no paused session");
    paused_ = false;
}

void StreamOutput::end() {
    if (!begun_) throw Error(ErrorCode::invalid_operation, "stream output: end: not begun");
    begun_ = false;
    paused_ = false;
    ended_once_ = true;
}

void StreamOutput::write(const StreamOutputPlan& plan, uint32_t stream, Prim prim, uint8_t flags,
                         Provoking pv, const VertexView& vertices, std::span<const uint32_t> elts,
                         StreamOutputCounts& draw) {
    if (!capturing(plan, stream)) {
        // Nothing captured, but GL's generated query counts regardless, primitives as drawn.
        const uint64_t n = drawn_prim_count(prim, uint32_t(elts.size()), flags);
        draw.generated[stream] += n;
        if (active()) counts_.generated[stream] += n; // an empty range is still the session's
        return;
    }
    const auto& copies = plan.copies[stream];
    const uint32_t mask = plan.buffer_mask[stream];
    uint64_t generated = 0, written = 0, written_vertices = 0;
    // The common capture, one output into one buffer, without the general loop's per-vertex
    // search over buffers and copies (a position capture ran at a fifth of memcpy's speed).
    if (copies.size() == 1 && (mask & (mask - 1)) == 0) {
        const StreamOutputPlan::Copy c = copies[0];
        const StreamOutputBuffer& buf = state_.buffers[c.buffer];
        std::byte* const base = static_cast<std::byte*>(buf.data) + buf.offset + 4 * size_t(c.dst);
        const size_t stride = buf.stride, room = buf.size;
        size_t at = position_[c.buffer];
        const size_t bytes = 4 * size_t(c.count);
        if (prim == Prim::triangles) {
            // The elements are already GL's order, and every triangle needs the same room:
            // the triangles that fit are a prefix, counted once, then copied without checks.
            const size_t tris = elts.size() / 3;
            const size_t fit = stride ? std::min(tris, (room - at) / (3 * stride)) : tris;
            at += copy_vertices(base + at, stride, vertices.data + c.src, vertices.stride,
                                elts.data(), 3 * fit, bytes, room >= kStreamingCapture);
            generated += tris;
            written += fit;
            written_vertices += 3 * fit;
        } else {
            decompose_elements(prim, pv, elts, [&](uint32_t n, const uint32_t* e) {
                ++generated;
                if (uint64_t(n) * stride > room - at) return; // whole or nothing
                at += copy_vertices(base + at, stride, vertices.data + c.src, vertices.stride, e, n,
                                    bytes, false);
                ++written;
                written_vertices += n;
            });
        }
#if defined(__SSE2__)
        _mm_sfence(); // the streaming stores are visible before the caller reads the buffer
#endif
        position_[c.buffer] = at;
        vertices_[stream] += written_vertices;
        draw.generated[stream] += generated;
        draw.written[stream] += written;
        counts_.generated[stream] += generated;
        counts_.written[stream] += written;
        return;
    }
    decompose_elements(prim, pv, elts, [&](uint32_t n, const uint32_t* e) {
        ++generated;
        // Each primitive is checked on its own, as Mesa does: a draw of smaller primitives
        // later in the session may still fit where a larger one did not.
        for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b) {
            if (!(mask >> b & 1)) continue;
            const StreamOutputBuffer& buf = state_.buffers[b];
            // Whole or nothing: every vertex of the primitive must fit in every buffer.
            if (uint64_t(n) * buf.stride > buf.size - position_[b]) return;
        }
        write_primitive(copies, mask, vertices, e, n, position_);
        ++written;
        written_vertices += n;
    });
    vertices_[stream] += written_vertices;
    draw.generated[stream] += generated;
    draw.written[stream] += written;
    counts_.generated[stream] += generated;
    counts_.written[stream] += written;
}

StreamOutputReservation StreamOutput::reserve(const StreamOutputPlan& plan, uint32_t stream,
                                              Prim prim, uint8_t flags, uint32_t count,
                                              StreamOutputCounts& draw) {
    StreamOutputReservation r;
    r.position = position_;
    if (!capturing(plan, stream)) { // as write(): counted as drawn, nothing written
        r.generated = drawn_prim_count(prim, count, flags);
        draw.generated[stream] += r.generated;
        if (active()) counts_.generated[stream] += r.generated;
        return r;
    }
    r.generated = decomposed_prim_count(prim, count);
    // write() skips a primitive that does not fit whole; all of them are the same size here,
    // so once one does not fit none after it does: what is written is a prefix.
    const uint32_t n = decomposed_vertices(prim);
    const uint32_t mask = plan.buffer_mask[stream];
    uint64_t fit = r.generated;
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        if (mask >> b & 1)
            fit = std::min<uint64_t>(fit, (state_.buffers[b].size - position_[b]) /
                                              (uint64_t(n) * state_.buffers[b].stride));
    r.written = fit;
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        if (mask >> b & 1) position_[b] += size_t(fit * n * state_.buffers[b].stride);
    vertices_[stream] += fit * n;
    draw.generated[stream] += r.generated;
    draw.written[stream] += fit;
    counts_.generated[stream] += r.generated;
    counts_.written[stream] += fit;
    return r;
}

void StreamOutput::write_reserved(const StreamOutputPlan& plan, uint32_t stream,
                                  const StreamOutputReservation& at, Prim prim, Provoking pv,
                                  const VertexView& vertices,
                                  std::span<const uint32_t> elts) const {
    if (at.written == 0) return;
    const auto& copies = plan.copies[stream];
    // Lists decompose into their own elements in order: a copy per output over all of them.
    if (prim == Prim::points || prim == Prim::lines || prim == Prim::triangles) {
        const size_t v = size_t(at.written) * decomposed_vertices(prim);
        for (const StreamOutputPlan::Copy& c : copies) {
            const StreamOutputBuffer& buf = state_.buffers[c.buffer];
            std::byte* base = static_cast<std::byte*>(buf.data) + buf.offset +
                              at.position[c.buffer] + 4 * size_t(c.dst);
            copy_vertices(base, buf.stride, vertices.data + c.src, vertices.stride, elts.data(), v,
                          4 * size_t(c.count), false);
        }
        return;
    }
    std::array<size_t, kMaxStreamOutputBuffers> position = at.position;
    const uint32_t mask = plan.buffer_mask[stream];
    uint64_t done = 0;
    decompose_elements(prim, pv, elts, [&](uint32_t k, const uint32_t* e) {
        if (done == at.written) return;
        write_primitive(copies, mask, vertices, e, k, position);
        ++done;
    });
}

void StreamOutput::write_primitive(const std::vector<StreamOutputPlan::Copy>& copies, uint32_t mask,
                                   const VertexView& vertices, const uint32_t* e, uint32_t n,
                                   std::array<size_t, kMaxStreamOutputBuffers>& position) const {
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t* v = vertices.vertex(e[i]);
        for (const StreamOutputPlan::Copy& c : copies) {
            const StreamOutputBuffer& buf = state_.buffers[c.buffer];
            std::byte* dst = static_cast<std::byte*>(buf.data) + buf.offset + position[c.buffer] +
                             size_t(i) * buf.stride + 4 * size_t(c.dst);
            std::memcpy(dst, v + c.src, 4 * size_t(c.count));
        }
    }
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        if (mask >> b & 1) position[b] += size_t(n) * state_.buffers[b].stride;
}

} // namespace drawpipe
