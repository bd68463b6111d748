// What mesa_trace and mesa_render share: the draw description (drawpipe's text format,
// parsed here on purpose without drawpipe's code) and the headless OpenGL context on Mesa's
// llvmpipe they draw with (workloads/headless_gl.hpp, which uses nothing of drawpipe either).
#pragma once
#define GL_GLEXT_PROTOTYPES 1

#include "workloads/headless_gl.hpp"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mesa_check {

// ---------------------------------------------------------------------------------------
// The draw description.

struct PrimInfo {
    const char* name;
    GLenum mode;
    GLenum xfb_mode; // transform feedback mode without a geometry shader, or kCountOnly
};

constexpr GLenum kCountOnly = 0xFFFF; // not a primitive mode

constexpr PrimInfo kPrims[] = {
    {"points", GL_POINTS, GL_POINTS},
    {"lines", GL_LINES, GL_LINES},
    {"line_loop", GL_LINE_LOOP, GL_LINES},
    {"line_strip", GL_LINE_STRIP, GL_LINES},
    {"triangles", GL_TRIANGLES, GL_TRIANGLES},
    {"triangle_strip", GL_TRIANGLE_STRIP, GL_TRIANGLES},
    {"triangle_fan", GL_TRIANGLE_FAN, GL_TRIANGLES},
    {"quads", GL_QUADS, GL_TRIANGLES},
    {"quad_strip", GL_QUAD_STRIP, GL_TRIANGLES},
    {"polygon", GL_POLYGON, GL_TRIANGLES},
    // Mesa 22.3 rejects line adjacency draws into GL_LINES transform feedback without a
    // geometry shader (GL_INVALID_OPERATION; draw_validate.c allows only lines, line loops
    // and line strips there), so these are counted with GL_PRIMITIVES_GENERATED instead.
    {"lines_adjacency", GL_LINES_ADJACENCY, kCountOnly},
    {"line_strip_adjacency", GL_LINE_STRIP_ADJACENCY, kCountOnly},
    {"triangles_adjacency", GL_TRIANGLES_ADJACENCY, GL_TRIANGLES},
    {"triangle_strip_adjacency", GL_TRIANGLE_STRIP_ADJACENCY, GL_TRIANGLES},
    // Captured as the tessellator's primitives (Desc::tess decides which).
    {"patches", GL_PATCHES, GL_TRIANGLES},
};

// `drawpipe render`'s keys, as mesa_render needs them (defaults as drawpipe's).
struct Render {
    std::vector<float> positions, colors, edgeflags, back_colors;
    bool two_side = false; // GL_VERTEX_PROGRAM_TWO_SIDE, gl_BackColor from back_colors
    bool viewport_given = false;
    float viewport[4] = {0, 0, 0, 0};
    float depth_range[2] = {0, 1};
    std::string polygon_mode[2] = {"fill", "fill"};
    std::string cull = "none", front_face = "ccw", shade = "smooth";
    bool stipple = false;
    uint32_t stipple_factor = 1, stipple_pattern = 0xFFFF;
    float line_width = 1, point_size = 1;
    std::vector<std::array<float, 4>> clip_planes;
    // How mesa_render's vertex shader meets the planes (mesa_render only; drawpipe render clips
    // the clip-space position, as "vertex" does): "vertex" writes gl_ClipVertex = the position,
    // "swapped" gl_ClipVertex = the position with x and y swapped (the planes then measure
    // another point than the position), "position" writes no gl_ClipVertex (Mesa then clips
    // the clip-space position), "distance" writes gl_ClipDistance[i] = dot(plane i, position)
    // under GL_CLIP_DISTANCEi.
    std::string clip_style = "vertex";
    // mesa_render only: the fragment shader shows back faces magenta (gl_FrontFacing), which
    // under polygon mode line and point Mesa's draw module must hand it.
    bool face_color = false;
    bool depth_test = false;
    std::string point_sprite; // "", "upper_left" or "lower_left"
    bool offset = false;
    float offset_factor = 0, offset_units = 0;
    // viewport_array I X Y W H [NEAR FAR]: glViewportIndexedf (and glDepthRangeIndexed).
    struct IndexedViewport {
        uint32_t index = 0;
        float rect[4] = {0, 0, 0, 0};
        bool depth_given = false;
        float depth[2] = {0, 1};
    };
    std::vector<IndexedViewport> viewport_array;
    bool depth_clamp = false;
    std::string clip_origin = "lower_left", clip_depth = "negative_one_to_one";
};

