// Primitive assembly ahead of the stages: the edge flags and stipple resets a split draw hands the
// stages are the unsplit draw's, interior edges are never flagged, and quad strips take the
// order llvmpipe draws them in.
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "support/stage_scene.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::test;

// Edge flags and stipple resets come only from SplitFlags and each primitive's place in its
// run: a split draw hands the stages exactly the unsplit draw's primitives and flags.
TEST(Stages, AssemblyIsTheUnsplitDrawsAtEveryLimitStrategyAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(15);
    const Strategy strategies[] = {Strategy{}, *Strategy::parse("vsplit"),
                                   *Strategy::parse("exact"), *Strategy::parse("none")};
    for (int p = 0; p < kPrimsWithoutTess; ++p)
        for (int iter = 0; iter < 6; ++iter) {
            const Scene s = random_scene(rng, Prim(p), 12);
            Recorder whole;
            draw_scene(s, {}, &whole);
            for (uint32_t limit = min_segment_vertices(Prim(p)); limit <= 12; ++limit) {
                Recorder split;
                const DrawSetup setup{"fetch_shade", limit, strategies[rng() % 4],
                                      uint32_t(1 + rng() % 2)};
                draw_scene(s, setup, &split);
                ASSERT_EQ(split.log, whole.log)
                    << prim_name(Prim(p)) << " limit " << limit << " " << setup.strategy.name()
                    << " threads " << setup.threads;
            }
        }
}

// Polygons and quads show only their outline in polygon mode line: the decomposition's
// interior edges never carry an edge flag, however the draw is split.
TEST(Stages, InteriorEdgesOfQuadsAndPolygonsAreNeverFlagged) {
    std::mt19937 rng(3);
    for (const Prim prim : {Prim::quads, Prim::polygon, Prim::quad_strip})
        for (const Provoking pv : {Provoking::first, Provoking::last}) {
            Scene s = random_scene(rng, prim, 8);
            s.pv = pv;
            s.indices = {0, 1, 2, 3, 4, 5, 6, 7};
            std::fill(s.edge.begin(), s.edge.end(), 1.0f);
            Recorder rec;
            draw_scene(s, {"fetch_shade", 6, {}, 1}, &rec);
            // Count flagged edges: each GL primitive's boundary, once.
            uint32_t flagged = 0;
            for (const std::string& l : rec.log)
                flagged += uint32_t(__builtin_popcount(std::stoul(l.substr(l.find('f') + 1)) &
                                                       PRIM_EDGE_MASK)); // not the stipple bit
            const uint32_t want = prim == Prim::quads ? 8 : prim == Prim::polygon ? 8 : 3 * 4;
            EXPECT_EQ(flagged, want) << prim_name(prim);
        }
}

// Quad strips, as Mesa 22.3's llvmpipe draws them: a restart run with no vertex outside goes
// to llvmpipe whole, which draws each quad a, b, c, d as (a, b, d) then (c, a, d) (provoking
// first: (d, a, b) then (d, c, a)); a run with a vertex outside anywhere goes through the
// draw pipeline, which draws (c, a, d) then (a, b, d) (provoking first: (d, c, a) then
// (d, a, b)). The order shows where a twisted quad's two triangles overlap. The whole run
// decides, however the draw is split.
TEST(Stages, QuadStripRunsTakeTheDriversOrderUnlessAVertexOfTheRunIsOutside) {
    register_builtin_middle_ends();
    Scene strip = one_triangle();
    strip.prim = Prim::quad_strip;
    // a, b, c, d: (a, b, d) covers the lower right half of a square, (c, a, d) lies inside
    // it. Then a second quad c, d, e, f with e outside the view (x > w).
    strip.positions = {-0.75f, -0.75f, 0, 1, 0.75f, -0.75f, 0, 1, 0.25f,  -0.5f, 0, 1,
                       0.75f,  0.75f,  0, 1, 2.0f,  0.875f, 0, 1, 0.875f, 1.0f,  0, 1};
    strip.colors = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1};
    strip.edge = std::vector<float>(6, 1.0f);
    struct Case {
        std::vector<uint32_t> strip;
        std::vector<uint32_t> last, first; // the triangles drawn, provoking last / first
    };
    const Case cases[] = {
        // Nothing outside: the driver's order.
        {{0, 1, 2, 3}, {0, 1, 3, 2, 0, 3}, {3, 0, 1, 3, 2, 0}},
        // A vertex outside in the run's second quad: the pipeline's order for both quads.
        {{0, 1, 2, 3, 4, 5},
         {2, 0, 3, 0, 1, 3, 4, 2, 5, 2, 3, 5},
         {3, 2, 0, 3, 0, 1, 5, 4, 2, 5, 2, 3}},
        // The same quads in two runs: only the second run has a vertex outside.
        {{0, 1, 2, 3, kRestart, 2, 3, 4, 5},
         {0, 1, 3, 2, 0, 3, 4, 2, 5, 2, 3, 5},
         {3, 0, 1, 3, 2, 0, 5, 4, 2, 5, 2, 3}},
    };
    for (const Case& c : cases)
        for (const Provoking pv : {Provoking::last, Provoking::first})
            for (const bool staged : {false, true}) {
                Scene s = strip;
                s.pv = pv;
                s.indices = c.strip;
                // Through drawpipe's stages (an offset stage that moves nothing), which
                // llvmpipe does itself for filled triangles: the order does not change.
                s.raster.offset_fill = staged;
                Scene tris = s;
                tris.prim = Prim::triangles;
                tris.indices = pv == Provoking::last ? c.last : c.first;
                const auto want = pixels(draw_scene(tris));
                for (const uint32_t limit : {0u, 6u, 7u, 8u})
                    for (const char* strategy : {"vsplit", "distinct"})
                        EXPECT_EQ(pixels(draw_scene(s,
                                                    {"fetch_shade", limit,
                                                     *Strategy::parse(strategy), limit % 2 + 1},
                                                    nullptr)),
                                  want)
                            << c.strip.size() << " indices, provoking "
                            << (pv == Provoking::last ? "last" : "first") << ", limit " << limit
                            << " " << strategy << (staged ? ", through the stages" : "");
            }
}
