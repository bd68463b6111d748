// Built-in named vertex shaders, for the CLI (`vs NAME` in a draw description) and the
// tests; tests/mesa has each in GLSL. With none, the attributes pass through.
//
//   color   one smooth float4 varying, (vertex id / 2, instance id + 0.25, -vertex id, 1);
//           position (0, 0, 0, 1). Every value is exact in float, so traces compare exactly.
#pragma once

#include "drawpipe/shader.hpp"

#include <span>
#include <string_view>

namespace drawpipe {

struct NamedVertexShader {
    std::string_view name;
    VertexShader shader;
};

// All built-in shaders. Immutable; safe to read from any thread.
std::span<const NamedVertexShader> vs_library();
// The built-in shader called `name`; throws Error(not_found) listing the known names.
const VertexShader& find_vs(std::string_view name);

} // namespace drawpipe