// One record of a glMultiDraw*Indirect buffer (GL's DrawElementsIndirectCommand fields; a
// non-indexed draw's record leaves base_vertex out).
struct IndirectRecord {
    uint32_t count = 0, instances = 0, first = 0;
    int32_t base_vertex = 0;
    uint32_t base_instance = 0;
};

struct Desc {
    int prim = 4;            // index into kPrims
    uint32_t index_size = 0; // bytes per index, 0 for none
    std::vector<uint32_t> indices;
    bool restart = false;
    uint32_t restart_index = 0;
    uint32_t start = 0;
    uint32_t count = 0;
    int32_t base_vertex = 0;
    uint32_t instances = 1;
    uint32_t base_instance = 0;
    bool provoking_first = false;
    std::vector<uint32_t> divisors;
    std::string gs;
    std::string vs; // "" (attributes pass through) or "color"
    Render render;  // the keys of `drawpipe render` (mesa_render)
    // multi_draw START COUNT [BASE_VERTEX] lines, as records (instances filled in at the end),
    // or indirect lines; indirect_count N MAX.
    bool multi = false, indirect = false, count_given = false;
    std::vector<IndirectRecord> records;
    uint32_t count_n = 0, count_max = 0;
    // More than one sub-draw or record: the trace prints draw ids.
    bool draw_ids() const { return records.size() > 1; }
    // Tessellation: `patch_vertices`, `tess MODE SPACING WINDING [point_mode]` (empty mode:
    // none), `tess_levels` (the patch default levels), `tcs` (levels_by_patch).
    uint32_t patch_vertices = 3;
    std::string tess_mode, tess_spacing, tess_winding;
    bool point_mode = false;
    float tess_levels[6] = {1, 1, 1, 1, 1, 1};
    std::string tcs;
};

struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void bad(int line, std::string_view key, const std::string& what) {
    throw ParseError("line " + std::to_string(line) + ": " + std::string(key) + ": " + what);
}

template <class T> T number(int line, std::string_view key, std::string_view word) {
    T v{};
    int base = 10;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        word.remove_prefix(2);
        base = 16;
    }
    const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v, base);
    if (ec != std::errc{} || ptr != word.data() + word.size())
        bad(line, key, "'" + std::string(word) + "' is not a valid number");
    return v;
}

inline float real(int line, std::string_view key, const std::string& word) {
    char* end = nullptr;
    const float v = std::strtof(word.c_str(), &end);
    if (word.empty() || end != word.c_str() + word.size())
        bad(line, key, "'" + word + "' is not a valid number");
    return v;
}

