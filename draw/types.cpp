#include "drawpipe/types.hpp"
#include "draw/shade/format_table.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/prim.hpp"

#include <array>

namespace drawpipe {

namespace {
constexpr std::array<std::string_view, kPrimCount> kPrimNames = {
    "points",
    "lines",
    "line_loop",
    "line_strip",
    "triangles",
    "triangle_strip",
    "triangle_fan",
    "quads",
    "quad_strip",
    "polygon",
    "lines_adjacency",
    "line_strip_adjacency",
    "triangles_adjacency",
    "triangle_strip_adjacency",
    "patches",
};
constexpr std::array<std::string_view, 4> kIndexNames = {"none", "u8", "u16", "u32"};
} // namespace

std::string_view prim_name(Prim prim) {
    const auto i = size_t(prim);
    return i < kPrimNames.size() ? kPrimNames[i] : "unknown";
}

std::optional<Prim> parse_prim(std::string_view name) {
    for (size_t i = 0; i < kPrimNames.size(); ++i)
        if (kPrimNames[i] == name) return Prim(i);
    return std::nullopt;
}

std::string_view index_type_name(IndexType type) {
    const auto i = size_t(type);
    return i < kIndexNames.size() ? kIndexNames[i] : "unknown";
}

std::optional<IndexType> parse_index_type(std::string_view name) {
    for (size_t i = 0; i < kIndexNames.size(); ++i)
        if (kIndexNames[i] == name) return IndexType(i);
    return std::nullopt;
}

uint32_t index_size(IndexType type) {
    switch (type) {
    case IndexType::none:
        return 0;
    case IndexType::u8:
        return 1;
    case IndexType::u16:
        return 2;
    case IndexType::u32:
        return 4;
    }
    return 0;
}

std::string_view format_name(Format format) {
    return int(format) < kFormatCount ? detail::format_info(format).name : "unknown";
}

std::optional<Format> parse_format(std::string_view name) {
    for (const detail::FormatInfo& f : detail::kFormats)
        if (f.name == name) return f.format;
    return std::nullopt;
}

uint32_t format_components(Format format) {
    return int(format) < kFormatCount ? detail::format_info(format).components : 0;
}

uint32_t format_size(Format format) {
    return int(format) < kFormatCount ? detail::format_info(format).size() : 0;
}

ValueType format_value_type(Format format) {
    if (int(format) >= kFormatCount) return ValueType::float32;
    switch (detail::format_info(format).conv) {
    case detail::Conv::uint:
        return ValueType::uint32;
    case detail::Conv::sint:
        return ValueType::sint32;
    default:
        return ValueType::float32;
    }
}

std::optional<Prim> gs_input_compatible(Prim prim, Prim gs_input) {
    switch (gs_input) {
    case Prim::points:
        if (prim == Prim::points) return gs_input;
        break;
    case Prim::lines:
        if (prim == Prim::lines || prim == Prim::line_strip || prim == Prim::line_loop)
            return gs_input;
        break;
    case Prim::lines_adjacency:
        if (prim == Prim::lines_adjacency || prim == Prim::line_strip_adjacency) return gs_input;
        break;
    case Prim::triangles:
        if (prim == Prim::triangles || prim == Prim::triangle_strip || prim == Prim::triangle_fan)
            return gs_input;
        break;
    case Prim::triangles_adjacency:
        if (prim == Prim::triangles_adjacency || prim == Prim::triangle_strip_adjacency)
            return gs_input;
        break;
    default:
        break;
    }
    return std::nullopt;
}

const char* error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::invalid_value:
        return "invalid_value";
    case ErrorCode::index_buffer_overrun:
        return "index_buffer_overrun";
    case ErrorCode::count_overflow:
        return "count_overflow";
    case ErrorCode::base_vertex_overflow:
        return "base_vertex_overflow";
    case ErrorCode::limit_too_small:
        return "limit_too_small";
    case ErrorCode::index_range_mismatch:
        return "index_range_mismatch";
    case ErrorCode::middle_end_failure:
        return "middle_end_failure";
    case ErrorCode::unsupported:
        return "unsupported";
    case ErrorCode::parse_error:
        return "parse_error";
    case ErrorCode::not_found:
        return "not_found";
    case ErrorCode::invalid_operation:
        return "invalid_operation";
    case ErrorCode::io_error:
        return "io_error";
    }
    return "unknown";
}

} // namespace drawpipe
