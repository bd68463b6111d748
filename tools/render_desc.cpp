#include "tools/render_desc.hpp"

#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/gs.hpp"
#include "tools/common/tess_library.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace drawpipe::cli {

uint64_t vertex_span(const DrawDesc& d) {
    uint64_t top = 0;
    for (const DrawRange& r : draw_ranges(d)) { // the draw, or each sub-draw
        if (d.index_type == IndexType::none) {
            top = std::max<uint64_t>(top, uint64_t(r.start) + r.count);
        } else {
            for (uint64_t i = r.start; i < uint64_t(r.start) + r.count && i < d.indices.size(); ++i)
                if (!d.restart || d.indices[i] != d.restart_index)
                    top = std::max<uint64_t>(top,
                                             uint64_t(int64_t(d.indices[i]) + r.base_vertex) + 1);
        }
    }
    return std::max<uint64_t>(top, d.render.positions.size() / 4);
}

namespace {

// `values` padded with `fill` (one group of `n`) up to `count` groups.
std::vector<float> padded(std::vector<float> values, std::initializer_list<float> fill,
                          uint64_t count) {
    while (values.size() < count * fill.size()) values.insert(values.end(), fill);
    return values;
}

} // namespace

RasterBackend render_description(const DrawDesc& given, const DescRender& how) {
    if (how.width > 16384 || how.height > 16384)
        throw Error(ErrorCode::invalid_value, "--width, --height: at most 16384");
    DrawDesc desc = given;
    const uint64_t span = vertex_span(desc);
    if (span > (uint64_t(1) << 24))
        throw Error(ErrorCode::invalid_value,
                    "render: vertex ids up to 2^24 (the draw reads " + std::to_string(span) + ")");
    // Attribute 0 the position, 1 the colour, 2 the edge flag, 3 the back colour (two_side,
    // or a gs reading it); without a vertex shader each reaches the varying of its number,
    // attribute 0 the position too.
    const bool two_side = desc.render.raster.two_side;
    // After a geometry shader the colours are what it writes, as GL's gl_FrontColor and
    // gl_BackColor: its varying 0 the front, varying 1 the back.
    if (two_side && how.gs && how.gs->outputs.varying_count < 2)
        throw Error(ErrorCode::invalid_value,
                    "two_side: the gs '" + how.gs->name + "' writes " +
                        std::to_string(how.gs->outputs.varying_count) +
                        " varyings; two-sided colour takes its varying 0 as the front colour "
                        "and varying 1 as the back one (as gs color_pair_tri writes them)");
    const bool swapped = desc.render.clip_vertex_swapped;
    if (swapped && (how.gs || desc.tess))
        throw Error(ErrorCode::invalid_value,
                    "clip_style swapped: not with a geometry shader or tessellation");
    // The swapped clip vertex is attribute 4, so the back colour is bound before it.
    const bool back_input = two_side || swapped || (how.gs && how.gs->input_varyings > 3);
    const std::vector<float> pos = padded(desc.render.positions, {0, 0, 0, 1}, span);
    const std::vector<float> col = padded(desc.render.colors, {1, 1, 1, 1}, span);
    const std::vector<float> edge = padded(desc.render.edgeflags, {1}, span);
    const std::vector<float> back =
        padded(desc.render.back_colors, {1, 1, 1, 1}, back_input ? span : 0);
    std::vector<float> clip_vertex;
    if (swapped)
        for (size_t v = 0; v + 3 < pos.size(); v += 4)
            clip_vertex.insert(clip_vertex.end(), {pos[v + 1], pos[v], pos[v + 2], pos[v + 3]});
    desc.attrib_divisors.clear();
    const auto bound = bind_draw(desc);
    const VertexBuffer buffers[5] = {{pos.data(), pos.size() * 4, 16, 0},
                                     {col.data(), col.size() * 4, 16, 0},
                                     {edge.data(), edge.size() * 4, 4, 0},
                                     {back.data(), back.size() * 4, 16, 0},
                                     {clip_vertex.data(), clip_vertex.size() * 4, 16, 0}};
    const VertexAttrib attribs[5] = {{0, 0, Format::float32x4, 0},
                                     {1, 0, Format::float32x4, 0},
                                     {2, 0, Format::float32x1, 0},
                                     {3, 0, Format::float32x4, 0},
                                     {4, 0, Format::float32x4, 0}};
    RasterState raster = desc.render.raster;
    if (swapped) raster.clip_vertex_varying = 4;
    if (two_side) raster.two_side_colors[0] = how.gs ? ColorPair{0, 1} : ColorPair{1, 3};
    if (!desc.render.viewport_given) {
        raster.viewport.width = float(how.width);
        raster.viewport.height = float(how.height);
    }
    // Viewport arrays: every index a viewport, as GL keeps them; those not given are viewport
    // 0's, as glViewport and glDepthRange set them all.
    if (!desc.render.viewport_array.empty()) {
        const Viewport all = raster.viewport; // what glViewport and glDepthRange set
        raster.viewport_count = kMaxViewports;
        raster.extra_viewports.fill(all);
        for (const auto& e : desc.render.viewport_array) {
            Viewport v = e.viewport;
            if (!e.depth_given) v.near = all.near, v.far = all.far;
            (e.index == 0 ? raster.viewport : raster.extra_viewports[e.index - 1]) = v;
        }
    }
    // A geometry shader's outputs are its own: its first varying is taken as the colour.
    // Edge flags are the vertex stage's alone: tessellated primitives have none.
    raster.edge_flag_varying = how.gs || desc.tess ? -1 : 2;
    // Point sprites: the coordinates replace the colour, as a fragment shader writing
    // gl_PointCoord as its colour would show them.
    raster.sprite_coord_varying = desc.render.point_sprite ? (how.gs ? 0 : 1) : -1;
    // Lines of every width are drawn by the backend, as llvmpipe draws them (Mesa's draw
    // module leaves them to it: draw_wide_line_threshold 10000).
    raster.wide_line_threshold = 10000.0f;
    RasterOptions ro{.colour_varying = how.gs ? 0 : 1,
                     .depth_test = desc.render.depth_test,
                     .line_width = raster.line_width,
                     .depth_clamp = raster.depth_clamp,
                     .top_edge_rule = raster.clip_origin == ClipOrigin::upper_left};
    for (uint32_t i = 0; i < kMaxViewports; ++i) {
        const Viewport& v = raster.viewport_at(i);
        ro.depth_ranges[i] = {std::clamp(v.near, 0.0f, 1.0f), std::clamp(v.far, 0.0f, 1.0f)};
    }
    RasterBackend image(how.width, how.height, ro);
    ContextOptions co;
    co.threads = how.threads;
    co.draw = {how.strategy, how.max_vertices};
    Context ctx(co);
    if (how.middle)
        ctx.bind_middle_end(how.middle);
    else
        ctx.bind_middle_end(how.middle_end);
    ctx.bind_backend(image);
    // The back colour only when it is read, the clip vertex after it.
    const size_t inputs = swapped ? 5 : back_input ? 4 : 3;
    ctx.set_vertex_buffers(std::span(buffers, inputs));
    ctx.set_vertex_attribs(std::span(attribs, inputs));
    ctx.bind_geometry_shader(how.gs);
    // Tessellation: the interpolate shader carries the position and the colour through.
    // The same inputs as the context's: the shaders read as many varyings as it shades.
    DrawState tess_state{
        bound->info, {std::span(buffers, inputs), std::span(attribs, inputs)}, nullptr, how.gs};
    DescTess tess;
    tess.bind(desc, tess_state);
    if (tess_state.tcs) ctx.bind_tess_control(*tess_state.tcs);
    if (tess_state.tes) ctx.bind_tess_eval(*tess_state.tes);
    ctx.set_patch_default_levels(tess_state.patch_default_levels);
    ctx.set_raster_state(raster);
    submit_draw(ctx, *bound);
    ctx.flush();
    return image;
}

} // namespace drawpipe::cli