inline bool parse_render_key(int line, const std::vector<std::string>& w, Render& r) {
    const std::string& key = w[0];
    auto reals = [&](std::vector<float>& out) {
        for (size_t i = 1; i < w.size(); ++i) out.push_back(real(line, key, w[i]));
    };
    auto values = [&](size_t n) {
        if (w.size() != n + 1) bad(line, key, "expects " + std::to_string(n) + " values");
    };
    if (key == "positions") {
        reals(r.positions);
    } else if (key == "colors") {
        reals(r.colors);
    } else if (key == "back_colors") {
        reals(r.back_colors);
    } else if (key == "two_side") {
        values(1);
        r.two_side = w[1] == "1";
    } else if (key == "edgeflags") {
        reals(r.edgeflags);
    } else if (key == "viewport") {
        values(4);
        for (int i = 0; i < 4; ++i) r.viewport[i] = real(line, key, w[size_t(i) + 1]);
        r.viewport_given = true;
    } else if (key == "viewport_array") {
        if (w.size() != 6 && w.size() != 8) bad(line, key, "expects I X Y W H [NEAR FAR]");
        Render::IndexedViewport e;
        e.index = number<uint32_t>(line, key, w[1]);
        for (int i = 0; i < 4; ++i) e.rect[i] = real(line, key, w[size_t(i) + 2]);
        if (w.size() == 8) {
            e.depth_given = true;
            e.depth[0] = real(line, key, w[6]);
            e.depth[1] = real(line, key, w[7]);
        }
        r.viewport_array.push_back(e);
    } else if (key == "depth_clamp") {
        values(1);
        r.depth_clamp = w[1] == "1";
    } else if (key == "clip_control") {
        values(2);
        r.clip_origin = w[1];
        r.clip_depth = w[2];
    } else if (key == "depth_range") {
        values(2);
        r.depth_range[0] = real(line, key, w[1]);
        r.depth_range[1] = real(line, key, w[2]);
    } else if (key == "polygon_mode") {
        values(2);
        r.polygon_mode[0] = w[1];
        r.polygon_mode[1] = w[2];
    } else if (key == "cull") {
        values(1);
        r.cull = w[1];
    } else if (key == "front_face") {
        values(1);
        r.front_face = w[1];
    } else if (key == "shade") {
        values(1);
        r.shade = w[1];
    } else if (key == "line_stipple") {
        values(2);
        r.stipple = true;
        r.stipple_factor = number<uint32_t>(line, key, w[1]);
        r.stipple_pattern = number<uint32_t>(line, key, w[2]);
    } else if (key == "line_width") {
        values(1);
        r.line_width = real(line, key, w[1]);
    } else if (key == "point_size") {
        values(1);
        r.point_size = real(line, key, w[1]);
    } else if (key == "point_sprite") {
        values(1);
        r.point_sprite = w[1];
    } else if (key == "clip_plane") {
        values(4);
        r.clip_planes.push_back({real(line, key, w[1]), real(line, key, w[2]),
                                 real(line, key, w[3]), real(line, key, w[4])});
    } else if (key == "face_color") {
        values(1);
        r.face_color = w[1] == "1";
    } else if (key == "clip_style") {
        values(1);
        if (w[1] != "vertex" && w[1] != "swapped" && w[1] != "position" && w[1] != "distance")
            bad(line, key, "takes vertex, swapped, position or distance");
        r.clip_style = w[1];
    } else if (key == "depth_test") {
        values(1);
        r.depth_test = w[1] == "less";
    } else if (key == "polygon_offset") {
        values(2);
        r.offset = true;
        r.offset_factor = real(line, key, w[1]);
        r.offset_units = real(line, key, w[2]);
    } else {
        return false;
    }
    return true;
}

