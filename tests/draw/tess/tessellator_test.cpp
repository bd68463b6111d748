// drawpipe::tessellate against llvmpipe's tessellator over the whole level grid
// (tests/data/tess_golden.txt, recorded by tests/mesa/mesa_tess), and the properties every
// tessellation has whatever the levels: winding, point mode, indices, culling, clamping.
#include "drawpipe/tessellator.hpp"
#include "mesa/tess_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace drawpipe;
using tess_grid::Combo;
using tess_grid::Levels;

namespace {

TessState state_of(const Combo& c) {
    return {TessMode(c.mode), TessSpacing(c.spacing), TessWinding(c.winding), c.point_mode};
}

TessLevels levels_of(const Levels& l) {
    TessLevels t;
    t.outer = l.outer;
    t.inner = l.inner;
    return t;
}

uint32_t vertices_per_prim(const TessDomain& d) {
    return d.prim == Prim::points ? 1 : d.prim == Prim::lines ? 2 : 3;
}

std::string dump(const TessDomain& d) {
    std::string s;
    const uint32_t per = vertices_per_prim(d);
    char buf[128];
    for (size_t k = 0; k < d.elements.size(); ++k) {
        const auto& p = d.coords[d.elements[k]];
        std::snprintf(buf, sizeof buf, "%s(%.9g,%.9g,%.9g)%s", k % per ? " " : "", double(p[0]),
                      double(p[1]), double(p[2]), (k + 1) % per ? "" : "\n");
        s += buf;
    }
    return s;
}

std::string mesa_command(const Combo& c, const Levels& l) {
    std::string s = std::string("mesa_tess dump ") + tess_grid::kModes[c.mode] + " " +
                    tess_grid::kSpacings[c.spacing] + " " + tess_grid::kWindings[c.winding] +
                    (c.point_mode ? " 1" : " 0");
    char buf[32];
    for (float v : l.outer) std::snprintf(buf, sizeof buf, " %.9g", double(v)), s += buf;
    for (float v : l.inner) std::snprintf(buf, sizeof buf, " %.9g", double(v)), s += buf;
    return s;
}

TEST(Tessellator, EqualsLlvmpipeOverTheLevelGrid) {
    std::ifstream in(std::string(DRAWPIPE_TEST_DATA) + "/tess_golden.txt");
    ASSERT_TRUE(in) << "tests/data/tess_golden.txt missing";
    std::string line;
    TessDomain dom;
    size_t checked = 0, differ = 0;
    for (const Combo& c : tess_grid::combos()) {
        const std::vector<Levels> cases = tess_grid::cases(c);
        do {
            ASSERT_TRUE(std::getline(in, line))
                << "golden file ends before " << tess_grid::combo_name(c);
        } while (line.empty() || line[0] == '#');
        ASSERT_EQ(line, "combo " + tess_grid::combo_name(c) + ": " + std::to_string(cases.size()))
            << "the golden file is for another grid: regenerate it (docs/tessellation.md)";
        for (const Levels& l : cases) {
            ASSERT_TRUE(std::getline(in, line));
            std::istringstream words(line);
            size_t want_prims = 0;
            std::string want_hash;
            words >> want_prims >> want_hash;
            tessellate(state_of(c), levels_of(l), dom);
            tess_grid::Digest d;
            for (uint32_t e : dom.elements)
                for (float f : dom.coords[e]) d.add(f);
            char hash[17];
            std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(d.h));
            const size_t prims = dom.elements.size() / vertices_per_prim(dom);
            ++checked;
            if (prims != want_prims || want_hash != hash) {
                if (std::getenv("TESS_ALL_MISMATCHES")) // lists them all, for debugging
                    std::printf("mismatch: %s %s\n", tess_grid::combo_name(c).c_str(),
                                tess_grid::levels_text(l).c_str());
                if (differ++ == 0)
                    ADD_FAILURE() << "first mismatch: " << tess_grid::combo_name(c) << " "
                                  << tess_grid::levels_text(l) << "\nllvmpipe: " << want_prims
                                  << " primitives, digest " << want_hash << "\ndrawpipe: " << prims
                                  << " primitives, digest " << hash
                                  << "\n(llvmpipe's own: " << mesa_command(c, l)
                                  << ")\ndrawpipe's:\n"
                                  << dump(dom);
            }
        }
    }
    EXPECT_EQ(differ, 0u) << "of " << checked << " cases";
    EXPECT_GT(checked, 50000u);
}

// Every grid case of every combination, with a callback per tessellation.
template <class F> void for_each_grid_case(F&& f) {
    TessDomain dom;
    for (const Combo& c : tess_grid::combos())
        for (const Levels& l : tess_grid::cases(c)) {
            const bool drawn = tessellate(state_of(c), levels_of(l), dom);
            f(c, l, drawn, dom);
        }
}

