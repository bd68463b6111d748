// The A4xx middle end against the independent GS oracle: for every library shader, random
// draws of each primitive type that can feed it (strips, fans, loops, restart, instancing,
// splitting), in both the naive and the switch-rewritten mode.
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"
#include "support/gs_oracle.hpp"
#include "support/gs_trace_util.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <random>

namespace drawpipe::a4xx {
namespace {

using test::gs_trace_with;

TEST(A4xxMiddleEnd, RandomDrawsMatchOracleInBothModes) {
    std::mt19937 rng(4004);
    const Strategy strategies[] = {*Strategy::parse("distinct"), *Strategy::parse("vsplit"),
                                   *Strategy::parse("exact")};
    int checked = 0, nonempty = 0;
    for (const GeometryShader& gs : gs_library()) {
        // The oracle models ids only; shaders reading vertex-shader varyings are compared in
        // tests/middle_ends/varyings_test.cpp and against real OpenGL in tests/mesa.
        if (gs.input_varyings > 0) continue;
        for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
            if (!gs_input_compatible(Prim(p), gs.input)) continue;
            for (int iter = 0; iter < 25; ++iter) {
                DrawDesc d = test::random_draw(rng, Prim(p), {.max_count = 50, .max_instances = 3});
                d.gs = gs.name;
                const uint32_t limits[] = {0, 7, 12, 40};
                const uint32_t limit = limits[iter % 4];
                const std::string want = test::oracle_gs_trace(d);
                FetchShade reference;
                ASSERT_EQ(gs_trace_with(d, reference, limit, strategies[iter % 3]), want)
                    << gs.name << " reference\n"
                    << format_draw_text(d);
                A4xxMiddleEnd naive(Mode::naive), sw(Mode::switch_rewrite);
                DrawStats sn, ss;
                const std::string got_naive =
                    gs_trace_with(d, naive, limit, strategies[iter % 3], &sn);
                ASSERT_EQ(got_naive, want) << gs.name << " naive\n" << format_draw_text(d);
                const std::string got_sw = gs_trace_with(d, sw, limit, strategies[iter % 3], &ss);
                ASSERT_EQ(got_sw, want) << gs.name << " switch\n" << format_draw_text(d);
                // The modes make the same launches and count the same steps for each other.
                EXPECT_EQ(sn.counters, ss.counters) << gs.name;
                EXPECT_EQ(sn.counters[COUNTER_INVOCATIONS],
                          sn.counters[COUNTER_VERTICES] + sn.counters[COUNTER_KILLS]);
                EXPECT_LE(sn.counters[COUNTER_STEPS_SWITCH], sn.counters[COUNTER_STEPS_NAIVE]);
                ++checked;
                nonempty += !want.empty();
            }
        }
    }
    EXPECT_GT(nonempty, checked / 2);
}

// Kills: one per launch sequence that ends before max_vertices, none when the shader fills it.
TEST(A4xxMiddleEnd, KillsEndSequences) {
    auto stats = [](const char* text) {
        A4xxMiddleEnd m;
        DrawStats s;
        gs_trace_with(parse_draw_text(text), m, 0, {}, &s);
        return s.counters;
    };
    const auto full = stats("prim triangles\ncount 6\ngs passthrough_tri\n");
    EXPECT_EQ(full[COUNTER_INVOCATIONS], 6u);
    EXPECT_EQ(full[COUNTER_KILLS], 0u);
    const auto cull = stats("prim triangles\ncount 12\ngs cull_odd\n"); // prims 1, 3 culled
    EXPECT_EQ(cull[COUNTER_VERTICES], 6u);
    EXPECT_EQ(cull[COUNTER_KILLS], 2u);
    const auto inv = stats("prim triangle_strip\ncount 5\ngs invocations4\n");
    EXPECT_EQ(inv[COUNTER_INVOCATIONS], 3u * 4 * 3);
    EXPECT_EQ(inv[COUNTER_KILLS], 0u);
    const auto cuts = stats("prim triangles\ncount 3\ninstances 2\ngs many_cuts64\n");
    EXPECT_EQ(cuts[COUNTER_INVOCATIONS], 2u * 44);
    EXPECT_EQ(cuts[COUNTER_KILLS], 2u);
    EXPECT_EQ(cuts[COUNTER_STEPS_NAIVE], 2u * 2151);
    EXPECT_EQ(cuts[COUNTER_STEPS_SWITCH], 2u * 95);
}

TEST(A4xxMiddleEnd, RegisteredAndChecked) {
    register_builtin_middle_ends();
    const auto m = MiddleEndRegistry::global().find("a4xx");
    EXPECT_EQ(m->name(), "a4xx");
    const DrawDesc quads = parse_draw_text("prim quads\ncount 4\ngs passthrough_tri\n");
    EXPECT_THROW(gs_trace_with(quads, *m), Error);
    // Forcing the switch form on a shader that does not declare independence is refused.
    GeometryShader dep = find_gs("passthrough_tri");
    dep.independent_vertices = false;
    const DrawDesc d = parse_draw_text("prim triangles\ncount 3\n");
    const auto bound = bind_draw(d);
    DrawState state{bound->info, bound->input(), nullptr, &dep};
    const A4xxMiddleEnd sw(Mode::switch_rewrite);
    try {
        sw.prepare(state);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::unsupported);
    }
    const A4xxMiddleEnd automatic;
    const auto prepared = std::dynamic_pointer_cast<const A4xxGsDraw>(automatic.prepare(state));
    ASSERT_TRUE(prepared);
    EXPECT_EQ(prepared->mode(), Mode::naive);
}

// Without a GS the middle end draws as fetch_shade does.
TEST(A4xxMiddleEnd, NoGsPassesThrough) {
    std::mt19937 rng(7);
    for (int i = 0; i < 30; ++i) {
        const DrawDesc d =
            test::random_draw(rng, Prim(i % test::kPrimsWithoutTess), {.max_count = 40});
        A4xxMiddleEnd a;
        FetchShade f;
        EXPECT_EQ(gs_trace_with(d, a, 9), gs_trace_with(d, f, 9)) << format_draw_text(d);
    }
}

} // namespace
} // namespace drawpipe::a4xx
