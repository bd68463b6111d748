// mesa_render: renders a drawpipe draw description with real OpenGL (Mesa's llvmpipe,
// headless, compatibility profile) into an RGBA8 framebuffer object and prints every pixel
// that is not the clear colour (0, 0, 0, 0) as `X Y RRGGBBAA`, Y = 0 at the bottom, by rows
// then columns: what `drawpipe render --pixels` prints for the same description.
//
//   mesa_render [--width W] [--height H] DRAW.txt        (default 64 x 64)
//   mesa_render [--width W] [--height H] --batch DRAW.txt...   each after `== FILE status S`
// --depth24: a 24-bit fixed-point depth buffer in place of the 32-bit float one (drawpipe's
// raster backend has only the float one: for comparing Mesa with itself, as the Mesa
// integration's judge-stages.py does).
//
// The state is set with the GL calls the keys name: glPolygonMode, glEdgeFlagPointer,
// glClipPlane (with gl_ClipVertex = the position, so the plane applies in clip space; or, by
// `clip_style`, no gl_ClipVertex, or gl_ClipDistance under GL_CLIP_DISTANCEi),
// glLineStipple, glLineWidth, glPointSize, glPolygonOffset, glShadeModel (the colour is
// gl_Color), glProvokingVertex, glFrontFace, glCullFace, glDepthRange, glViewport,
// glViewportIndexedf, glDepthRangeIndexed, GL_DEPTH_CLAMP, glClipControl, and
// GL_VERTEX_PROGRAM_TWO_SIDE with gl_BackColor from `back_colors` (`two_side 1`); of the
// geometry shaders only `viewport_select` (gl_ViewportIndex = gl_PrimitiveIDIn % 4); patches
// (`patch_vertices`, `tess`, `tess_levels`, `tcs levels_by_patch`) through the library's
// tessellation shaders, as mesa_trace draws them, with glPatchParameter*.
// Exit status: 0 drawn; 1 bad arguments or description; 2 no usable OpenGL; 3 a GL error;
// 4 a description this program does not render (another geometry or a vertex shader).
#include "mesa_common.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <string>

namespace {

using namespace mesa_check;

struct Image {
    uint32_t width = 64, height = 64;
    bool depth24 = false; // a 24-bit fixed-point depth buffer (--depth24), else 32-bit float
};

std::vector<float> padded(std::vector<float> v, std::initializer_list<float> fill, size_t n) {
    while (v.size() < n * fill.size()) v.insert(v.end(), fill);
    return v;
}

// drawpipe's `viewport_select` (tools/common/gs_library.cpp): every triangle as it came, in
// viewport gl_PrimitiveIDIn % 4.
const char* kViewportSelectGs = R"(#version 150 compatibility
#extension GL_ARB_viewport_array : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; ++i) {
        gl_Position = gl_in[i].gl_Position;
        gl_ClipVertex = gl_in[i].gl_ClipVertex;
        gl_FrontColor = gl_in[i].gl_FrontColor;
        gl_BackColor = gl_in[i].gl_BackColor;
        gl_ViewportIndex = gl_PrimitiveIDIn % 4;
        EmitVertex();
    }
    EndPrimitive();
}
)";

// A program with the vertex, fragment and (viewport_select) geometry shaders attached, not
// linked. The colour is gl_Color, or with point sprites the point coordinates (drawpipe
// render writes them into the colour output).
// clip_style and planes: the vertex shader's side of the clip planes (Render::clip_style).
std::string vertex_shader(const std::string& clip_style, size_t planes) {
    if (clip_style != "distance")
        return std::string("#version 120\n"
                           "attribute vec4 pos;\n"
                           "attribute vec4 col;\n"
                           "attribute vec4 bcol;\n"
                           "void main() {\n"
                           "    gl_Position = pos;\n") +
               (clip_style == "vertex"    ? "    gl_ClipVertex = pos;\n"
                : clip_style == "swapped" ? "    gl_ClipVertex = pos.yxzw;\n"
                                          : "") +
               "    gl_FrontColor = col;\n"
               "    gl_BackColor = bcol;\n"
               "}\n";
    std::string vs = "#version 130\n"
                     "in vec4 pos;\n"
                     "in vec4 col;\n"
                     "in vec4 bcol;\n"
                     "uniform vec4 planes[8];\n"
                     "void main() {\n"
                     "    gl_Position = pos;\n";
    for (size_t i = 0; i < planes; ++i)
        vs += "    gl_ClipDistance[" + std::to_string(i) + "] = dot(planes[" + std::to_string(i) +
              "], pos);\n";
    return vs + "    gl_FrontColor = col;\n    gl_BackColor = bcol;\n}\n";
}

