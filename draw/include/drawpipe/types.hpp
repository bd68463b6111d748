// drawpipe public types: primitives, index types, vertex input and the draw call itself.
//
// drawpipe is a Gallium-style draw module: a front end splits a draw into segments
// (draw/front_end.hpp), a middle end fetches and shades each segment (draw/middle_end.hpp),
// and a backend receives the shaded vertices and element lists in draw order
// (backends/backend.hpp).
#pragma once

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
};
inline constexpr int kPrimCount = 14;

enum class IndexType : uint8_t { none, u8, u16, u32 };

// Which vertex of a flat-shaded primitive provides its attributes; GL's default is last.
enum class Provoking : uint8_t { first, last };

enum class Format : uint8_t {
    float32x1,
    float32x2,
    float32x3,
    float32x4,
    uint32x1,
    uint32x2,
    uint32x3,
    uint32x4,
    sint32x1,
    sint32x2,
    sint32x3,
    sint32x4,
    unorm8x4,
};

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
    // Identity of the index buffer from SplitCache::register_buffer (draw/split_cache.hpp);
    // 0 when the buffer is not registered and its splits are never cached.
    uint64_t index_buffer_id = 0;
};

std::string_view prim_name(Prim prim);
std::optional<Prim> parse_prim(std::string_view name);
std::string_view index_type_name(IndexType type);
std::optional<IndexType> parse_index_type(std::string_view name);
uint32_t index_size(IndexType type); // bytes per index, 0 for none
uint32_t format_components(Format format);
uint32_t format_size(Format format); // bytes per element

} // namespace drawpipe
