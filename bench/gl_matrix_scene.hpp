// The GL side of the whole-draw benchmarks against a real OpenGL (mesa_draw_bench,
// gl_draw_bench): gl_Position = M * pos with M a uniform, drawn with rasterizer discard into a
// framebuffer of one pixel, since a surfaceless context has none and a draw without one is
// GL_INVALID_FRAMEBUFFER_OPERATION (drawing nothing, in no time).
#pragma once

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>

#include <stdexcept>
#include <string>

namespace drawpipe::bench {

inline GLuint compile_shader(GLenum type, const char* src) {
    const GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader compile failed: ") + log);
    }
    return s;
}

// Makes gl_Position = M * pos current; `row_major` is M as drawpipe's shaders read it.
// capture_position: the program declares gl_Position for transform feedback (interleaved).
inline GLuint use_matrix_program(const float row_major[16], bool capture_position = false) {
    const GLuint prog = glCreateProgram();
    glAttachShader(prog,
                   compile_shader(GL_VERTEX_SHADER, "#version 450 core\n"
                                                    "layout(location = 0) in vec4 pos;\n"
                                                    "uniform mat4 M;\n"
                                                    "void main() { gl_Position = M * pos; }\n"));
    // Runs only with rasterizer discard off: the depth as grey, so a frame's pixels show it.
    glAttachShader(prog, compile_shader(GL_FRAGMENT_SHADER,
                                        "#version 450 core\n"
                                        "out vec4 color;\n"
                                        "void main() { color = vec4(gl_FragCoord.zzz, 1.0); }\n"));
    if (capture_position) {
        const char* varyings[] = {"gl_Position"};
        glTransformFeedbackVaryings(prog, 1, varyings, GL_INTERLEAVED_ATTRIBS);
    }
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("program link failed");
    glUseProgram(prog);
    // GL matrices are column-major; ours is row-major, so transpose on upload.
    glUniformMatrix4fv(glGetUniformLocation(prog, "M"), 1, GL_TRUE, row_major);
    return prog;
}

// A complete framebuffer of one pixel, bound while it lives, and rasterizer discard on.
class DiscardTarget {
  public:
    DiscardTarget() {
        glGenFramebuffers(1, &fbo_);
        glGenRenderbuffers(1, &rb_);
        glBindRenderbuffer(GL_RENDERBUFFER, rb_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_);
        glViewport(0, 0, 1, 1);
        glEnable(GL_RASTERIZER_DISCARD);
    }
    ~DiscardTarget() {
        glDeleteFramebuffers(1, &fbo_);
        glDeleteRenderbuffers(1, &rb_);
    }
    DiscardTarget(const DiscardTarget&) = delete;
    DiscardTarget& operator=(const DiscardTarget&) = delete;

  private:
    GLuint fbo_ = 0, rb_ = 0;
};

// A complete framebuffer of width x height pixels (RGBA8 colour, 24-bit depth, depth test on),
// bound while it lives: a small window's frame without a window system.
class FrameTarget {
  public:
    FrameTarget(int width, int height) : width_(width), height_(height) {
        glGenFramebuffers(1, &fbo_);
        glGenRenderbuffers(2, rb_);
        glBindRenderbuffer(GL_RENDERBUFFER, rb_[0]);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glBindRenderbuffer(GL_RENDERBUFFER, rb_[1]);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_[0]);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb_[1]);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            throw std::runtime_error("the frame's framebuffer is incomplete");
        glViewport(0, 0, width, height);
        glEnable(GL_DEPTH_TEST);
        glDisable(GL_RASTERIZER_DISCARD);
    }
    ~FrameTarget() {
        glDeleteFramebuffers(1, &fbo_);
        glDeleteRenderbuffers(2, rb_);
    }
    FrameTarget(const FrameTarget&) = delete;
    FrameTarget& operator=(const FrameTarget&) = delete;

    int width() const { return width_; }
    int height() const { return height_; }

  private:
    int width_, height_;
    GLuint fbo_ = 0, rb_[2] = {};
};

} // namespace drawpipe::bench
