#include "drawpipe/backends/trace.hpp"

#include "drawpipe/decompose.hpp"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace drawpipe {

namespace {

void append_u32(std::string& s, uint32_t v) {
    char buf[16];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
}

void append_component(std::string& s, ValueType t, uint32_t bits) {
    if (t == ValueType::uint32) return append_u32(s, bits);
    char buf[32];
    std::to_chars_result r;
    if (t == ValueType::sint32)
        r = std::to_chars(buf, buf + sizeof buf, int32_t(bits));
    else
        r = std::to_chars(buf, buf + sizeof buf, dword_float(bits));
    s.append(buf, r.ptr);
}

void append_vertex_to(std::string& s, const uint32_t* v, const VertexLayout& layout, bool draw_id) {
    if (layout.tess_output) {
        // p<patch>/<instance>(u,v,w): w = 1 - u - v in float for triangles, as llvmpipe's.
        const float u = dword_float(v[SLOT_GS_ID]), t = dword_float(v[SLOT_GS_LAYER]);
        const float w = layout.tess_triangles ? 1.0f - u - t : 0.0f;
        char buf[96];
        const int n = std::snprintf(buf, sizeof buf, "p%u/%u(%.9g,%.9g,%.9g)", v[SLOT_VERTEX_ID],
                                    v[SLOT_INSTANCE_ID], double(u), double(t), double(w));
        s.append(buf, size_t(n));
    } else if (layout.gs_output) {
        append_u32(s, v[SLOT_GS_ID]);
        if (layout.outputs.layer) {
            s += '@';
            append_u32(s, v[SLOT_GS_LAYER]);
        }
    } else {
        append_u32(s, v[SLOT_VERTEX_ID]);
        s += '/';
        append_u32(s, v[SLOT_INSTANCE_ID]);
        if (draw_id) {
            s += '/';
            append_u32(s, v[SLOT_DRAW_ID]);
        }
    }
    if (layout.varying_count() == 0) return;
    s += '[';
    for (uint32_t a = 0; a < layout.varying_count(); ++a) {
        const Varying& var = layout.varying(a);
        for (uint32_t c = 0; c < var.components; ++c) {
            if (a + c > 0) s += ',';
            append_component(s, var.type, v[layout.varying_slot(a) + c]);
        }
    }
    s += ']';
}

} // namespace

std::string trace_vertex(const uint32_t* v, const VertexLayout& layout, bool draw_id) {
    std::string s;
    append_vertex_to(s, v, layout, draw_id);
    return s;
}

void TraceBackend::begin_draw(const DrawInfo& draw, const VertexLayout& layout) {
    provoking_ = draw.provoking;
    layout_ = layout;
}

// Text streamed out is written in pieces of about this size.
constexpr size_t kStreamChunk = size_t(1) << 16;

void TraceBackend::append_vertex(const uint32_t* v) {
    append_vertex_to(text_, v, layout_, draw_ids_);
}

void TraceBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                 std::span<const uint32_t> elts) {
    static constexpr const char* kNames[4] = {"", "point", "line", "tri"};
    decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
        text_ += kNames[n];
        for (uint32_t i = 0; i < n; ++i) {
            text_ += ' ';
            append_vertex(vertices.vertex(e[i]));
        }
        text_ += '\n';
    });
    if (out_ && text_.size() >= kStreamChunk) write_out();
}

void TraceBackend::end_draw() {
    if (out_) write_out();
}

void TraceBackend::write_out() {
    if (std::fwrite(text_.data(), 1, text_.size(), out_) != text_.size())
        throw std::runtime_error("trace: writing the output failed");
    text_.clear();
}

} // namespace drawpipe
