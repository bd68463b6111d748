// mesa_trace: an independent check of drawpipe's canonical trace against real OpenGL.
//
//   mesa_trace [--info] DRAW.txt         one trace on stdout
//   mesa_trace [--batch] DRAW.txt...      each trace after a line `== FILE status S`
//   mesa_trace --xfb-size BYTES [--xfb-dump FILE] DRAW.txt
//                                         capture into one buffer of BYTES bytes: only the
//                                         primitives written, and the buffer's bytes
//   mesa_trace --xfb-size BYTES --repeat N DRAW.txt
//                                         N draws in one capture session, every second
//                                         one paused (glPause/ResumeTransformFeedback)
//   mesa_trace --batch DRAW.txt,BYTES[,DUMP[,STREAM[,REPEAT]]]...   the same per file
//   --xfb-stream N (gs streams2: 1, streams4: 1-3): capture vertex stream N instead, with
//                                         `# stream N primitives_generated M`
//   --statistics                          end each trace with `# statistics ia_vertices N
//                                         ia_primitives N vs_invocations N gs_invocations N
//                                         gs_primitives N clip_invocations N clip_primitives
//                                         N` (ARB_pipeline_statistics_query, the draw alone,
//                                         rasterizer discard on, with --xfb-size --repeat times)
//
// Every trace ends with `# primitives_generated N` (GL_PRIMITIVES_GENERATED), and with a
// fixed buffer `# primitives_written M` (GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN).
//
// Reads a draw description in drawpipe's text format (tools/common/draw_text.hpp; parsed here on
// purpose, without drawpipe's code), draws it with real OpenGL on a headless EGL context
// (Mesa's surfaceless platform, or an EGL device, with the llvmpipe software rasterizer),
// captures the vertex shader's (or the bound library geometry shader's) outputs through
// transform feedback and prints them in the format of drawpipe's trace backend
// (backends/trace.cpp):
//
//   point A / line A B / tri A B C, each vertex `vertexid/instanceid` followed by
//   `[a0,a1,...]` when the draw has attributes; with a geometry shader, each vertex is the
//   shader's `id`, then `@L` when the shader writes a layer.
//
// Exit status: 0 drawn; 1 bad arguments or description; 2 no usable OpenGL (EGL display,
// context or version missing); 3 OpenGL rejected the draw (GL error); 4 the draw cannot be
// captured (lines_adjacency / line_strip_adjacency without a geometry shader, which Mesa
// refuses to draw into transform feedback): stdout is `# count-only PRIM: N lines generated`.
#define GL_GLEXT_PROTOTYPES 1

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mesa_common.hpp"

namespace {

using namespace mesa_check;

// ---------------------------------------------------------------------------------------
// Geometry shaders: GLSL transcriptions of drawpipe's library (tools/common/gs_library.cpp).

struct GsInfo {
    const char* name;
    GLenum xfb_mode;    // from the output topology
    bool writes_layer;  // captures `layer_v` after `id`
    bool color;         // captures the vec4 `color_out` after those (reads the VS's `color`)
    const char* input;  // the input layout, which must precede the prologue's input arrays
    const char* source; // after the common prologue
};

// tag(i) = 1000000 * instance + 1000 * primitive_id_in + vertex id of input i;
// tagn(n) = 1000000 * instance + 1000 * primitive_id_in + n.
constexpr const char* kGsPrologue = R"(
flat in uint vid[];
flat in uint iid[];
uint base_tag() { return 1000000u * iid[0] + 1000u * uint(gl_PrimitiveIDIn); }
uint tag(int i) { return base_tag() + vid[i]; }
uint tagn(uint n) { return base_tag() + n; }
)";

constexpr GsInfo kShaders[] = {
    {"passthrough_tri", GL_TRIANGLES, false, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 3) out;
out uint id;
void main() {
    for (int i = 0; i < 3; ++i) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
    EndPrimitive();
})"},
    {"amplify3_layer", GL_TRIANGLES, true, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 9) out;
out uint id;
out int layer_v;
void main() {
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < 3; ++i) {
            id = tag(i); layer_v = c; gl_Layer = c; gl_Position = vec4(0.0); EmitVertex();
        }
        EndPrimitive();
    }
})"},
    {"strip_cut_middle", GL_TRIANGLES, false, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 9) out;
out uint id;
void main() {
    for (uint n = 0u; n < 9u; ++n) {
        id = tagn(n); gl_Position = vec4(0.0); EmitVertex();
        if (n == 3u || n == 5u) EndPrimitive();
    }
})"},
    {"endprim_before_emit", GL_TRIANGLES, false, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 5) out;
out uint id;
void main() {
    EndPrimitive();
    EndPrimitive();
    for (uint n = 0u; n < 5u; ++n) { id = tagn(n); gl_Position = vec4(0.0); EmitVertex(); }
    EndPrimitive();
    EndPrimitive();
})"},
    {"cull_odd", GL_TRIANGLES, false, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 3) out;
out uint id;
void main() {
    if ((gl_PrimitiveIDIn & 1) != 0) return;
    for (int i = 0; i < 3; ++i) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
    EndPrimitive();
})"},
    {"many_cuts64", GL_TRIANGLES, false, false, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 64) out;
