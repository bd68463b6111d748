// The trace backend: the canonical text form of what a draw produced, one decomposed
// primitive per line (`point A`, `line A B`, `tri A B C`). A vertex prints as
// `vertexid/instanceid` (a geometry-shader output vertex: its `id`, then `@L` when the shader
// writes a layer; with print_draw_ids on, a vertex-stage vertex prints as
// `vertexid/instanceid/drawid`), then `[v0,v1,...]`: the declared components of each varying
// (without a vertex shader, the attributes), floats in shortest form, integer varyings as integers.
#pragma once

#include "drawpipe/backend.hpp"

#include <cstdio>
#include <string>

namespace drawpipe {

class TraceBackend final : public Backend {
  public:
    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override;
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override;

    void end_draw() override;

    const std::string& text() const { return text_; }
    std::string take() { return std::move(text_); }
    void clear() { text_.clear(); }
    // Writes the text to `out` as it grows, in chunks, and at each draw's end, keeping none
    // of it: memory stays bounded for any draw. Null (the default) keeps the text instead.
    void stream_to(std::FILE* out) { out_ = out; }
    // Prints each vertex-stage vertex's draw id (SLOT_DRAW_ID) after its instance id, for the
    // draws of a multi-draw or indirect draw. Off by default.
    void print_draw_ids(bool on) { draw_ids_ = on; }

  private:
    void append_vertex(const uint32_t* v);
    void write_out();
    std::string text_;
    std::FILE* out_ = nullptr;
    Provoking provoking_ = Provoking::last;
    VertexLayout layout_;
    bool draw_ids_ = false;
};

// Formats one vertex as the trace does.
std::string trace_vertex(const uint32_t* v, const VertexLayout& layout, bool draw_id = false);

} // namespace drawpipe
