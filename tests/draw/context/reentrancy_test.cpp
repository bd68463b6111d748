// A call on a context from inside one of its own callbacks (the backend's, a shader's) is
// Error(invalid_operation) naming the call and the callback, and changes nothing: every queued
// draw reaches the backend once.
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/shader.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

const float kTriangle[] = {-0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1};

// Counts what reaches it, and in `where` calls back into its own context.
class ReenteringBackend final : public Backend {
  public:
    enum class Where { begin_draw, draw_elements, end_draw };
    Context* ctx = nullptr;
    Where where = Where::draw_elements;
    DrawInfo draw;
    uint32_t begins = 0, elements = 0, ends = 0;
    std::vector<std::string> errors; // what each refused call said

    void begin_draw(const DrawInfo&, const VertexLayout&) override {
        ++begins;
        if (where == Where::begin_draw) reenter();
    }
    void draw_elements(Prim, uint8_t, const VertexView&, std::span<const uint32_t>) override {
        ++elements;
        if (where == Where::draw_elements) reenter();
    }
    void end_draw() override {
        ++ends;
        if (where == Where::end_draw) reenter();
    }

  private:
    void reenter() {
        if (!ctx) return; // calling back no more
        auto refused = [&](auto&& call) {
            try {
                call();
                errors.push_back("accepted");
            } catch (const Error& e) {
                errors.push_back(std::string(error_code_name(e.code())) + ": " + e.what());
            }
        };
        refused([&] { ctx->draw(draw); });
        refused([&] { ctx->flush(); });
        refused([&] { ctx->set_vertex_buffers({}); });
    }
};

struct Scene {
    Context ctx;
    ReenteringBackend backend;
    DrawInfo draw;
    explicit Scene(const ContextOptions& o = {}) : ctx(o) {
        ctx.bind_middle_end("fetch_shade");
        ctx.bind_backend(backend);
        const VertexBuffer vb{kTriangle, sizeof kTriangle, 16, 0};
        VertexAttrib a;
        a.format = Format::float32x4;
        ctx.set_vertex_buffers({&vb, 1});
        ctx.set_vertex_attribs({&a, 1});
        draw.prim = Prim::triangles;
        draw.count = 3;
        backend.ctx = &ctx;
        backend.draw = draw;
    }
};

TEST(Reentrancy, BackendCallbacksAreRefusedAndNothingIsRepeated) {
    using W = ReenteringBackend::Where;
    for (const auto& [where, name] :
         {std::pair{W::begin_draw, "begin_draw"}, std::pair{W::draw_elements, "draw_elements"},
          std::pair{W::end_draw, "end_draw"}}) {
        for (uint32_t threads : {1u, 2u}) {
            ContextOptions o;
            o.threads = threads;
            Scene s(o);
            s.backend.where = where;
            for (int i = 0; i < 5; ++i) s.ctx.draw(s.draw);
            s.ctx.flush();
            // Five draws, each delivered once: no call made from the callbacks was queued.
            EXPECT_EQ(s.backend.begins, 5u) << name;
            EXPECT_EQ(s.backend.elements, 5u) << name;
            EXPECT_EQ(s.backend.ends, 5u) << name;
            ASSERT_EQ(s.backend.errors.size(), 15u) << name;
            const char* calls[3] = {"Context::draw", "Context::flush",
                                    "Context::set_vertex_buffers"};
            for (size_t i = 0; i < 15; ++i) {
                const std::string& e = s.backend.errors[i];
                EXPECT_EQ(e.rfind("invalid_operation: ", 0), 0u) << e;
                EXPECT_NE(e.find(calls[i % 3]), std::string::npos) << e;
                EXPECT_NE(e.find(std::string("backend's ") + name), std::string::npos) << e;
            }
            // After the flush the context takes calls again.
            s.backend.ctx = nullptr;
            s.ctx.draw(s.draw);
            EXPECT_NO_THROW(s.ctx.set_vertex_buffers({}));
            EXPECT_EQ(s.backend.begins, 6u);
        }
    }
}

TEST(Reentrancy, ShaderCallbacksAreRefused) {
    for (uint32_t threads : {1u, 2u}) {
        ContextOptions o;
        o.threads = threads;
        o.inline_below = 0; // shade on the pipeline's threads
        Scene s(o);
        s.backend.where = ReenteringBackend::Where::begin_draw;
        s.backend.ctx = nullptr; // only the shader calls back
        std::atomic<int> refused{0}, accepted{0};
        std::string said;
        VertexShader vs;
        vs.run = [&](const ShaderBlock& b) {
            for (uint32_t c = 0; c < 4; ++c)
                for (uint32_t l = 0; l < b.count; ++l) b.out[c][l] = b.in[c][l];
            try {
                s.ctx.draw(s.draw);
                ++accepted;
            } catch (const Error& e) {
                if (e.code() == ErrorCode::invalid_operation && refused++ == 0) said = e.what();
            }
        };
        s.ctx.bind_vertex_shader(vs);
        for (int i = 0; i < 3; ++i) s.ctx.draw(s.draw);
        s.ctx.flush();
        EXPECT_EQ(accepted.load(), 0);
        EXPECT_GE(refused.load(), 3);
        EXPECT_NE(said.find("Context::draw"), std::string::npos) << said;
        EXPECT_NE(said.find("shader"), std::string::npos) << said;
        EXPECT_EQ(s.backend.begins, 3u);
        EXPECT_EQ(s.backend.elements, 3u);
    }
}

} // namespace