out uint id;
void main() {
    for (uint n = 0u; n <= 42u; ++n) {
        id = tagn(n); gl_Position = vec4(0.0); EmitVertex();
        if (n % 5u == 4u) EndPrimitive();
    }
})"},
    {"points_out", GL_POINTS, false, false, "layout(triangles) in;", R"(
layout(points, max_vertices = 3) out;
out uint id;
void main() {
    for (int i = 2; i >= 0; --i) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
})"},
    {"line_strip_out", GL_LINES, false, false, "layout(triangles) in;", R"(
layout(line_strip, max_vertices = 4) out;
out uint id;
void main() {
    for (int k = 0; k < 4; ++k) { id = tag(k % 3); gl_Position = vec4(0.0); EmitVertex(); }
    EndPrimitive();
})"},
    {"lines_in", GL_LINES, false, false, "layout(lines) in;", R"(
layout(line_strip, max_vertices = 2) out;
out uint id;
void main() {
    for (int i = 0; i < 2; ++i) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
})"},
    {"lines_adj_in", GL_LINES, false, false, "layout(lines_adjacency) in;", R"(
layout(line_strip, max_vertices = 4) out;
out uint id;
void main() {
    for (int i = 0; i < 4; ++i) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
})"},
    {"tris_adj_in", GL_TRIANGLES, false, false, "layout(triangles_adjacency) in;", R"(
layout(triangle_strip, max_vertices = 6) out;
out uint id;
void main() {
    for (int i = 0; i < 6; i += 2) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
    EndPrimitive();
    for (int i = 1; i < 6; i += 2) { id = tag(i); gl_Position = vec4(0.0); EmitVertex(); }
})"},
    {"points_in_quad", GL_TRIANGLES, false, false, "layout(points) in;", R"(
layout(triangle_strip, max_vertices = 4) out;
out uint id;
void main() {
    for (uint c = 0u; c < 4u; ++c) {
        id = base_tag() + 10u * vid[0] + c; gl_Position = vec4(0.0); EmitVertex();
    }
})"},
    {"invocations4", GL_TRIANGLES, true, false, "layout(triangles, invocations = 4) in;", R"(
layout(triangle_strip, max_vertices = 3) out;
out uint id;
out int layer_v;
void main() {
    for (int i = 0; i < 3; ++i) {
        id = tag(i) + 100u * uint(gl_InvocationID);
        layer_v = gl_InvocationID; gl_Layer = gl_InvocationID;
        gl_Position = vec4(0.0);
        EmitVertex();
    }
})"},
    {"streams2", GL_POINTS, false, false, "layout(points) in;", R"(
layout(points, max_vertices = 2) out;
layout(stream = 0) out uint id;
layout(stream = 1) out uint id1;
void main() {
    id = tag(0); gl_Position = vec4(0.0); EmitStreamVertex(0);
    id1 = tag(0) + 500u; EmitStreamVertex(1);
})"},
    {"streams4", GL_POINTS, false, false, "layout(triangles) in;", R"(
layout(points, max_vertices = 8) out;
layout(stream = 0) out uint id;
layout(stream = 1) out uint id1;
layout(stream = 2) out uint id2;
layout(stream = 3) out uint id3;
void main() {
    id = tag(0); gl_Position = vec4(0.0); EmitStreamVertex(0);
    id1 = tag(0) + 500u; EmitStreamVertex(1);
    id2 = tag(1) + 1000u; EmitStreamVertex(2);
    id = tag(1); gl_Position = vec4(0.0); EmitStreamVertex(0);
    id3 = tag(2) + 1500u; EmitStreamVertex(3);
    id1 = tag(2) + 500u; EmitStreamVertex(1);
    id = tag(2); gl_Position = vec4(0.0); EmitStreamVertex(0);
    id3 = tag(0) + 1500u; EmitStreamVertex(3);
})"},
    {"color_tri", GL_TRIANGLES, false, true, "layout(triangles) in;", R"(
layout(triangle_strip, max_vertices = 3) out;
in vec4 color[];
out uint id;
out vec4 color_out;
void main() {
    for (int i = 0; i < 3; ++i) {
        id = tag(i); color_out = color[i]; gl_Position = vec4(0.0); EmitVertex();
    }
    EndPrimitive();
})"},
    {"color_swizzle_lines", GL_LINES, false, true, "layout(lines) in;", R"(
layout(line_strip, max_vertices = 2) out;
in vec4 color[];
out uint id;
out vec4 color_out;
void main() {
    for (int i = 0; i < 2; ++i) {
        id = tag(i); color_out = color[i].wzyx; gl_Position = vec4(0.0); EmitVertex();
    }
})"},
};

// Vertex streams a library shader declares (stream N > 0 writes its `id` as `id<N>`).
uint32_t vertex_streams(const GsInfo& gs) {
    const std::string_view name = gs.name;
    return name == "streams2" ? 2 : name == "streams4" ? 4 : 1;
}

// `draw_ids`: also gl_DrawID (ARB_shader_draw_parameters), as `did`. `p`: a prefix for
// the outputs' names (`v` before tessellation, whose last stage writes the plain names).
std::string vertex_shader(size_t attribs, bool color, bool draw_ids, const std::string& p = "") {
    std::string s = "#version 420\n";
    if (draw_ids)
        s += "#extension GL_ARB_shader_draw_parameters : require\nflat out uint " + p + "did;\n";
    if (color) attribs = 0;
    for (size_t a = 0; a < attribs; ++a)
        s += "layout(location = " + std::to_string(a) + ") in uint a" + std::to_string(a) + ";\n";
    s += "flat out uint " + p + "vid;\nflat out uint " + p + "iid;\n";
    for (size_t a = 0; a < attribs; ++a)
        s += "flat out uint " + p + "av" + std::to_string(a) + ";\n";
    s += "void main() {\n    " + p + "vid = uint(gl_VertexID);\n    " + p +
         "iid = uint(gl_InstanceID);\n";
    if (draw_ids) s += "    " + p + "did = uint(gl_DrawIDARB);\n";
    for (size_t a = 0; a < attribs; ++a)
        s += "    " + p + "av" + std::to_string(a) + " = a" + std::to_string(a) + ";\n";
    if (color) {
        s.insert(s.find("void main"), "out vec4 color;\n");
        s += "    color = vec4(float(gl_VertexID) * 0.5, float(gl_InstanceID) + 0.25, "
             "-float(gl_VertexID), 1.0);\n";
    }
    s += "    gl_Position = vec4(0.0);\n}\n";
    return s;
}

