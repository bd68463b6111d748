// A colour written by the vertex shader reaches the backend through every middle end, with
// and without the library's colour geometry shaders, at every limit: equal to fetch_shade's
// trace and, for a hand-checked draw, to what OpenGL writes (tests/mesa compares the rest).
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "support/gs_trace_util.hpp"
#include "support/random_draw.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace drawpipe;

namespace {

TEST(Varyings, HandCheckedColours) {
    register_builtin_middle_ends();
    // color = (id / 2, instance + 0.25, -id, 1); color_swizzle_lines reverses it.
    const DrawDesc tri = parse_draw_text("prim triangles\ncount 3\ninstances 2\nvs color\n");
    const DrawDesc lines =
        parse_draw_text("prim lines\ncount 2\nvs color\ngs color_swizzle_lines\n");
    for (const auto& e : MiddleEndRegistry::global().entries()) {
        EXPECT_EQ(test::gs_trace_with(tri, *e.middle),
                  "tri 0/0[0,0.25,-0,1] 1/0[0.5,0.25,-1,1] 2/0[1,0.25,-2,1]\n"
                  "tri 0/1[0,1.25,-0,1] 1/1[0.5,1.25,-1,1] 2/1[1,1.25,-2,1]\n")
            << e.name;
        if (e.name == "mali") continue; // no geometry shaders
        EXPECT_EQ(test::gs_trace_with(lines, *e.middle), "line 0[1,-0,0.25,0] 1[1,-1,0.25,0.5]\n")
            << e.name;
    }
}

TEST(Varyings, EveryMiddleEndCarriesTheColour) {
    register_builtin_middle_ends();
    std::mt19937 rng(1414);
    const struct {
        const char* gs;
        std::vector<Prim> prims;
    } cases[] = {
        {"", {Prim::triangles, Prim::triangle_strip, Prim::line_loop, Prim::points, Prim::quads}},
        {"color_tri", {Prim::triangles, Prim::triangle_strip, Prim::triangle_fan}},
        {"color_swizzle_lines", {Prim::lines, Prim::line_strip, Prim::line_loop}},
    };
    const auto entries = MiddleEndRegistry::global().entries();
    int compared = 0;
    for (const auto& c : cases)
        for (const Prim prim : c.prims)
            for (int n = 0; n < 6; ++n) {
                DrawDesc d = test::random_draw(rng, prim, {.max_count = 60});
                d.vs = "color";
                d.gs = c.gs;
                const std::string expected = test::gs_trace_with(d, *entries[0].middle);
                ASSERT_EQ(entries[0].name, "fetch_shade");
                for (const auto& e : entries) {
                    if (!d.gs.empty() && e.name == "mali") continue;
                    for (const uint32_t limit : {0u, 6u, 9u}) {
                        ASSERT_EQ(test::gs_trace_with(d, *e.middle, limit), expected)
                            << e.name << ", limit " << limit << "\n"
                            << format_draw_text(d);
                        ++compared;
                    }
                }
            }
    EXPECT_GT(compared, 300);
}

} // namespace