inline Desc parse(std::string_view text) {
    Desc d;
    bool have_prim = false, have_count = false;
    int line_no = 0;
    std::istringstream in{std::string(text)};
    std::string raw;
    while (std::getline(in, raw)) {
        ++line_no;
        if (const size_t hash = raw.find('#'); hash != std::string::npos) raw.resize(hash);
        std::istringstream words_in(raw);
        std::vector<std::string> w;
        for (std::string s; words_in >> s;) w.push_back(s);
        if (w.empty()) continue;
        const std::string& key = w[0];
        auto one = [&]() -> const std::string& {
            if (w.size() != 2) bad(line_no, key, "expects exactly one value");
            return w[1];
        };
        if (key == "prim") {
            const std::string& v = one();
            const auto it = std::find_if(std::begin(kPrims), std::end(kPrims),
                                         [&](const PrimInfo& p) { return v == p.name; });
            if (it == std::end(kPrims)) bad(line_no, key, "unknown primitive type '" + v + "'");
            d.prim = int(it - std::begin(kPrims));
            have_prim = true;
        } else if (key == "index") {
            const std::string& v = one();
            if (v == "none")
                d.index_size = 0;
            else if (v == "u8")
                d.index_size = 1;
            else if (v == "u16")
                d.index_size = 2;
            else if (v == "u32")
                d.index_size = 4;
            else
                bad(line_no, key, "unknown index type '" + v + "'");
        } else if (key == "indices") {
            for (size_t i = 1; i < w.size(); ++i)
                d.indices.push_back(number<uint32_t>(line_no, key, w[i]));
        } else if (key == "restart") {
            d.restart = true;
            d.restart_index = number<uint32_t>(line_no, key, one());
        } else if (key == "start") {
            d.start = number<uint32_t>(line_no, key, one());
        } else if (key == "count") {
            d.count = number<uint32_t>(line_no, key, one());
            have_count = true;
        } else if (key == "base_vertex") {
            d.base_vertex = number<int32_t>(line_no, key, one());
        } else if (key == "instances") {
            d.instances = number<uint32_t>(line_no, key, one());
        } else if (key == "base_instance") {
            d.base_instance = number<uint32_t>(line_no, key, one());
        } else if (key == "provoking") {
            const std::string& v = one();
            if (v != "first" && v != "last") bad(line_no, key, "must be first or last");
            d.provoking_first = v == "first";
        } else if (key == "attrib") {
            d.divisors.push_back(number<uint32_t>(line_no, key, one()));
        } else if (key == "gs") {
            d.gs = one();
        } else if (key == "vs") {
            d.vs = one();
            if (d.vs != "color") bad(line_no, key, "unknown vertex shader '" + d.vs + "'");
        } else if (key == "multi_draw") {
            if (w.size() != 3 && w.size() != 4) bad(line_no, key, "expects START COUNT [BV]");
            IndirectRecord r;
            r.first = number<uint32_t>(line_no, key, w[1]);
            r.count = number<uint32_t>(line_no, key, w[2]);
            if (w.size() == 4) r.base_vertex = number<int32_t>(line_no, key, w[3]);
            d.records.push_back(r);
            d.multi = true;
        } else if (key == "indirect") {
            if (w.size() != 5 && w.size() != 6) bad(line_no, key, "expects 4 or 5 values");
            IndirectRecord r;
            r.count = number<uint32_t>(line_no, key, w[1]);
            r.instances = number<uint32_t>(line_no, key, w[2]);
            r.first = number<uint32_t>(line_no, key, w[3]);
            if (w.size() == 6) r.base_vertex = number<int32_t>(line_no, key, w[4]);
            r.base_instance = number<uint32_t>(line_no, key, w.back());
            d.records.push_back(r);
            d.indirect = true;
        } else if (key == "indirect_count") {
            if (w.size() != 3) bad(line_no, key, "expects N MAX");
            d.count_n = number<uint32_t>(line_no, key, w[1]);
            d.count_max = number<uint32_t>(line_no, key, w[2]);
            d.count_given = d.indirect = true;
        } else if (key == "patch_vertices") {
            d.patch_vertices = number<uint32_t>(line_no, key, one());
        } else if (key == "tess") {
            if (w.size() != 4 && w.size() != 5)
                bad(line_no, key, "MODE SPACING WINDING [point_mode]");
            d.tess_mode = w[1], d.tess_spacing = w[2], d.tess_winding = w[3];
            d.point_mode = w.size() == 5;
            if (d.point_mode && w[4] != "point_mode") bad(line_no, key, "not point_mode");
        } else if (key == "tess_levels") {
            if (w.size() != 7) bad(line_no, key, "expects 6 levels");
            for (int i = 0; i < 6; ++i) d.tess_levels[i] = std::strtof(w[1 + i].c_str(), nullptr);
        } else if (key == "tcs") {
            d.tcs = one();
            if (d.tcs != "levels_by_patch") bad(line_no, key, "unknown control shader");
        } else if (parse_render_key(line_no, w, d.render)) {
        } else {
            bad(line_no, key, "unknown key");
        }
    }
    if (d.multi && d.indirect) throw ParseError("multi_draw: not with indirect");
    if (d.multi) // a multi-draw's sub-draws share the instances
        for (IndirectRecord& r : d.records)
            r.instances = d.instances, r.base_instance = d.base_instance;
    if (d.multi || d.indirect) have_count = true, d.count = 0, d.start = 0;
    if (!have_prim) throw ParseError("prim: missing");
    if (d.index_size == 0 && !d.indices.empty()) throw ParseError("indices: given but index none");
    if (!have_count) {
        if (d.index_size == 0) throw ParseError("count: missing (non-indexed draw)");
        d.count = d.indices.size() > d.start ? uint32_t(d.indices.size() - d.start) : 0;
    }
    if (d.index_size != 0 && uint64_t(d.start) + d.count > d.indices.size())
        throw ParseError("indices: shorter than start + count");
    const uint64_t max_value = d.index_size == 4 ? 0xFFFFFFFFull : (1ull << (8 * d.index_size)) - 1;
    for (uint32_t v : d.indices)
        if (d.index_size != 0 && v > max_value)
            throw ParseError("indices: value " + std::to_string(v) + " does not fit the type");
    return d;
}

// ---------------------------------------------------------------------------------------
// EGL and GL.