TEST(Tessellator, IndicesInRangeAndCoordinatesInTheDomain) {
    for_each_grid_case([](const Combo& c, const Levels& l, bool drawn, const TessDomain& d) {
        const Prim want = c.point_mode ? Prim::points : c.mode == 2 ? Prim::lines : Prim::triangles;
        ASSERT_EQ(d.prim, want);
        ASSERT_EQ(drawn, !d.elements.empty()) << tess_grid::levels_text(l);
        ASSERT_EQ(d.elements.size() % vertices_per_prim(d), 0u);
        for (uint32_t e : d.elements) ASSERT_LT(e, d.coords.size()) << tess_grid::levels_text(l);
        for (const auto& p : d.coords) {
            ASSERT_GE(p[0], 0.0f);
            ASSERT_LE(p[0], 1.0f);
            ASSERT_GE(p[1], 0.0f);
            ASSERT_LE(p[1], 1.0f);
            if (c.mode == 0)
                ASSERT_EQ(p[2], 1.0f - p[0] - p[1]);
            else
                ASSERT_EQ(p[2], 0.0f);
        }
    });
}

TEST(Tessellator, CwIsCcwWithTheLastTwoVerticesSwapped) {
    TessDomain cw;
    for_each_grid_case([&](const Combo& c, const Levels& l, bool, const TessDomain& ccw) {
        if (c.winding != 0) return;
        TessState s = state_of(c);
        s.winding = TessWinding::cw;
        tessellate(s, levels_of(l), cw);
        ASSERT_EQ(cw.coords, ccw.coords);
        ASSERT_EQ(cw.elements.size(), ccw.elements.size());
        if (c.mode == 2 || c.point_mode) { // no triangles: winding changes nothing
            ASSERT_EQ(cw.elements, ccw.elements);
            return;
        }
        for (size_t t = 0; t < ccw.elements.size(); t += 3) {
            ASSERT_EQ(cw.elements[t], ccw.elements[t]);
            ASSERT_EQ(cw.elements[t + 1], ccw.elements[t + 2]);
            ASSERT_EQ(cw.elements[t + 2], ccw.elements[t + 1]);
        }
    });
}

TEST(Tessellator, PointModeEmitsEveryDomainPointOnceInOrder) {
    TessDomain prims;
    for_each_grid_case([&](const Combo& c, const Levels& l, bool, const TessDomain& points) {
        if (!c.point_mode) return;
        ASSERT_EQ(points.elements.size(), points.coords.size());
        for (size_t i = 0; i < points.elements.size(); ++i) ASSERT_EQ(points.elements[i], i);
        // The same points as the primitives use, every one of them used.
        TessState s = state_of(c);
        s.point_mode = false;
        tessellate(s, levels_of(l), prims);
        ASSERT_EQ(prims.coords, points.coords) << tess_grid::levels_text(l);
        std::vector<bool> used(prims.coords.size());
        for (uint32_t e : prims.elements) used[e] = true;
        for (size_t i = 0; i < used.size(); ++i)
            ASSERT_TRUE(used[i]) << "point " << i << " unused: " << tess_grid::levels_text(l);
    });
}

// Triangles (ccw) form a consistently oriented triangulation of the domain: every triangle
// counter-clockwise in (u, v) or degenerate, three distinct points, no directed edge twice,
// and an edge without its reverse only on the domain's border.
TEST(Tessellator, TrianglesTileTheDomainCounterClockwise) {
    for_each_grid_case([](const Combo& c, const Levels& l, bool drawn, const TessDomain& d) {
        if (c.mode == 2 || c.point_mode || c.winding != 0 || !drawn) return;
        std::vector<uint64_t> edges; // (from << 32) | to
        for (size_t t = 0; t < d.elements.size(); t += 3) {
            const uint32_t v[3] = {d.elements[t], d.elements[t + 1], d.elements[t + 2]};
            ASSERT_TRUE(v[0] != v[1] && v[1] != v[2] && v[0] != v[2]);
            const auto &p = d.coords[v[0]], &q = d.coords[v[1]], &r = d.coords[v[2]];
            const double area = double(q[0] - p[0]) * double(r[1] - p[1]) -
                                double(q[1] - p[1]) * double(r[0] - p[0]);
            ASSERT_GE(area, 0.0) << "triangle " << t / 3 << ": " << tess_grid::levels_text(l);
            for (int k = 0; k < 3; ++k) edges.push_back(uint64_t(v[k]) << 32 | v[(k + 1) % 3]);
        }
        std::sort(edges.begin(), edges.end());
        ASSERT_EQ(std::adjacent_find(edges.begin(), edges.end()), edges.end())
            << "directed edge twice: " << tess_grid::levels_text(l);
        auto on_border = [&](const std::array<float, 3>& x) {
            return c.mode == 0 ? x[0] == 0 || x[1] == 0 || x[2] == 0
                               : x[0] == 0 || x[1] == 0 || x[0] == 1 || x[1] == 1;
        };
        for (const uint64_t e : edges) {
            const uint32_t a = uint32_t(e >> 32), b = uint32_t(e);
            if (std::binary_search(edges.begin(), edges.end(), uint64_t(b) << 32 | a)) continue;
            ASSERT_TRUE(on_border(d.coords[a]) && on_border(d.coords[b]))
                << "open edge inside the domain: " << tess_grid::levels_text(l);
        }
    });
}