// An extension's entry point (libOpenGL exports the core ones only).
template <class Fn> Fn gl_proc(const char* name) {
    const auto f = reinterpret_cast<Fn>(eglGetProcAddress(name));
    if (!f) fail(2, std::string("no ") + name + " (ARB_indirect_parameters)");
    return f;
}

// ---------------------------------------------------------------------------------------
// Tessellation: the library's shaders (mesa_common.hpp) passing ids and attributes through.

// The primitive transform feedback captures after the tessellator.
GLenum tess_xfb_mode(const Desc& d) {
    if (d.point_mode) return GL_POINTS;
    return d.tess_mode == "isolines" ? GL_LINES : GL_TRIANGLES;
}

// levels_by_patch over the vertex stage's ids and attributes (v*), passed on as c*.
std::string control_shader(const Desc& d, size_t attribs) {
    std::string decls = "flat in uint vvid[];\nflat in uint viid[];\n"
                        "flat out uint cvid[];\nflat out uint ciid[];\n";
    for (size_t a = 0; a < attribs; ++a)
        decls += "flat in uint vav" + std::to_string(a) + "[];\nflat out uint cav" +
                 std::to_string(a) + "[];\n";
    const std::string i = "[gl_InvocationID]";
    std::string pass = "    cvid" + i + " = vvid" + i + ";\n    ciid" + i + " = viid" + i +
                       ";\n    gl_out" + i + ".gl_Position = gl_in" + i + ".gl_Position;\n";
    for (size_t a = 0; a < attribs; ++a)
        pass += "    cav" + std::to_string(a) + i + " = vav" + std::to_string(a) + i + ";\n";
    return tess_control_glsl(d, "#version 420\n", decls, pass);
}

// interpolate: the position interpolated over the first control points, the attributes
// (integers) from control point 0, the patch as `vid`, gl_TessCoord.xy as `tc`.
std::string evaluation_shader(const Desc& d, size_t attribs) {
    const std::string in = d.tcs.empty() ? "v" : "c";
    std::string decls = "flat in uint " + in +
                        "iid[];\n"
                        "flat out uint vid;\nflat out uint iid;\nout vec2 tc;\n";
    for (size_t a = 0; a < attribs; ++a)
        decls += "flat in uint " + in + "av" + std::to_string(a) + "[];\nflat out uint av" +
                 std::to_string(a) + ";\n";
    std::string body = "    vid = uint(gl_PrimitiveID);\n    iid = " + in +
                       "iid[0];\n"
                       "    tc = gl_TessCoord.xy;\n";
    for (size_t a = 0; a < attribs; ++a)
        body += "    av" + std::to_string(a) + " = " + in + "av" + std::to_string(a) + "[0];\n";
    body += "    gl_Position = " +
            tess_interpolation(
                d, [](int k) { return "gl_in[" + std::to_string(k) + "].gl_Position"; }) +
            ";\n";
    return tess_eval_glsl(d, "#version 420\n", decls, body);
}

// `stream` > 0: stream 0's `id` goes to buffer 0, then (gl_NextBuffer) the stream's `id<N>`
// to buffer 1, the buffer compared.
GLuint link_program(const Desc& d, const GsInfo* gs, std::vector<std::string>& varyings,
                    uint32_t stream) {
    const GLuint prog = glCreateProgram();
    const bool color = d.vs == "color";
    // A GS's or evaluation stage's output vertex has no draw id of its own.
    const bool draw_ids = d.draw_ids() && !gs && !tessellated(d);
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vertex_shader(d.divisors.size(), color, draw_ids,
                                                                 tessellated(d) ? "v" : "")));
    const size_t attribs = color ? 0 : d.divisors.size();
    if (!d.tcs.empty())
        glAttachShader(prog, compile(GL_TESS_CONTROL_SHADER, control_shader(d, attribs)));
    if (tessellated(d))
        glAttachShader(prog, compile(GL_TESS_EVALUATION_SHADER, evaluation_shader(d, attribs)));
    if (gs) {
        glAttachShader(prog, compile(GL_GEOMETRY_SHADER, std::string("#version 420\n") + gs->input +
                                                             kGsPrologue + gs->source));
        varyings = {"id"};
        if (gs->writes_layer) varyings.push_back("layer_v");
        if (gs->color) varyings.push_back("color_out");
        if (stream > 0) varyings = {"id", "gl_NextBuffer", "id" + std::to_string(stream)};
    } else if (tessellated(d)) {
        varyings = {"vid", "iid", "tc"};
        for (size_t a = 0; a < attribs; ++a) varyings.push_back("av" + std::to_string(a));
    } else {
        varyings = {"vid", "iid"};
        if (draw_ids) varyings.push_back("did");
        if (color)
            varyings.push_back("color");
        else
            for (size_t a = 0; a < d.divisors.size(); ++a)
                varyings.push_back("av" + std::to_string(a));
    }
    std::vector<const char*> names;
    for (const std::string& v : varyings) names.push_back(v.c_str());
    glTransformFeedbackVaryings(prog, GLsizei(names.size()), names.data(), GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(prog);
    GLuint shaders[4] = {};
    GLsizei n_shaders = 0;
    glGetAttachedShaders(prog, 4, &n_shaders, shaders);
    for (GLsizei i = 0; i < n_shaders; ++i) glDeleteShader(shaders[i]);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(prog, sizeof log, nullptr, log);
        glDeleteProgram(prog);
        fail(2, std::string("program link failed: ") + log);
    }
    return prog;
}