GLuint program_shaders(bool sprite, bool viewport_select, const std::string& clip_style = "vertex",
                       size_t planes = 0, bool face_color = false) {
    const std::string vs = vertex_shader(clip_style, planes);
    const char* fs = sprite       ? R"(#version 120
void main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0); }
)"
                     : face_color ? R"(#version 120
void main() { gl_FragColor = gl_FrontFacing ? gl_Color : vec4(1.0, 0.0, 1.0, 1.0); }
)"
                                  : R"(#version 120
void main() { gl_FragColor = gl_Color; }
)";
    const GLuint prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vs.c_str()));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, fs));
    if (viewport_select) glAttachShader(prog, compile(GL_GEOMETRY_SHADER, kViewportSelectGs));
    glBindAttribLocation(prog, 0, "pos");
    glBindAttribLocation(prog, 1, "col");
    glBindAttribLocation(prog, 3, "bcol");
    return prog;
}

// Links `prog` and lets its shaders go with it.
GLuint link(GLuint prog) {
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(prog, sizeof log, nullptr, log);
        fail(2, std::string("mesa_render: program link failed: ") + log);
    }
    GLuint shaders[5] = {};
    GLsizei n = 0;
    glGetAttachedShaders(prog, 5, &n, shaders);
    for (GLsizei i = 0; i < n; ++i) glDeleteShader(shaders[i]);
    return prog;
}

// The program without tessellation, linked once per kind.
GLuint program(bool sprite, bool viewport_select = false, const std::string& clip_style = "vertex",
               size_t planes = 0, bool face_color = false) {
    static std::map<std::string, GLuint> progs;
    GLuint& prog = progs[std::to_string(sprite) + std::to_string(viewport_select) + clip_style +
                         std::to_string(planes) + std::to_string(face_color)];
    if (prog) return prog;
    prog = link(program_shaders(sprite, viewport_select, clip_style, planes, face_color));
    return prog;
}

// Tessellation: the library's control and evaluation shaders (mesa_common.hpp) carrying the
// position, clip vertex and both colours through, as drawpipe render's interpolate carries
// its varyings; a new program per description, since the levels and layout are in the GLSL.
GLuint tess_program(const Desc& d, bool sprite, bool viewport_select) {
    const std::string version = "#version 420 compatibility\n";
    const GLuint prog = program_shaders(sprite, viewport_select);
    if (!d.tcs.empty()) {
        std::string pass;
        for (const char* member : {"gl_Position", "gl_FrontColor", "gl_BackColor"})
            pass += std::string("    gl_out[gl_InvocationID].") + member +
                    " = gl_in[gl_InvocationID]." + member + ";\n";
        glAttachShader(prog,
                       compile(GL_TESS_CONTROL_SHADER, tess_control_glsl(d, version, "", pass)));
    }
    std::string body;
    for (const char* member : {"gl_Position", "gl_FrontColor", "gl_BackColor"})
        body += std::string("    ") + member + " = " +
                tess_interpolation(
                    d, [&](int k) { return "gl_in[" + std::to_string(k) + "]." + member; }) +
                ";\n";
    body += "    gl_ClipVertex = gl_Position;\n";
    glAttachShader(prog, compile(GL_TESS_EVALUATION_SHADER, tess_eval_glsl(d, version, "", body)));
    return link(prog);
}

