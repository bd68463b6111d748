// drawpipe public types: primitives, index types, vertex input and the draw call itself.
//
// drawpipe is a Gallium-style draw module: a front end splits a draw into segments
// (draw/front_end/front_end.hpp), a middle end fetches and shades each segment
// (<drawpipe/middle_end.hpp>), and a backend receives the shaded vertices and element
// lists in draw order (<drawpipe/backend.hpp>).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace drawpipe {

enum class Prim : uint8_t {
    points,
    lines,
    line_loop,
    line_strip,
    triangles,
    triangle_strip,
    triangle_fan,
    quads,
    quad_strip,
    polygon,
    lines_adjacency,
    line_strip_adjacency,
    triangles_adjacency,
    triangle_strip_adjacency,
    patches, // GL_PATCHES: DrawInfo::patch_vertices each, drawn only through tessellation
};
inline constexpr int kPrimCount = 15;
inline constexpr uint32_t kMaxPatchVertices = 32; // GL_MAX_PATCH_VERTICES

enum class IndexType : uint8_t { none, u8, u16, u32 };

// Which vertex of a flat-shaded primitive provides its attributes; GL's default is last.
enum class Provoking : uint8_t { first, last };

// Vertex attribute formats, every one GL accepts (docs/vertex-formats.md has the conversion
// rules). Components are in memory order x, y, z, w. unorm/snorm are normalized
// (glVertexAttribPointer, normalized = TRUE), uscaled/sscaled converted to float
// (normalized = FALSE), uint/sint pure integers (glVertexAttribIPointer, bits kept and
// widened to 32). fixed32 is GL_FIXED (16.16). 10_10_10_2 is GL's *_2_10_10_10_REV (x in
// bits 0-9, w in bits 30-31), ufloat11_11_10 GL_UNSIGNED_INT_10F_11F_11F_REV; bgra_* is GL's
// size GL_BGRA, which swaps components 0 and 2.
// clang-format off
enum class Format : uint8_t {
    float32x1, float32x2, float32x3, float32x4,
    uint32x1, uint32x2, uint32x3, uint32x4,
    sint32x1, sint32x2, sint32x3, sint32x4,
    float16x1, float16x2, float16x3, float16x4,
    float64x1, float64x2, float64x3, float64x4,
    fixed32x1, fixed32x2, fixed32x3, fixed32x4,
    unorm8x1, unorm8x2, unorm8x3, unorm8x4,
    unorm16x1, unorm16x2, unorm16x3, unorm16x4,
    unorm32x1, unorm32x2, unorm32x3, unorm32x4,
    snorm8x1, snorm8x2, snorm8x3, snorm8x4,
    snorm16x1, snorm16x2, snorm16x3, snorm16x4,
    snorm32x1, snorm32x2, snorm32x3, snorm32x4,
    uscaled8x1, uscaled8x2, uscaled8x3, uscaled8x4,
    uscaled16x1, uscaled16x2, uscaled16x3, uscaled16x4,
    uscaled32x1, uscaled32x2, uscaled32x3, uscaled32x4,
    sscaled8x1, sscaled8x2, sscaled8x3, sscaled8x4,
    sscaled16x1, sscaled16x2, sscaled16x3, sscaled16x4,
    sscaled32x1, sscaled32x2, sscaled32x3, sscaled32x4,
    uint8x1, uint8x2, uint8x3, uint8x4,
    uint16x1, uint16x2, uint16x3, uint16x4,
    sint8x1, sint8x2, sint8x3, sint8x4,
    sint16x1, sint16x2, sint16x3, sint16x4,
    unorm10_10_10_2, snorm10_10_10_2, uscaled10_10_10_2, sscaled10_10_10_2,
    ufloat11_11_10,
    bgra_unorm8x4, bgra_unorm10_10_10_2, bgra_snorm10_10_10_2,
};
// clang-format on
inline constexpr int kFormatCount = int(Format::bgra_snorm10_10_10_2) + 1;

// How four 32-bit components read: as floats, or as integer bits.
enum class ValueType : uint8_t { float32, sint32, uint32 };

struct VertexBuffer {
    const void* data = nullptr;
    size_t size = 0;     // bytes readable from data
    uint32_t stride = 0; // bytes between elements; 0 is legal (every element aliases)
    uint32_t offset = 0; // bytes from data to element 0
};

struct VertexAttrib {
    uint32_t buffer = 0; // index into the bound vertex buffers
    uint32_t offset = 0; // bytes added to the buffer's offset
    Format format = Format::float32x4;
    uint32_t divisor = 0; // 0 = per vertex; d = one element per d instances
    // A disabled array (glDisableVertexAttribArray) reads no buffer: every vertex and
    // instance gets `current` (glVertexAttrib4f / I4i / I4ui), read as `current_type`, and
    // buffer, offset, format and divisor are ignored. GL's initial value is (0, 0, 0, 1.0f).
    bool enabled = true;
    ValueType current_type = ValueType::float32;
    std::array<uint32_t, 4> current = {0, 0, 0, 0x3F800000};
};

struct VertexInput {
    std::span<const VertexBuffer> buffers;
    std::span<const VertexAttrib> attribs;
};

// Inclusive bounds of the raw index values (before base vertex), restart index excluded.
struct IndexRange {
    uint32_t min = 0;
    uint32_t max = 0;
};

struct DrawInfo {
    Prim prim = Prim::triangles;
    IndexType index_type = IndexType::none;
    const void* indices = nullptr;   // the index buffer, when index_type != none
    uint32_t index_buffer_count = 0; // indices readable from `indices`
    uint32_t start = 0;              // first index (first vertex when not indexed)
    uint32_t count = 0;
    int32_t base_vertex = 0; // added to each index value; indexed draws only
    bool primitive_restart = false;
    uint32_t restart_index = 0;
    uint32_t instance_count = 1;
    uint32_t base_instance = 0;
    Provoking provoking = Provoking::last;
    std::optional<IndexRange> index_range; // trusted when present (checked in debug builds)
    // Identity of the index buffer from SplitCache::register_buffer (<drawpipe/split_cache.hpp>);
    // 0 when the buffer is not registered and its splits are never cached.
    uint64_t index_buffer_id = 0;
    // gl_DrawID: the draw's index within its multi-draw or indirect draw (0 for a single
    // draw). The vertex shader reads it (ShaderBlock::draw_id) and every vertex-stage record
    // carries it (SLOT_DRAW_ID), so it can be captured; it changes nothing else.
    uint32_t draw_id = 0;
    // Vertices per patch for Prim::patches (glPatchParameteri(GL_PATCH_VERTICES)), 1-32.
    uint32_t patch_vertices = 3;
};

std::string_view prim_name(Prim prim);
std::optional<Prim> parse_prim(std::string_view name);
std::string_view index_type_name(IndexType type);
std::optional<IndexType> parse_index_type(std::string_view name);
uint32_t index_size(IndexType type);         // bytes per index, 0 for none
std::string_view format_name(Format format); // "unknown" when out of range
std::optional<Format> parse_format(std::string_view name);
uint32_t format_components(Format format); // 1-4; 0 for an unknown Format value
uint32_t format_size(Format format);       // bytes per element; 0 for an unknown Format value
// uint32 / sint32 for the pure-integer formats, float32 for every other.
ValueType format_value_type(Format format);

} // namespace drawpipe