void check_gl(const char* what) {
    const GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "0x%04x", e);
        fail(3, std::string("GL error ") + buf + " in " + what);
    }
}

// The largest element a per-vertex attribute reads (raw index + base vertex, restart
// indices skipped), or nothing when no vertex is read.
std::optional<uint64_t> max_vertex_id(const Desc& d) {
    if (d.multi || d.indirect) { // over every sub-draw or record, drawn or not
        std::optional<uint64_t> m;
        for (const IndirectRecord& r : d.records) {
            Desc one = d;
            one.multi = one.indirect = false;
            one.start = r.first, one.count = r.count, one.base_vertex = r.base_vertex;
            if (one.index_size != 0 && uint64_t(r.first) + r.count > d.indices.size()) continue;
            if (one.index_size == 0) one.base_vertex = 0;
            if (const auto v = max_vertex_id(one)) m = std::max(m.value_or(0), *v);
        }
        return m;
    }
    if (d.count == 0) return std::nullopt;
    if (d.index_size == 0) return uint64_t(d.start) + d.count - 1;
    std::optional<uint64_t> m;
    for (uint64_t i = d.start; i < uint64_t(d.start) + d.count; ++i) {
        const uint32_t raw = d.indices[i];
        if (d.restart && raw == d.restart_index) continue;
        const int64_t v = int64_t(raw) + d.base_vertex;
        if (v >= 0) m = std::max<uint64_t>(m.value_or(0), uint64_t(v));
    }
    return m;
}

struct Capture {
    GLenum xfb_mode = GL_POINTS;
    uint32_t components = 0; // uint32 per captured vertex
    std::vector<uint32_t> data;
    GLuint written = 0, generated = 0;
    bool count_only = false;    // not captured: only `generated` is known
    std::vector<uint8_t> bytes; // with a fixed buffer size: the whole buffer
    GLuint generated0 = 0;      // stream 0's count, when another stream is captured
    GLuint generated_drawn = 0; // the count of the draw without transform feedback
    std::string statistics;     // `--statistics`: the `# statistics ...` line
};

// ARB_pipeline_statistics_query's counts, in the order and with the names of
// `drawpipe trace --statistics`.
constexpr struct {
    GLenum target;
    const char* name;
} kStatistics[] = {
    {GL_VERTICES_SUBMITTED_ARB, "ia_vertices"},
    {GL_PRIMITIVES_SUBMITTED_ARB, "ia_primitives"},
    {GL_VERTEX_SHADER_INVOCATIONS_ARB, "vs_invocations"},
    {GL_GEOMETRY_SHADER_INVOCATIONS, "gs_invocations"},
    {GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB, "gs_primitives"},
    {GL_CLIPPING_INPUT_PRIMITIVES_ARB, "clip_invocations"},
    {GL_CLIPPING_OUTPUT_PRIMITIVES_ARB, "clip_primitives"},
};
constexpr size_t kStatisticsCount = sizeof kStatistics / sizeof kStatistics[0];

// Every GL object of one draw, released (and the state it changed reset) on any exit, so
// that one context serves many draws.
struct DrawObjects {
    GLuint prog = 0, fbo = 0, rb = 0, vao = 0, ib = 0, tfb = 0, tfb0 = 0;
    GLuint indirect = 0, parameter = 0; // GL_DRAW_INDIRECT_BUFFER, GL_PARAMETER_BUFFER
    GLuint queries[3] = {};
    GLuint statistics[kStatisticsCount] = {};
    size_t statistics_active = 0; // the first ones of kStatistics begun and not ended
    std::vector<GLuint> attrib_buffers;
    bool xfb_active = false, generated_active = false, written_active = false;
    bool generated0_active = false; // stream 0's count while another stream is captured
    GLuint stream = 0;              // the vertex stream the queries count
    DrawObjects() = default;
    DrawObjects(const DrawObjects&) = delete;
    DrawObjects& operator=(const DrawObjects&) = delete;
    ~DrawObjects() {
        if (xfb_active) glEndTransformFeedback();
        if (written_active) glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream);
        if (generated_active) glEndQueryIndexed(GL_PRIMITIVES_GENERATED, stream);
        if (generated0_active) glEndQuery(GL_PRIMITIVES_GENERATED);
        for (size_t i = 0; i < statistics_active; ++i) glEndQuery(kStatistics[i].target);
        glDeleteQueries(GLsizei(kStatisticsCount), statistics);
        glDisable(GL_PRIMITIVE_RESTART);
        glDisable(GL_RASTERIZER_DISCARD);
        glBindVertexArray(0);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, 0);
        glUseProgram(0);
        glDeleteQueries(3, queries);
        glDeleteBuffers(1, &tfb0);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
        glBindBuffer(GL_PARAMETER_BUFFER_ARB, 0);
        glDeleteBuffers(1, &indirect);
        glDeleteBuffers(1, &parameter);
        glDeleteBuffers(GLsizei(attrib_buffers.size()), attrib_buffers.data());
        glDeleteBuffers(1, &ib);
        glDeleteBuffers(1, &tfb);
        glDeleteVertexArrays(1, &vao);
        glDeleteFramebuffers(1, &fbo);
        glDeleteRenderbuffers(1, &rb);
        glDeleteProgram(prog);
        while (glGetError() != GL_NO_ERROR) {
        }
    }
};

