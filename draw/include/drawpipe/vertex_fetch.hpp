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

// Reads one element of an attribute as four dwords (floats as bits; missing components
// are 0, 0, 0, 1). A read that would leave the buffer returns all zeros (robust access),
// so out-of-range vertex ids never touch memory outside the buffer.
void fetch_attrib(const VertexBuffer& buffer, const VertexAttrib& a, uint64_t element,
                  uint32_t out[4]);

// Checks attribute/buffer bindings; throws Error naming the attribute.
void validate_vertex_input(const VertexInput& input);

} // namespace drawpipe
