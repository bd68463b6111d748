// Attribute fetch with GL semantics and robust buffer access.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>

namespace drawpipe {

// Element an attribute reads for a vertex: the vertex id when per-vertex, otherwise
// base_instance + instance / divisor (instance 0-based within the draw).
inline uint64_t attrib_element(const VertexAttrib& a, uint32_t vertex_id, uint32_t instance,
                               uint32_t base_instance) {
    return a.divisor == 0 ? vertex_id : uint64_t(base_instance) + instance / a.divisor;
}

// Reads one element of an attribute as four dwords, converted as GL converts `a.format`
// (floats as bits, pure integers widened to 32 bits; missing components are 0, 0, 0, 1,
// with an integer 1 for pure-integer formats). A read that would leave the buffer returns
// all zeros (robust access), so out-of-range vertex ids never touch memory outside the
// buffer. A disabled attribute returns `a.current` and reads nothing. `a` must have passed
// validate_vertex_input.
void fetch_attrib(const VertexBuffer& buffer, const VertexAttrib& a, uint64_t element,
                  uint32_t out[4]);

// What attribute `a` of `input` holds for a vertex of an instance: its element of its
// buffer (attrib_element, fetch_attrib), or its current value when it is disabled (whose
// buffer need not be bound).
void fetch_vertex_attrib(const VertexInput& input, const VertexAttrib& a, uint32_t vertex_id,
                         uint32_t instance, uint32_t base_instance, uint32_t out[4]);

// Checks attribute/buffer bindings and formats; throws Error naming the attribute. A
// disabled attribute is checked only for its current_type.
void validate_vertex_input(const VertexInput& input);

} // namespace drawpipe