// `xfb_size`: capture into one buffer of exactly this many bytes (zeros first), drawn once;
// what did not fit is counted, not drawn again.
// `stream` > 0: that vertex stream is captured (into buffer 1) and counted instead.
// `repeat`: with a fixed buffer, the draw runs that many times in one transform-feedback
// session, every second time paused (as `drawpipe trace --repeat N --xfb-size` does).
// `statistics`: the draw (`repeat` times with a fixed buffer) without transform feedback, inside
// the pipeline statistics queries first (Capture::statistics).
Capture draw(const Desc& d, const GsInfo* gs, std::optional<uint64_t> xfb_size, uint32_t stream,
             uint32_t repeat, bool statistics) {
    DrawObjects o;
    o.stream = stream;
    std::vector<std::string> varyings;
    o.prog = link_program(d, gs, varyings, stream);
    glUseProgram(o.prog);

    // A complete framebuffer (a surfaceless context has none); nothing is rasterized.
    glGenFramebuffers(1, &o.fbo);
    glGenRenderbuffers(1, &o.rb);
    glBindRenderbuffer(GL_RENDERBUFFER, o.rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, o.fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o.rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fail(2, "framebuffer incomplete");
    glEnable(GL_RASTERIZER_DISCARD);

    glGenVertexArrays(1, &o.vao);
    glBindVertexArray(o.vao);

    // Attribute k holds k; per-vertex ones cover every vertex read, instanced ones every
    // instance element read.
    const std::optional<uint64_t> max_vertex = max_vertex_id(d);
    for (size_t a = 0; a < d.divisors.size(); ++a) {
        const uint32_t div = d.divisors[a];
        uint64_t n = 1;
        if (div == 0 && max_vertex) n = *max_vertex + 1;
        if (div != 0)
            n = uint64_t(d.base_instance) + (d.instances ? (d.instances - 1) / div : 0) + 1;
        if (div != 0 && (d.multi || d.indirect))
            for (const IndirectRecord& r : d.records)
                n = std::max<uint64_t>(n, uint64_t(r.base_instance) +
                                              (r.instances ? (r.instances - 1) / div : 0) + 1);
        if (n > (uint64_t(1) << 24))
            fail(1, "attrib " + std::to_string(a) + ": reads element " + std::to_string(n - 1) +
                        ", past the 2^24 elements this checker allocates");
        std::vector<uint32_t> data(n);
        for (uint64_t k = 0; k < n; ++k) data[k] = uint32_t(k);
        GLuint buf = 0;
        glGenBuffers(1, &buf);
        o.attrib_buffers.push_back(buf);
        glBindBuffer(GL_ARRAY_BUFFER, buf);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * 4), data.data(), GL_STATIC_DRAW);
        glVertexAttribIPointer(GLuint(a), 1, GL_UNSIGNED_INT, 4, nullptr);
        glVertexAttribDivisor(GLuint(a), div);
        glEnableVertexAttribArray(GLuint(a));
    }
    check_gl("vertex setup");

    GLenum index_type = GL_UNSIGNED_INT;
    if (d.index_size != 0) {
        std::vector<uint8_t> bytes(std::max<size_t>(d.indices.size() * d.index_size, 4));
        for (size_t i = 0; i < d.indices.size(); ++i)
            std::memcpy(bytes.data() + i * d.index_size, &d.indices[i], d.index_size);
        glGenBuffers(1, &o.ib);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, o.ib); // part of the VAO
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(bytes.size()), bytes.data(),
                     GL_STATIC_DRAW);
        index_type = d.index_size == 1   ? GL_UNSIGNED_BYTE
                     : d.index_size == 2 ? GL_UNSIGNED_SHORT
                                         : GL_UNSIGNED_INT;
    }
    if (d.restart) {
        // Enabled for non-indexed draws too: GL must then ignore it.
        glEnable(GL_PRIMITIVE_RESTART);
        glPrimitiveRestartIndex(d.restart_index);
    }
    glProvokingVertex(d.provoking_first ? GL_FIRST_VERTEX_CONVENTION : GL_LAST_VERTEX_CONVENTION);
    glPatchParameteri(GL_PATCH_VERTICES, GLint(d.patch_vertices));
    glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, d.tess_levels);
    glPatchParameterfv(GL_PATCH_DEFAULT_INNER_LEVEL, d.tess_levels + 4);
    check_gl("draw state");

    Capture cap;
    cap.xfb_mode = gs ? gs->xfb_mode : tessellated(d) ? tess_xfb_mode(d) : kPrims[d.prim].xfb_mode;
    const bool capture = cap.xfb_mode != kCountOnly;
    if (!capture) cap.xfb_mode = GL_LINES;
    cap.components = uint32_t(varyings.size());
    for (const std::string& v : varyings)
        if (v == "color" || v == "color_out")
            cap.components += 3; // a vec4 takes four words
        else if (v == "tc")
            cap.components += 1;        // a vec2 two
    if (stream > 0) cap.components = 1; // buffer 1 holds the stream's id alone
    const uint32_t per_prim = cap.xfb_mode == GL_POINTS ? 1 : cap.xfb_mode == GL_LINES ? 2 : 3;
    const uint32_t amplify = gs ? 64 * 4 : 1; // bounds a library shader's output per input
    uint64_t capacity = (uint64_t(d.count) + 2) * std::max(d.instances, 1u) * amplify;
    for (const IndirectRecord& r : d.records)
        capacity += (uint64_t(r.count) + 2) * std::max(r.instances, 1u) * amplify;

    // Multi-draws and indirect records are drawn with glMultiDraw*Indirect[Count]: llvmpipe's
    // direct glMultiDraw* loses gl_DrawID with restart on, keeps counting gl_PrimitiveIDIn
    // across sub-draws, and draws nothing when the first count is 0 (gl-breadth-facts).
    if (d.multi || d.indirect) {
        std::vector<uint32_t> words;
        for (const IndirectRecord& r : d.records) {
            words.insert(words.end(), {r.count, r.instances, r.first});
            if (d.index_size != 0) words.push_back(uint32_t(r.base_vertex));
            words.push_back(r.base_instance);
        }
        words.resize(std::max<size_t>(words.size(), 1));
        glGenBuffers(1, &o.indirect);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, o.indirect);
        glBufferData(GL_DRAW_INDIRECT_BUFFER,
                     GLsizeiptr(d.records.size() * 4 * (d.index_size != 0 ? 5 : 4)), words.data(),
                     GL_STATIC_DRAW);
        if (d.count_given) {
            glGenBuffers(1, &o.parameter);
            glBindBuffer(GL_PARAMETER_BUFFER_ARB, o.parameter);
            glBufferData(GL_PARAMETER_BUFFER_ARB, 4, &d.count_n, GL_STATIC_DRAW);
        }
        check_gl("indirect buffers");
    }
    if (tessellated(d)) // grown and drawn again below when a patch makes more
        capacity = (uint64_t(d.count) / std::max(d.patch_vertices, 1u) + 2) *
                   std::max(d.instances, 1u) * 64 * (gs ? 16 : 1);

    const GLenum mode = kPrims[d.prim].mode;
    auto issue_draw = [&] {
        if (d.multi || d.indirect) {
            const GLsizei n = GLsizei(d.count_given ? d.count_max : d.records.size());
            if (d.index_size != 0 && d.count_given)
                gl_proc<PFNGLMULTIDRAWELEMENTSINDIRECTCOUNTARBPROC>(
                    "glMultiDrawElementsIndirectCountARB")(mode, index_type, nullptr, 0, n, 0);
            else if (d.index_size != 0)
                glMultiDrawElementsIndirect(mode, index_type, nullptr, n, 0);
            else if (d.count_given)
                gl_proc<PFNGLMULTIDRAWARRAYSINDIRECTCOUNTARBPROC>(
                    "glMultiDrawArraysIndirectCountARB")(mode, nullptr, 0, n, 0);
            else
                glMultiDrawArraysIndirect(mode, nullptr, n, 0);
        } else if (d.index_size != 0) {
            const auto offset = reinterpret_cast<const void*>(uintptr_t(d.start) * d.index_size);
            glDrawElementsInstancedBaseVertexBaseInstance(mode, GLsizei(d.count), index_type,
                                                          offset, GLsizei(d.instances),
                                                          d.base_vertex, d.base_instance);
        } else {
            glDrawArraysInstancedBaseInstance(mode, GLint(d.start), GLsizei(d.count),
                                              GLsizei(d.instances), d.base_instance);
        }
    };
    if (statistics) {
        glGenQueries(GLsizei(kStatisticsCount), o.statistics);
        for (; o.statistics_active < kStatisticsCount; ++o.statistics_active)
            glBeginQuery(kStatistics[o.statistics_active].target,
                         o.statistics[o.statistics_active]);
        check_gl("the statistics queries");
        for (uint32_t r = 0; r < (xfb_size ? repeat : 1); ++r) issue_draw();
        for (; o.statistics_active > 0; --o.statistics_active)
            glEndQuery(kStatistics[o.statistics_active - 1].target);
        cap.statistics = "# statistics";
        for (size_t i = 0; i < kStatisticsCount; ++i) {
            GLuint64 n = 0;
            glGetQueryObjectui64v(o.statistics[i], GL_QUERY_RESULT, &n);
            cap.statistics += std::string(" ") + kStatistics[i].name + " " + std::to_string(n);
        }
        cap.statistics += "\n";
        check_gl("the statistics");
    }
    glGenBuffers(1, &o.tfb);
    glGenQueries(3, o.queries);
    const GLuint binding = stream > 0 ? 1 : 0;
    if (stream > 0) { // stream 0's buffer, large enough for everything
        glGenBuffers(1, &o.tfb0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, o.tfb0);
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(capacity * per_prim * 4), nullptr,
                     GL_STREAM_READ);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, o.tfb0);
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        const uint64_t bytes = xfb_size ? *xfb_size : capacity * per_prim * cap.components * 4;
        if (bytes > (uint64_t(1) << 31)) fail(1, "draw too large to capture");
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, o.tfb);
        const std::vector<uint8_t> zeros(xfb_size ? bytes : 0);
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(bytes),
                     xfb_size ? zeros.data() : nullptr, GL_STREAM_READ);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, binding, o.tfb);
        glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, stream, o.queries[0]);
        o.generated_active = true;
        if (stream > 0) {
            glBeginQuery(GL_PRIMITIVES_GENERATED, o.queries[2]);
            o.generated0_active = true;
        }
        if (capture) {
            glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream, o.queries[1]);
            o.written_active = true;
            glBeginTransformFeedback(cap.xfb_mode);
            o.xfb_active = true;
            check_gl("glBeginTransformFeedback");
        }
        for (uint32_t r = 0; r < (xfb_size ? repeat : 1); ++r) {
            const bool paused = capture && r % 2 == 1;
            if (paused) glPauseTransformFeedback();
            issue_draw();
            if (paused) glResumeTransformFeedback();
        }
        check_gl("the draw");
        if (capture) {
            glEndTransformFeedback();
            o.xfb_active = false;
            glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream);
            o.written_active = false;
        }
        glEndQueryIndexed(GL_PRIMITIVES_GENERATED, stream);
        o.generated_active = false;
        if (stream > 0) {
            glEndQuery(GL_PRIMITIVES_GENERATED);
            o.generated0_active = false;
            glGetQueryObjectuiv(o.queries[2], GL_QUERY_RESULT, &cap.generated0);
        }
        glGetQueryObjectuiv(o.queries[0], GL_QUERY_RESULT, &cap.generated);
        if (capture) glGetQueryObjectuiv(o.queries[1], GL_QUERY_RESULT, &cap.written);
        check_gl("the queries");
        if (!capture) {
            cap.count_only = true;
            return cap;
        }
        if (xfb_size || cap.generated <= cap.written || cap.generated <= capacity) break;
        capacity = cap.generated; // the buffer was too small: draw again into a larger one
    }
    cap.generated_drawn = cap.generated;
    if (!xfb_size) {
        // GL_PRIMITIVES_GENERATED of the draw alone, without transform feedback: Mesa then
        // counts a quad, a quad-strip quad or a polygon as one primitive, not two triangles.
        glBeginQuery(GL_PRIMITIVES_GENERATED, o.queries[2]);
        o.generated0_active = true;
        issue_draw();
        glEndQuery(GL_PRIMITIVES_GENERATED);
        o.generated0_active = false;
        glGetQueryObjectuiv(o.queries[2], GL_QUERY_RESULT, &cap.generated_drawn);
        check_gl("the draw without transform feedback");
    }
    const size_t words = size_t(cap.written) * per_prim * cap.components;
    cap.data.resize(words);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, o.tfb);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, GLsizeiptr(words * 4), cap.data.data());
    if (xfb_size) {
        cap.bytes.resize(size_t(*xfb_size));
        glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, GLsizeiptr(cap.bytes.size()),
                           cap.bytes.data());
    }
    check_gl("reading the capture");
    return cap;
}