GLenum polygon_mode(const std::string& m) {
    return m == "line" ? GL_LINE : m == "point" ? GL_POINT : GL_FILL;
}

// Renders `d`; returns the pixels text, or throws Failure.
std::string render(const Desc& d, const Image& img) {
    const bool viewport_select = d.gs == "viewport_select";
    if ((!d.gs.empty() && !viewport_select) || !d.vs.empty() || !d.divisors.empty())
        fail(4, "shaders and attributes are not rendered");
    const Render& r = d.render;
    // Vertex ids up to the largest the draw reads; ids without a value read the defaults.
    size_t span = r.positions.size() / 4;
    if (d.index_size == 0) {
        span = std::max<size_t>(span, size_t(d.start) + d.count);
    } else {
        for (uint32_t i = d.start; i < d.start + d.count; ++i)
            span = std::max<size_t>(span, size_t(int64_t(d.indices[i]) + d.base_vertex) + 1);
    }
    if (span > (1u << 24)) fail(1, "vertex ids past 2^24");
    const std::vector<float> pos = padded(r.positions, {0, 0, 0, 1}, span);
    const std::vector<float> col = padded(r.colors, {1, 1, 1, 1}, span);
    // gl_BackColor: the back colours with two-sided colour on (opaque white by default, as
    // drawpipe render), else the colours (GL then shows the front colour on both faces).
    const std::vector<float> bcol = r.two_side ? padded(r.back_colors, {1, 1, 1, 1}, span) : col;
    std::vector<GLubyte> edge(span, 1);
    for (size_t i = 0; i < r.edgeflags.size() && i < span; ++i) edge[i] = r.edgeflags[i] != 0;

    GLuint fbo, rb[2];
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, GLsizei(img.width), GLsizei(img.height));
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER,
                          img.depth24 ? GL_DEPTH_COMPONENT24 : GL_DEPTH_COMPONENT32F,
                          GLsizei(img.width), GLsizei(img.height));
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fail(2, "framebuffer incomplete");
    glClearColor(0, 0, 0, 0);
    glClearDepth(1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    GLuint buf[5];
    glGenBuffers(5, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pos.size() * 4), pos.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(col.size() * 4), col.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(1);
    glBindBuffer(GL_ARRAY_BUFFER, buf[2]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(edge.size()), edge.data(), GL_STATIC_DRAW);
    glEdgeFlagPointer(0, nullptr);
    // GL gives the tessellator's primitives no edge flags (every edge is a boundary edge).
    // llvmpipe deviates: with an edge flag array enabled, polygon modes line and point draw
    // nothing after tessellation, whatever the flags; without one it draws every edge.
    if (!tessellated(d)) glEnableClientState(GL_EDGE_FLAG_ARRAY);
    glBindBuffer(GL_ARRAY_BUFFER, buf[4]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bcol.size() * 4), bcol.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(3);
    if (r.two_side) glEnable(GL_VERTEX_PROGRAM_TWO_SIDE);

    const GLuint tess =
        tessellated(d) ? tess_program(d, !r.point_sprite.empty(), viewport_select) : 0;
    if (r.clip_style != "vertex" && (tess || viewport_select))
        fail(4, "clip_style other than vertex is not rendered with tessellation or a GS");
    const GLuint prog = tess ? tess
                             : program(!r.point_sprite.empty(), viewport_select, r.clip_style,
                                       r.clip_planes.size(), r.face_color);
    glUseProgram(prog);
    if (r.clip_style == "distance" && !r.clip_planes.empty())
        glUniform4fv(glGetUniformLocation(prog, "planes"), GLsizei(r.clip_planes.size()),
                     r.clip_planes[0].data());
    glPatchParameteri(GL_PATCH_VERTICES, GLint(d.patch_vertices));
    glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, d.tess_levels);
    glPatchParameterfv(GL_PATCH_DEFAULT_INNER_LEVEL, d.tess_levels + 4);
    if (!r.point_sprite.empty()) {
        glEnable(GL_POINT_SPRITE);
        glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN,
                          r.point_sprite == "lower_left" ? GL_LOWER_LEFT : GL_UPPER_LEFT);
    } else {
        glDisable(GL_POINT_SPRITE);
    }
    if (r.viewport_given)
        glViewport(GLint(r.viewport[0]), GLint(r.viewport[1]), GLsizei(r.viewport[2]),
                   GLsizei(r.viewport[3]));
    else
        glViewport(0, 0, GLsizei(img.width), GLsizei(img.height));
    glDepthRange(r.depth_range[0], r.depth_range[1]);
    // After glViewport and glDepthRange, which set every index.
    for (const auto& v : r.viewport_array) {
        glViewportIndexedf(v.index, v.rect[0], v.rect[1], v.rect[2], v.rect[3]);
        if (v.depth_given) glDepthRangeIndexed(v.index, v.depth[0], v.depth[1]);
    }
    if (r.depth_clamp) glEnable(GL_DEPTH_CLAMP);
    glClipControl(r.clip_origin == "upper_left" ? GL_UPPER_LEFT : GL_LOWER_LEFT,
                  r.clip_depth == "zero_to_one" ? GL_ZERO_TO_ONE : GL_NEGATIVE_ONE_TO_ONE);
    glPolygonMode(GL_FRONT, polygon_mode(r.polygon_mode[0]));
    glPolygonMode(GL_BACK, polygon_mode(r.polygon_mode[1]));
    if (r.cull != "none") {
        glEnable(GL_CULL_FACE);
        glCullFace(r.cull == "front" ? GL_FRONT : r.cull == "back" ? GL_BACK : GL_FRONT_AND_BACK);
    }
    glFrontFace(r.front_face == "cw" ? GL_CW : GL_CCW);
    glShadeModel(r.shade == "flat" ? GL_FLAT : GL_SMOOTH);
    glProvokingVertex(d.provoking_first ? GL_FIRST_VERTEX_CONVENTION : GL_LAST_VERTEX_CONVENTION);
    if (r.stipple) {
        glEnable(GL_LINE_STIPPLE);
        glLineStipple(GLint(r.stipple_factor), GLushort(r.stipple_pattern));
        // GL restarts the stipple pattern with each draw; Mesa's draw module restarts it only
        // on a line that starts a strip, and loses that when the clipper drops the whole line,
        // so a strip whose first line is outside would continue the previous description's
        // counter. A zero-length line in the middle of the view (before any clip plane is on)
        // draws nothing and sets the counter to 0.
        const float centre[8] = {0, 0, 0, 1, 0, 0, 0, 1};
        GLuint tmp;
        glGenBuffers(1, &tmp);
        glBindBuffer(GL_ARRAY_BUFFER, tmp);
        glBufferData(GL_ARRAY_BUFFER, sizeof centre, centre, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
        glUseProgram(program(false)); // lines: not through tessellation or a triangles GS
        glDrawArrays(GL_LINES, 0, 2);
        glUseProgram(prog);
        glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
        glDeleteBuffers(1, &tmp);
    }
    glLineWidth(r.line_width);
    glPointSize(r.point_size);
    for (size_t i = 0; i < r.clip_planes.size(); ++i) {
        const double eq[4] = {r.clip_planes[i][0], r.clip_planes[i][1], r.clip_planes[i][2],
                              r.clip_planes[i][3]};
        glClipPlane(GLenum(GL_CLIP_PLANE0 + i), eq);
        glEnable(GLenum(GL_CLIP_PLANE0 + i));
    }
    if (r.depth_test) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
    }
    if (r.offset) {
        glEnable(GL_POLYGON_OFFSET_FILL);
        glEnable(GL_POLYGON_OFFSET_LINE);
        glEnable(GL_POLYGON_OFFSET_POINT);
        glPolygonOffset(r.offset_factor, r.offset_units);
    }
    if (d.restart && d.index_size != 0) {
        glEnable(GL_PRIMITIVE_RESTART);
        glPrimitiveRestartIndex(d.restart_index);
    }
    const GLenum mode = kPrims[d.prim].mode;
    if (d.index_size == 0) {
        glDrawArraysInstancedBaseInstance(mode, GLint(d.start), GLsizei(d.count),
                                          GLsizei(d.instances), d.base_instance);
    } else {
        std::vector<uint8_t> bytes(d.indices.size() * d.index_size);
        for (size_t i = 0; i < d.indices.size(); ++i)
            std::memcpy(&bytes[i * d.index_size], &d.indices[i], d.index_size); // little endian
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[3]);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(bytes.size()), bytes.data(),
                     GL_STATIC_DRAW);
        const GLenum type = d.index_size == 1   ? GL_UNSIGNED_BYTE
                            : d.index_size == 2 ? GL_UNSIGNED_SHORT
                                                : GL_UNSIGNED_INT;
        glDrawElementsInstancedBaseVertexBaseInstance(
            mode, GLsizei(d.count), type,
            reinterpret_cast<const void*>(uintptr_t(d.start) * d.index_size), GLsizei(d.instances),
            d.base_vertex, d.base_instance);
    }
    std::vector<uint8_t> px(size_t(img.width) * img.height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, GLsizei(img.width), GLsizei(img.height), GL_RGBA, GL_UNSIGNED_BYTE,
                 px.data());
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) fail(3, "GL error 0x" + std::to_string(e));
    std::string out;
    char line[64];
    for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x) {
            const uint8_t* p = &px[(size_t(y) * img.width + x) * 4];
            if (p[0] | p[1] | p[2] | p[3]) {
                std::snprintf(line, sizeof line, "%u %u %02X%02X%02X%02X\n", x, y, p[0], p[1], p[2],
                              p[3]);
                out += line;
            }
        }
    // Back to the defaults for the next description of a batch.
    glUseProgram(0);
    if (tess) glDeleteProgram(tess);
    glDeleteBuffers(5, buf);
    glDeleteRenderbuffers(2, rb);
    glDeleteFramebuffers(1, &fbo);
    glDisableClientState(GL_EDGE_FLAG_ARRAY);
    glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
    for (GLenum cap : {GL_CULL_FACE, GL_LINE_STIPPLE, GL_DEPTH_TEST, GL_POLYGON_OFFSET_FILL,
                       GL_POLYGON_OFFSET_LINE, GL_POLYGON_OFFSET_POINT, GL_PRIMITIVE_RESTART,
                       GL_DEPTH_CLAMP, GL_VERTEX_PROGRAM_TWO_SIDE})
        glDisable(cap);
    for (GLenum i = 0; i < 8; ++i) glDisable(GL_CLIP_PLANE0 + i);
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(1, "cannot open '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

int run(int argc, char** argv) {
    Image img;
    bool batch = false;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--width" || a == "--height") && i + 1 < argc)
            (a == "--width" ? img.width : img.height) = uint32_t(std::stoul(argv[++i]));
        else if (a == "--batch")
            batch = true;
        else if (a == "--depth24")
            img.depth24 = true;
        else
            files.push_back(a);
    }
    if (files.empty() || img.width == 0 || img.height == 0 || img.width > 4096 ||
        img.height > 4096) {
        std::fprintf(
            stderr,
            "usage: mesa_render [--width W] [--height H] [--depth24] [--batch] DRAW.txt...\n");
        return 1;
    }
    init_gl();
    if (!batch) {
        try {
            std::fputs(render(parse(read_file(files[0])), img).c_str(), stdout);
        } catch (const ParseError& e) {
            fail(1, e.what());
        }
        return 0;
    }
    for (const std::string& f : files) {
        std::string text;
        int status = 0;
        try {
            text = render(parse(read_file(f)), img);
        } catch (const ParseError& e) {
            status = 1, text = std::string(e.what()) + "\n";
        } catch (const Failure& e) {
            if (e.status == 2) throw;
            status = e.status, text = e.what + "\n";
        }
        std::printf("== %s status %d\n%s", f.c_str(), status, text.c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const Failure& f) {
        std::fprintf(stderr, "mesa_render: %s\n", f.what.c_str());
        return f.status;
    }
}