struct Failure {
    int status;
    std::string what;
};

[[noreturn]] inline void fail(int status, const std::string& what) {
    throw Failure{status, what};
}

using Gl = drawpipe::workloads::HeadlessGl;

// A compatibility-profile context (base instance, quads) on llvmpipe; status 2 without one.
inline Gl init_gl() {
    try {
        return drawpipe::workloads::open_headless_gl(drawpipe::workloads::GlProfile::compatibility,
                                                     4, 2);
    } catch (const drawpipe::workloads::NoHeadlessGl& e) {
        fail(2, e.what());
    }
}

inline GLuint compile(GLenum type, const std::string& src) {
    const GLuint s = glCreateShader(type);
    const char* p = src.c_str();
    glShaderSource(s, 1, &p, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        fail(2, "shader compile failed:\n" + src + "\n" + log);
    }
    return s;
}

// The pass-through shader (vid, iid and each attribute as av<a>), or with `vs color` the
// library's colour shader (tools/common/vs_library.hpp) in place of the attributes.

// ---------------------------------------------------------------------------------------
// Tessellation: GLSL transcriptions of drawpipe's library shaders
// (tools/common/tess_library.hpp). mesa_trace and mesa_render pass different outputs
// through them (ids and attributes to capture, colours to rasterise), so each hands in its
// declarations and statements and the rules of the two shaders live here once.

inline bool tessellated(const Desc& d) {
    return !d.tess_mode.empty();
}

// A float literal that reads back its exact bits, NaN and infinities included.
inline std::string float_bits(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return "uintBitsToFloat(" + std::to_string(bits) + "u)";
}

// interpolate's rule over the patch's first control points, `cp(i)` naming what control
// point i holds: barycentric (triangles: u P0 + v P1 + w P2), bilinear (quads: points 0-3 at
// (0,0) (1,0) (1,1) (0,1)) or linear along u (isolines: points 0-1), in the float operations
// drawpipe's interpolate does, in its order. Reads u, v and w.
template <class ControlPoint> std::string tess_interpolation(const Desc& d, ControlPoint cp) {
    if (d.tess_mode == "triangles") return "u * " + cp(0) + " + v * " + cp(1) + " + w * " + cp(2);
    if (d.tess_mode == "quads")
        return "(1.0 - v) * ((1.0 - u) * " + cp(0) + " + u * " + cp(1) + ") + v * ((1.0 - u) * " +
               cp(3) + " + u * " + cp(2) + ")";
    return "(1.0 - u) * " + cp(0) + " + u * " + cp(1);
}

// levels_by_patch: `version`, layout(vertices = patch_vertices), `decls`, then main runs
// `pass` (statements copying control point gl_InvocationID through) and sets every outer and
// inner level to tess_levels' value plus gl_PrimitiveID % 3.
inline std::string tess_control_glsl(const Desc& d, const std::string& version,
                                     const std::string& decls, const std::string& pass) {
    std::string s = version + "layout(vertices = " + std::to_string(d.patch_vertices) + ") out;\n" +
                    decls + "void main() {\n" + pass +
                    "    float add = float(gl_PrimitiveID % 3);\n";
    for (int k = 0; k < 4; ++k)
        s += "    gl_TessLevelOuter[" + std::to_string(k) + "] = " + float_bits(d.tess_levels[k]) +
             " + add;\n";
    for (int k = 0; k < 2; ++k)
        s += "    gl_TessLevelInner[" + std::to_string(k) +
             "] = " + float_bits(d.tess_levels[4 + k]) + " + add;\n";
    return s + "}\n";
}

// interpolate's frame: `version`, the layout `tess` names, `decls`, then main declares u, v
// and w from gl_TessCoord and runs `body` (which writes the outputs, with tess_interpolation).
inline std::string tess_eval_glsl(const Desc& d, const std::string& version,
                                  const std::string& decls, const std::string& body) {
    return version + "layout(" + d.tess_mode + ", " + d.tess_spacing + "_spacing, " +
           d.tess_winding + (d.point_mode ? ", point_mode" : "") + ") in;\n" + decls +
           "void main() {\n    float u = gl_TessCoord.x, v = gl_TessCoord.y, w = "
           "gl_TessCoord.z;\n" +
           body + "}\n";
}

} // namespace mesa_check