// A captured float word as drawpipe's trace prints it: the shortest form that reads back.
std::string float_word(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

// `color`: the last four words of each vertex are a float vec4.
// `draw_ids`: each vertex carries gl_DrawID after its vertex and instance ids.
// `tess_triangles`: with a tessellated draw (no GS), gl_TessCoord's w is 1 - u - v in float.
std::string format_trace(const Capture& cap, const GsInfo* gs, bool color, bool draw_ids, bool tess,
                         bool tess_triangles) {
    const uint32_t per_prim = cap.xfb_mode == GL_POINTS ? 1 : cap.xfb_mode == GL_LINES ? 2 : 3;
    const char* name = per_prim == 1 ? "point" : per_prim == 2 ? "line" : "tri";
    const uint32_t floats_from = color ? cap.components - 4 : cap.components;
    std::string out;
    const uint32_t* v = cap.data.data();
    for (GLuint p = 0; p < cap.written; ++p) {
        out += name;
        for (uint32_t k = 0; k < per_prim; ++k, v += cap.components) {
            out += ' ';
            uint32_t first; // the first word printed in brackets
            if (gs) {
                out += std::to_string(v[0]);
                if (gs->writes_layer) out += '@' + std::to_string(int32_t(v[1]));
                first = gs->writes_layer ? 2 : 1;
            } else if (tess) {
                float u, t;
                std::memcpy(&u, &v[2], 4);
                std::memcpy(&t, &v[3], 4);
                const float w = tess_triangles ? 1.0f - u - t : 0.0f;
                char buf[96];
                std::snprintf(buf, sizeof buf, "p%u/%u(%.9g,%.9g,%.9g)", v[0], v[1], double(u),
                              double(t), double(w));
                out += buf;
                first = 4;
            } else {
                out += std::to_string(v[0]) + '/' + std::to_string(v[1]);
                first = 2;
                if (draw_ids) out += '/' + std::to_string(v[2]), first = 3;
            }
            if (cap.components == first) continue;
            out += '[';
            for (uint32_t c = first; c < cap.components; ++c) {
                if (c > first) out += ',';
                out += c >= floats_from ? float_word(v[c]) : std::to_string(v[c]);
            }
            out += ']';
        }
        out += '\n';
    }
    return out;
}

std::string read_text(const std::string& file) {
    std::ostringstream text;
    if (file == "-") {
        text << std::cin.rdbuf();
    } else {
        std::ifstream in(file, std::ios::binary);
        if (!in) fail(1, "cannot open '" + file + "'");
        text << in.rdbuf();
    }
    return text.str();
}

// What to draw: a description, and optionally a fixed capture buffer and where to dump it.
struct Job {
    std::string file;
    std::optional<uint64_t> xfb_size;
    std::string dump;
    uint32_t stream = 0;     // the vertex stream captured
    uint32_t repeat = 1;     // draws in the capture session
    bool statistics = false; // end with the `# statistics` line
};

// One description drawn: its trace and the queries, or a Failure.
std::string trace_file(const Job& job) {
    const std::string& file = job.file;
    Desc desc;
    try {
        desc = parse(read_text(file));
    } catch (const ParseError& e) {
        fail(1, e.what());
    }
    const GsInfo* gs = nullptr;
    if (!desc.gs.empty()) {
        for (const GsInfo& s : kShaders)
            if (desc.gs == s.name) gs = &s;
        if (!gs) fail(1, "gs: unknown geometry shader '" + desc.gs + "'");
        if (gs->color && desc.vs != "color")
            fail(1, "gs " + desc.gs + ": reads the colour varying; the draw needs `vs color`");
    }
    if (job.stream > 0 && (!gs || job.stream >= vertex_streams(*gs)))
        fail(1, "--xfb-stream " + std::to_string(job.stream) +
                    ": only streams 1 of gs streams2 and 1-3 of gs streams4 are declared here");
    const Capture cap = draw(desc, gs, job.xfb_size, job.stream, job.repeat, job.statistics);
    if (cap.count_only)
        fail(4, "# count-only " + std::string(kPrims[desc.prim].name) + ": " +
                    std::to_string(cap.generated) + " lines generated\n" + cap.statistics);
    if (!job.xfb_size && cap.generated != cap.written)
        fail(3, "transform feedback wrote " + std::to_string(cap.written) + " of " +
                    std::to_string(cap.generated) + " primitives generated");
    if (!job.dump.empty()) {
        std::ofstream out(job.dump, std::ios::binary);
        out.write(reinterpret_cast<const char*>(cap.bytes.data()),
                  std::streamsize(cap.bytes.size()));
        if (!out) fail(1, "cannot write '" + job.dump + "'");
    }
    std::string out = format_trace(cap, gs, gs ? gs->color : desc.vs == "color",
                                   desc.draw_ids() && !gs && !tessellated(desc), tessellated(desc),
                                   desc.tess_mode == "triangles");
    if (job.stream > 0) {
        out += "# primitives_generated " + std::to_string(cap.generated0) + "\n";
        out += "# stream " + std::to_string(job.stream) + " primitives_generated " +
               std::to_string(cap.generated) + "\n";
    } else {
        out += "# primitives_generated " + std::to_string(cap.generated_drawn) + "\n";
    }
    if (job.xfb_size) out += "# primitives_written " + std::to_string(cap.written) + "\n";
    return out + cap.statistics;
}

void print_info(const Gl& gl) {
    GLint profile = 0;
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
    GLboolean quads_follow = GL_FALSE;
    glGetBooleanv(GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION, &quads_follow);
    std::fprintf(stderr,
                 "platform: %s\nGL_VERSION: %s\nGL_RENDERER: %s\nversion %d.%d, profile mask "
                 "0x%x (%s)\nquads follow provoking vertex: %s\n",
                 gl.platform.c_str(), reinterpret_cast<const char*>(glGetString(GL_VERSION)),
                 reinterpret_cast<const char*>(glGetString(GL_RENDERER)), gl.major, gl.minor,
                 profile,
                 (profile & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) ? "compatibility" : "core",
                 quads_follow ? "yes" : "no");
}

uint64_t byte_count(const std::string& word) {
    try {
        return number<uint64_t>(0, "xfb size", word);
    } catch (const ParseError& e) {
        fail(1, e.what());
    }
}

int run(int argc, char** argv) {
    bool info = false, batch = false;
    std::vector<Job> files;
    std::optional<uint64_t> xfb_size;
    std::string dump;
    uint32_t stream = 0, repeat = 1;
    bool statistics = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 == argc) fail(1, std::string(a) + " needs a value");
            return argv[++i];
        };
        if (a == "--info") {
            info = true;
        } else if (a == "--batch") {
            batch = true;
        } else if (a == "--xfb-size") {
            const std::string v = value();
            xfb_size = byte_count(v);
        } else if (a == "--xfb-dump") {
            dump = value();
        } else if (a == "--xfb-stream") {
            stream = uint32_t(byte_count(value()));
        } else if (a == "--repeat") {
            repeat = uint32_t(byte_count(value()));
        } else if (a == "--statistics") {
            statistics = true;
        } else if (a == "-" || a.substr(0, 1) != "-") {
            // FILE, or FILE,BYTES[,DUMP] in a batch: that file captured into BYTES bytes.
            Job job;
            const std::string arg(a);
            const size_t c1 = arg.find(',');
            job.file = arg.substr(0, c1);
            if (c1 != std::string::npos) {
                const size_t c2 = arg.find(',', c1 + 1);
                job.xfb_size = byte_count(arg.substr(c1 + 1, c2 - c1 - 1));
                if (c2 != std::string::npos) {
                    const size_t c3 = arg.find(',', c2 + 1);
                    job.dump = arg.substr(c2 + 1, c3 - c2 - 1);
                    if (c3 != std::string::npos) {
                        const size_t c4 = arg.find(',', c3 + 1);
                        job.stream = uint32_t(byte_count(arg.substr(c3 + 1, c4 - c3 - 1)));
                        if (c4 != std::string::npos)
                            job.repeat = uint32_t(byte_count(arg.substr(c4 + 1)));
                    }
                }
            }
            files.push_back(job);
        } else {
            fail(1, "unknown option '" + std::string(a) + "'");
        }
    }
    for (Job& job : files) {
        if (!job.xfb_size) job.xfb_size = xfb_size;
        if (job.dump.empty()) job.dump = dump;
        if (job.stream == 0) job.stream = stream;
        if (job.repeat == 1) job.repeat = repeat;
        job.statistics = statistics;
    }
    if (files.size() > 1) batch = true;
    if (files.empty() && !info) fail(1, "usage: mesa_trace [--info] [--batch] DRAW.txt...");

    const Gl gl = init_gl();
    if (info) print_info(gl);
    if (!batch) {
        if (files.empty()) return 0;
        try {
            const std::string out = trace_file(files[0]);
            std::fwrite(out.data(), 1, out.size(), stdout);
        } catch (const Failure& f) {
            if (f.status == 4) { // a count, not an error
                std::printf("%s\n", f.what.c_str());
                return 4;
            }
            throw;
        }
        return 0;
    }
    // Batch: `== FILE status S` before each trace; a failure's message follows its header.
    for (const Job& job : files) {
        const std::string& file = job.file;
        std::string out;
        int status = 0;
        try {
            out = trace_file(job);
        } catch (const Failure& f) {
            if (f.status == 2) throw; // no usable GL: nothing else would draw either
            status = f.status;
            out = f.what + "\n";
        }
        std::printf("== %s status %d\n", file.c_str(), status);
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const Failure& f) {
        std::fprintf(stderr, "mesa_trace: %s\n", f.what.c_str());
        return f.status;
    }
}
