// Built-in named geometry shaders, for the CLI (`--gs NAME`, `gs NAME` in a draw
// description) and the tests. Each writes an integer `id` per emitted vertex; with
// tag(i) = 1000000 * instance + 1000 * primitive_id_in + vertex id of input i and
// tagn(n) = 1000000 * instance + 1000 * primitive_id_in + n:
//
//   passthrough_tri      triangles -> triangle_strip, max 3: inputs 0 1 2 as tag(i), end
//   amplify3_layer       triangles -> triangle_strip, max 9: for layer c in 0..2, inputs
//                        0 1 2 as tag(i) with layer c, end
//   strip_cut_middle     triangles -> triangle_strip, max 9: tagn(0..3), end, tagn(4..5),
//                        end, tagn(6..8) (the 2-vertex strip vanishes)
//   endprim_before_emit  triangles -> triangle_strip, max 5: end, end, tagn(0..4), end, end
//   cull_odd             triangles -> triangle_strip, max 3: nothing for odd primitive ids,
//                        else as passthrough_tri
//   many_cuts64          triangles -> triangle_strip, max 64: tagn(n) for n in 0..42, end
//                        after each n with n mod 5 = 4
//   points_out           triangles -> points, max 3: inputs 2 1 0 as tag(i)
//   line_strip_out       triangles -> line_strip, max 4: inputs 0 1 2 0 as tag(i), end
//   lines_in             lines -> line_strip, max 2: inputs 0 1 as tag(i)
//   lines_adj_in         lines_adjacency -> line_strip, max 4: inputs 0 1 2 3 as tag(i)
//   tris_adj_in          triangles_adjacency -> triangle_strip, max 6: inputs 0 2 4, end,
//                        inputs 1 3 5
//   points_in_quad       points -> triangle_strip, max 4: for corner c in 0..3,
//                        1000000 * instance + 1000 * primitive_id_in + 10 * vertex id + c
//   invocations4         triangles -> triangle_strip, max 3, 4 invocations: inputs 0 1 2 as
//                        tag(i) + 100 * invocation with layer = invocation
//   streams2             points -> points, max 2, 2 streams: input 0 to stream 0 as tag(0)
//                        and to stream 1 as tag(0) + 500
//   streams4             triangles -> points, max 8, 4 streams: (stream, input) (0, 0) (1, 0)
//                        (2, 1) (0, 1) (3, 2) (1, 2) (0, 2) (3, 0), each as tag(i) + 500 * stream
//   color_tri            triangles -> triangle_strip, max 3: inputs 0 1 2 as tag(i) with
//                        varying 0 = input i's varying 0, end (needs a vertex shader that
//                        writes a varying, e.g. `vs color`)
//   color_swizzle_lines  lines -> line_strip, max 2: inputs 0 1 as tag(i) with varying 0 =
//                        input i's varying 0 reversed (w, z, y, x)
//   viewport_select      triangles -> triangle_strip, max 3: inputs 0 1 2 as they came
//                        (position, varying 0 = input's varying 1) in viewport
//                        gl_PrimitiveIDIn % 4
//   color_pair_tri       triangles -> triangle_strip, max 3: inputs 0 1 2 as they came,
//                        varying 0 = input's varying 1 (front colour), varying 1 = input's
//                        varying 3 (back colour): drawpipe render's two-sided colour
//
// Every library shader computes each vertex's values after the previous emit, so all of
// them declare independent_vertices.
#pragma once

#include "drawpipe/gs.hpp"

#include <span>
#include <string_view>

namespace drawpipe {

// All built-in shaders, in the order above. Immutable; safe to read from any thread.
std::span<const GeometryShader> gs_library();
// The built-in shader called `name`; throws Error(not_found) listing the known names.
const GeometryShader& find_gs(std::string_view name);

} // namespace drawpipe
