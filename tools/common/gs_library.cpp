#include "tools/common/gs_library.hpp"

#include "drawpipe/error.hpp"

#include <vector>

namespace drawpipe {

namespace {

uint32_t base_tag(GsContext& ctx) {
    return 1000000u * ctx.instance_id() + 1000u * ctx.primitive_id_in();
}
uint32_t tag(GsContext& ctx, uint32_t i) {
    return base_tag(ctx) + ctx.vertex_id(i);
}
uint32_t tagn(GsContext& ctx, uint32_t n) {
    return base_tag(ctx) + n;
}

void emit_inputs(GsContext& ctx, std::initializer_list<uint32_t> inputs) {
    for (uint32_t i : inputs) ctx.emit_vertex({.id = tag(ctx, i)});
}

GeometryShader shader(const char* name, Prim in, Prim out, uint32_t max_vertices,
                      std::function<void(GsContext&)> main) {
    GeometryShader gs;
    gs.name = name;
    gs.input = in;
    gs.output = out;
    gs.max_vertices = max_vertices;
    gs.independent_vertices = true;
    gs.main = std::move(main);
    return gs;
}

std::vector<GeometryShader> build_library() {
    constexpr Prim tris = Prim::triangles, strip = Prim::triangle_strip;
    std::vector<GeometryShader> lib;
    lib.push_back(shader("passthrough_tri", tris, strip, 3, [](GsContext& ctx) {
        emit_inputs(ctx, {0, 1, 2});
        ctx.end_primitive();
    }));
    lib.push_back(shader("amplify3_layer", tris, strip, 9, [](GsContext& ctx) {
        for (uint32_t c = 0; c < 3; ++c) {
            for (uint32_t i = 0; i < 3; ++i) ctx.emit_vertex({.id = tag(ctx, i), .layer = c});
            ctx.end_primitive();
        }
    }));
    lib.back().outputs.layer = true;
    lib.push_back(shader("strip_cut_middle", tris, strip, 9, [](GsContext& ctx) {
        for (uint32_t n = 0; n < 9; ++n) {
            ctx.emit_vertex({.id = tagn(ctx, n)});
            if (n == 3 || n == 5) ctx.end_primitive();
        }
    }));
    lib.push_back(shader("endprim_before_emit", tris, strip, 5, [](GsContext& ctx) {
        ctx.end_primitive();
        ctx.end_primitive();
        for (uint32_t n = 0; n < 5; ++n) ctx.emit_vertex({.id = tagn(ctx, n)});
        ctx.end_primitive();
        ctx.end_primitive();
    }));
    lib.push_back(shader("cull_odd", tris, strip, 3, [](GsContext& ctx) {
        if (ctx.primitive_id_in() & 1) return;
        emit_inputs(ctx, {0, 1, 2});
        ctx.end_primitive();
    }));
    lib.push_back(shader("many_cuts64", tris, strip, 64, [](GsContext& ctx) {
        for (uint32_t n = 0; n <= 42; ++n) {
            ctx.emit_vertex({.id = tagn(ctx, n)});
            if (n % 5 == 4) ctx.end_primitive();
        }
    }));
    lib.push_back(shader("points_out", tris, Prim::points, 3, [](GsContext& ctx) {
        emit_inputs(ctx, {2, 1, 0});
    }));
    lib.back().uses_end_primitive = false;
    lib.push_back(shader("line_strip_out", tris, Prim::line_strip, 4, [](GsContext& ctx) {
        emit_inputs(ctx, {0, 1, 2, 0});
        ctx.end_primitive();
    }));
    lib.push_back(shader("lines_in", Prim::lines, Prim::line_strip, 2, [](GsContext& ctx) {
        emit_inputs(ctx, {0, 1});
    }));
    lib.back().uses_end_primitive = false;
    lib.push_back(
        shader("lines_adj_in", Prim::lines_adjacency, Prim::line_strip, 4, [](GsContext& ctx) {
            emit_inputs(ctx, {0, 1, 2, 3});
        }));
    lib.back().uses_end_primitive = false;
    lib.push_back(shader("tris_adj_in", Prim::triangles_adjacency, strip, 6, [](GsContext& ctx) {
        emit_inputs(ctx, {0, 2, 4});
        ctx.end_primitive();
        emit_inputs(ctx, {1, 3, 5});
    }));
    lib.push_back(shader("points_in_quad", Prim::points, strip, 4, [](GsContext& ctx) {
        for (uint32_t c = 0; c < 4; ++c)
            ctx.emit_vertex({.id = base_tag(ctx) + 10u * ctx.vertex_id(0) + c});
    }));
    lib.back().uses_end_primitive = false;
    lib.push_back(shader("invocations4", tris, strip, 3, [](GsContext& ctx) {
        const uint32_t inv = ctx.invocation_id();
        for (uint32_t i = 0; i < 3; ++i)
            ctx.emit_vertex({.id = tag(ctx, i) + 100u * inv, .layer = inv});
    }));
    lib.back().uses_end_primitive = false;
    lib.back().invocations = 4;
    lib.back().outputs.layer = true;
    lib.push_back(shader("streams2", Prim::points, Prim::points, 2, [](GsContext& ctx) {
        ctx.emit_stream_vertex(0, {.id = tag(ctx, 0)});
        ctx.emit_stream_vertex(1, {.id = tag(ctx, 0) + 500u});
    }));
    lib.back().uses_end_primitive = false;
    lib.back().streams = 2;
    // Every stream, interleaved: stream s gets input i's tag(i) + 500 s.
    lib.push_back(shader("streams4", tris, Prim::points, 8, [](GsContext& ctx) {
        static constexpr uint32_t kOrder[8][2] = {{0, 0}, {1, 0}, {2, 1}, {0, 1},
                                                  {3, 2}, {1, 2}, {0, 2}, {3, 0}};
        for (const auto& [s, i] : kOrder) ctx.emit_stream_vertex(s, {.id = tag(ctx, i) + 500u * s});
    }));
    lib.back().uses_end_primitive = false;
    lib.back().streams = 4;
    // Varyings through the GS: each output vertex carries its input's colour, as is or with
    // the components reversed.
    lib.push_back(shader("color_tri", tris, strip, 3, [](GsContext& ctx) {
        for (uint32_t i = 0; i < 3; ++i) {
            GsOutput o{.id = tag(ctx, i)};
            for (uint32_t c = 0; c < 4; ++c) o.varyings[0][c] = ctx.varying(i, 0, c);
            ctx.emit_vertex(o);
        }
        ctx.end_primitive();
    }));
    lib.back().input_varyings = 1;
    lib.back().outputs.add_varying();
    lib.push_back(
        shader("color_swizzle_lines", Prim::lines, Prim::line_strip, 2, [](GsContext& ctx) {
            for (uint32_t i = 0; i < 2; ++i) {
                GsOutput o{.id = tag(ctx, i)};
                for (uint32_t c = 0; c < 4; ++c) o.varyings[0][c] = ctx.varying(i, 0, 3 - c);
                ctx.emit_vertex(o);
            }
        }));
    lib.back().uses_end_primitive = false;
    lib.back().input_varyings = 1;
    lib.back().outputs.add_varying();
    // Viewport arrays: every triangle as it came (position and colour, varying 1 of a draw
    // without a vertex shader), in viewport gl_PrimitiveIDIn % 4.
    lib.push_back(shader("viewport_select", tris, strip, 3, [](GsContext& ctx) {
        for (uint32_t i = 0; i < 3; ++i) {
            GsOutput o{.id = tag(ctx, i), .viewport = ctx.primitive_id_in() % 4};
            for (uint32_t c = 0; c < 4; ++c) {
                o.position[c] = dword_float(ctx.load(i, SLOT_POSITION + c));
                o.varyings[0][c] = ctx.varying(i, 1, c);
            }
            ctx.emit_vertex(o);
        }
        ctx.end_primitive();
    }));
    lib.back().input_varyings = 2;
    lib.back().outputs.add_varying();
    lib.back().outputs.viewport_index = true;
    // Two-sided colour after a GS (drawpipe render): every triangle as it came, writing the
    // front colour (varying 1 of a draw without a vertex shader) and the back one (varying 3).
    lib.push_back(shader("color_pair_tri", tris, strip, 3, [](GsContext& ctx) {
        for (uint32_t i = 0; i < 3; ++i) {
            GsOutput o{.id = tag(ctx, i)};
            for (uint32_t c = 0; c < 4; ++c) {
                o.position[c] = dword_float(ctx.load(i, SLOT_POSITION + c));
                o.varyings[0][c] = ctx.varying(i, 1, c);
                o.varyings[1][c] = ctx.varying(i, 3, c);
            }
            ctx.emit_vertex(o);
        }
        ctx.end_primitive();
    }));
    lib.back().input_varyings = 4;
    lib.back().outputs.add_varying();
    lib.back().outputs.add_varying();
    for (const GeometryShader& gs : lib) validate_gs(gs);
    return lib;
}

} // namespace

std::span<const GeometryShader> gs_library() {
    static const std::vector<GeometryShader> lib = build_library();
    return lib;
}

const GeometryShader& find_gs(std::string_view name) {
    std::string known;
    for (const GeometryShader& gs : gs_library()) {
        if (gs.name == name) return gs;
        known += (known.empty() ? "" : ", ") + gs.name;
    }
    throw Error(ErrorCode::not_found,
                "gs: unknown geometry shader '" + std::string(name) + "' (known: " + known + ")");
}

} // namespace drawpipe