TEST(Tessellator, OuterLevelsTheModeUsesCullAtZeroNegativeOrNaN) {
    const float culling[] = {0.0f, -0.0f, -1.0f, -tess_grid::kInf, tess_grid::kNaN, 1e-40f};
    TessDomain d;
    for (int m = 0; m < 3; ++m) {
        const int used = m == 0 ? 3 : m == 1 ? 4 : 2;
        for (int e = 0; e < 4; ++e)
            for (float bad : culling) {
                TessLevels l;
                l.outer = {3, 3, 3, 3};
                l.outer[size_t(e)] = bad;
                const bool drawn = tessellate({TessMode(m)}, l, d);
                EXPECT_EQ(drawn, e >= used) << "mode " << m << " edge " << e << " level " << bad;
                EXPECT_EQ(d.elements.empty(), !drawn);
                EXPECT_EQ(d.coords.empty(), !drawn);
            }
    }
}

TEST(Tessellator, LevelsAboveTheMaximumClamp) {
    TessDomain a, b;
    for (int m = 0; m < 3; ++m)
        for (int s = 0; s < 3; ++s) {
            const float top = s == 2 ? 63.0f : 64.0f;
            TessLevels at_top, above;
            at_top.outer = {m == 2 ? 64.0f : top, top, top, top}; // 64 lines whatever the spacing
            at_top.inner = {top, top};
            for (float v : {70.0f, 1e9f, tess_grid::kInf}) {
                above.outer = {v, v, v, v};
                above.inner = {v, v};
                tessellate({TessMode(m), TessSpacing(s)}, at_top, a);
                tessellate({TessMode(m), TessSpacing(s)}, above, b);
                EXPECT_EQ(a.coords, b.coords) << m << " " << s << " " << v;
                EXPECT_EQ(a.elements, b.elements);
            }
        }
}

// The fixed-point coordinates: thirds are 21845 / 65536, not the nearest float to 1/3.
TEST(Tessellator, CoordinatesAreSixteenDotSixteenFixedPoint) {
    TessDomain d;
    TessLevels l;
    l.outer = {1, 3, 0, 0}; // one isoline, three segments
    ASSERT_TRUE(tessellate({TessMode::isolines}, l, d));
    ASSERT_EQ(d.coords.size(), 4u);
    EXPECT_EQ(d.coords[1][0], 21845.0f / 65536.0f);
    EXPECT_EQ(d.coords[1][0], 0.333328247f);
    EXPECT_EQ(d.coords[2][0], 1.0f - 21845.0f / 65536.0f);
    EXPECT_EQ(d.elements, (std::vector<uint32_t>{0, 1, 1, 2, 2, 3}));
    // The triangle's centre at even inner levels: (1/3, 1/3) in fixed point, w in float.
    l.outer = {2, 2, 2, 0};
    l.inner = {2, 0};
    ASSERT_TRUE(tessellate({TessMode::triangles}, l, d));
    const auto& centre = d.coords.back();
    EXPECT_EQ(centre[0], 0.333328247f);
    EXPECT_EQ(centre[2], 1.0f - centre[0] - centre[1]);
}

TEST(Tessellator, ReusesTheOutputWithoutReallocating) {
    TessDomain d;
    TessLevels big;
    big.outer = {64, 64, 64, 64};
    big.inner = {64, 64};
    ASSERT_TRUE(tessellate({TessMode::quads}, big, d));
    EXPECT_EQ(d.coords.size(), kMaxTessPoints);
    EXPECT_EQ(d.elements.size(), kMaxTessElements);
    const auto* coords = d.coords.data();
    const auto* elements = d.elements.data();
    // A quad at 64 is the largest patch of every mode.
    for (const Combo& c : tess_grid::combos())
        for (const Levels& l : tess_grid::cases(c)) {
            tessellate(state_of(c), levels_of(l), d);
            ASSERT_EQ(d.coords.data(), coords);
            ASSERT_EQ(d.elements.data(), elements);
        }
}

} // namespace
