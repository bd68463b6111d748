// The stage chain as a whole: the picture is the draw's at every limit, strategy, middle end
// and thread count, and a raster state outside GL's domain is an Error.
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "support/stage_scene.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

using namespace drawpipe;
using namespace drawpipe::test;

// The picture is the draw's, not the split's: every limit, strategy, middle end and thread
// count renders the same pixels, with clipping, culling and flat shading in play.
TEST(Stages, ImageIsTheSameForEveryLimitStrategyMiddleEndAndThreadCount) {
    register_builtin_middle_ends();
    std::mt19937 rng(21);
    const char* middles[] = {"fetch_shade", "fetch_shade_simd", "a4xx", "gen7", "mali"};
    for (int p = 0; p < kPrimsWithoutTess; ++p)
        for (int iter = 0; iter < 3; ++iter) {
            Scene s = random_scene(rng, Prim(p), 14);
            for (size_t v = 0; v < s.positions.size(); v += 4)
                if (rng() % 4 == 0) s.positions[v] *= 3; // some outside: clipped
            s.raster.flatshade = rng() % 2;
            s.raster.cull = rng() % 3 ? CullFace::none : CullFace::back;
            const auto want = pixels(draw_scene(s));
            for (int k = 0; k < 6; ++k) {
                const DrawSetup setup{
                    middles[rng() % 5], uint32_t(min_segment_vertices(Prim(p)) + rng() % 6),
                    *Strategy::parse(rng() % 2 ? "vsplit" : "distinct"), uint32_t(1 + rng() % 2)};
                ASSERT_EQ(pixels(draw_scene(s, setup, nullptr)), want)
                    << prim_name(Prim(p)) << " " << setup.middle << " limit " << setup.limit;
            }
        }
}

// A raster state outside GL's domain is an Error(invalid_value) naming the field, never a
// picture drawn from it.
TEST(Stages, BadRasterStatesAreClearErrors) {
    const Scene good = one_triangle();
    ASSERT_NO_THROW(draw_scene(good));
    auto error_of = [&](auto&& spoil) -> std::string {
        Scene s = good;
        spoil(s.raster);
        try {
            draw_scene(s);
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::invalid_value);
            return e.what();
        }
        return "no error";
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto names = [&](const std::string& field, auto&& spoil) {
        EXPECT_NE(error_of(spoil).find(field), std::string::npos) << field;
    };
    names("viewport", [](RasterState& r) { r.viewport.width = -1; });
    names("viewport", [&](RasterState& r) { r.viewport.height = nan; });
    names("line_width", [&](RasterState& r) { r.line_width = nan; });
    names("line_width", [](RasterState& r) { r.line_width = 0; });
    names("point_size", [](RasterState& r) { r.point_size = -1; });
    names("stipple_factor", [](RasterState& r) { r.stipple_factor = 0; });
    names("stipple_factor", [](RasterState& r) { r.stipple_factor = 257; });
    names("clip_plane_enable", [](RasterState& r) { r.clip_plane_enable = 1u << 8; });
    names("edge_flag_varying", [](RasterState& r) { r.edge_flag_varying = 3; });
    names("clip_vertex_varying", [](RasterState& r) { r.clip_vertex_varying = 3; });
    names("front_face_varying", [](RasterState& r) { r.front_face_varying = 3; });
    names("sprite_coord_varying", [](RasterState& r) { r.sprite_coord_varying = 7; });
    names("front_face", [](RasterState& r) { r.front_face = FrontFace(2); });
    names("cull", [](RasterState& r) { r.cull = CullFace(9); });
    names("front_mode", [](RasterState& r) { r.front_mode = PolygonMode(3); });
    names("back_mode", [](RasterState& r) { r.back_mode = PolygonMode(200); });
    names("offset_units_r", [](RasterState& r) { r.offset_units_r = -1; });
    names("offset_units_r", [](RasterState& r) { r.offset_units_r = INFINITY; });
    names("offset_units_r", [&](RasterState& r) { r.offset_units_r = nan; });
    names("offset_clamp", [&](RasterState& r) { r.offset_clamp = nan; });
}
