// The Mesa adapter's stages (integrations/mesa/src/drawpipe_stages.cpp), without Mesa: vertices
// in Mesa's vertex_header layout come out clipped in the render's layout. Each of Mesa's six
// plane bits clips against its own plane; the render's attributes take the outputs they name
// (zeros for none); flat outputs keep the provoking vertex's value; Mesa's front_ccw culls the
// faces Mesa's cull stage does; polygon modes draw the edges Mesa's edge-flag bit and its
// unfilled stage draw, in Mesa's order; two-sided colour takes Mesa's colour pairs; a state
// drawpipe cannot take is refused.
#include "integrations/mesa/src/drawpipe_stages.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

// Mesa's struct vertex_header on x86-64: a dword of bit fields (the clip mask in its low 14
// bits), the clip-space position, then the outputs.
constexpr unsigned kClipPos = 4, kData = 20, kMaskBits = 14;
constexpr uint32_t kEdgeFlag = 1u << kMaskBits;             // the bit after the clip mask
constexpr unsigned kPoints = 0, kLines = 1, kTriangles = 4; // PIPE_PRIM_*

struct MesaVertex {
    uint32_t mask;
    float clip[4];
    std::vector<float> outputs; // 4 per output
};

// Two outputs: 0 the window position (as Mesa's viewport wrote it), 1 a colour.
constexpr unsigned kOutputs = 2;
// The llvm middle end sizes a vertex by the larger of the shader's inputs and outputs: here
// one slot more than the outputs, never read.
constexpr unsigned kVertexSize = kData + 16 * (kOutputs + 1);
constexpr float kScale[3] = {50, 50, 0.5f}, kTranslate[3] = {50, 50, 0.5f};

MesaVertex vertex(float x, float y, float z, float w, float colour, uint32_t mask) {
    MesaVertex v{mask, {x, y, z, w}, {}};
    v.outputs = {x / w * kScale[0] + kTranslate[0],
                 y / w * kScale[1] + kTranslate[1],
                 z / w * kScale[2] + kTranslate[2],
                 1 / w,
                 colour,
                 colour,
                 colour,
                 1};
    return v;
}

std::vector<unsigned char> pack(const std::vector<MesaVertex>& vs) {
    const unsigned size = kVertexSize;
    std::vector<unsigned char> out(vs.size() * size, 0xAB);
    for (size_t i = 0; i < vs.size(); ++i) {
        unsigned char* p = out.data() + i * size;
        std::memcpy(p, &vs[i].mask, 4);
        std::memcpy(p + kClipPos, vs[i].clip, 16);
        std::memcpy(p + kData, vs[i].outputs.data(), 16 * kOutputs);
    }
    return out;
}

struct MesaState {
    bool flat_colour = false, provoking_first = false, front_ccw = true;
    unsigned cull = 0;
    unsigned fill_front = 0, fill_back = 0; // PIPE_POLYGON_MODE_FILL, LINE, POINT
    bool line_stipple = false;
    unsigned stipple_factor = 1;
    uint16_t stipple_pattern = 0xFFFF;
    // The render's layout: the position, the colour, then an attribute of zeros.
    std::vector<unsigned> attribs = {0, 1, ~0u};
    // User clip planes; with clip_distance, gl_ClipDistance[0] is output 2's x (the slot
    // after the colour).
    unsigned clip_plane_enable = 0;
    float plane0[4] = {};
    bool clip_distance = false;
    bool clip_vertex = false; // gl_ClipVertex is output 2
    bool face = false;        // Mesa's injected front face, the slot after the outputs
};

dp_stages* create(const MesaState& s) {
    static bool flat[kOutputs + 1];
    flat[0] = false, flat[1] = s.flat_colour, flat[2] = false;
    dp_stages_state st{};
    st.vertex_size = kVertexSize;
    st.clip_pos_offset = kClipPos;
    st.data_offset = kData;
    st.clipmask_bits = kMaskBits;
    st.num_outputs = s.clip_distance || s.clip_vertex ? kOutputs + 1 : kOutputs;
    st.clipvertex_output = s.clip_vertex ? int(kOutputs) : -1;
    st.face_output = s.face ? int(st.num_outputs) : -1;
    st.clip_plane_enable = s.clip_plane_enable;
    std::memcpy(st.planes[0], s.plane0, sizeof s.plane0);
    st.num_clipdist = s.clip_distance ? 1 : 0;
    st.clipdist_output[0] = kOutputs;
    st.position_output = 0;
    st.flat_output = flat;
    st.provoking_first = s.provoking_first;
    st.cull_face = s.cull;
    st.front_ccw = s.front_ccw;
    st.clip_z = true;
    st.clip_halfz = false;
    st.fill_front = s.fill_front;
    st.fill_back = s.fill_back;
    st.edgeflag_bit = kMaskBits;
    st.line_stipple = s.line_stipple;
    st.stipple_factor = s.stipple_factor;
    st.stipple_pattern = s.stipple_pattern;
    std::memcpy(st.scale, kScale, sizeof kScale);
    std::memcpy(st.translate, kTranslate, sizeof kTranslate);
    st.num_attribs = unsigned(s.attribs.size());
    st.attrib_output = s.attribs.data();
    return dp_stages_create(&st, nullptr, 0);
}

// What the stages handed on: each primitive's kind and its vertices in the render's layout
// (`floats` per vertex), in draw order.
struct HandedPrim {
    unsigned prim;
    std::vector<float> verts;
};

// Every piece of `out`, in order (each at most 65535 vertices, as a vbuf takes them).
std::vector<HandedPrim> handed(const dp_staged* out, unsigned floats) {
    std::vector<HandedPrim> prims;
    for (unsigned piece = 0; piece < dp_staged_pieces(out); ++piece) {
        unsigned n = 0;
        const float* verts = nullptr;
        const uint16_t* e = nullptr;
        const unsigned *first = nullptr, *count = nullptr, *prim = nullptr;
        const unsigned ranges = dp_staged_piece(out, piece, &verts, &n, &e, &first, &count, &prim);
        EXPECT_LE(n, 65535u);
        for (unsigned r = 0; r < ranges; ++r) {
            const unsigned per = prim[r] == kTriangles ? 3 : prim[r] == kLines ? 2 : 1;
            EXPECT_EQ(count[r] % per, 0u);
            for (unsigned i = 0; i + per <= count[r]; i += per) {
                HandedPrim h{prim[r], {}};
                for (unsigned k = 0; k < per; ++k) {
                    const unsigned v = e[first[r] + i + k];
                    EXPECT_LT(v, n);
                    h.verts.insert(h.verts.end(), verts + floats * v, verts + floats * v + floats);
                }
                prims.push_back(h);
            }
        }
    }
    return prims;
}

std::vector<HandedPrim> run_prims(dp_stages* st, const std::vector<unsigned char>& packed,
                                  unsigned vertex_count, const std::vector<uint16_t>& elts,
                                  unsigned floats = 12, unsigned drawn = kTriangles) {
    dp_staged* out = dp_staged_create();
    EXPECT_TRUE(dp_stages_run(st, packed.data(), vertex_count, drawn, 3, elts.data(),
                              unsigned(elts.size()), out));
    std::vector<HandedPrim> prims = handed(out, floats);
    dp_staged_destroy(out);
    return prims;
}

// One triangle through the stages: the render-layout vertices of its triangles, 3 x 12 floats
// each.
std::vector<std::vector<float>> run(dp_stages* st, const std::vector<MesaVertex>& vs) {
    std::vector<std::vector<float>> tris;
    for (const HandedPrim& h : run_prims(st, pack(vs), unsigned(vs.size()), {0, 1, 2})) {
        EXPECT_EQ(h.prim, kTriangles);
        tris.push_back(h.verts);
    }
    return tris;
}

} // namespace

// Mesa's bit i names plane i of x <= w, x >= -w, y <= w, y >= -w, z >= -w, z <= w: a triangle
// with one vertex outside one plane, its bit set, comes out inside that plane, cut into two.
TEST(MesaStages, EachOfMesasPlaneBitsClipsAgainstItsPlane) {
    dp_stages* st = create({});
    ASSERT_NE(st, nullptr);
    struct Case {
        float out[4];
        int axis;    // the window coordinate the plane bounds
        float bound; // in window space
        bool upper;  // the plane bounds it from above
    };
    const Case cases[6] = {{{2, 0, 0, 1}, 0, 100, true}, {{-2, 0, 0, 1}, 0, 0, false},
                           {{0, 2, 0, 1}, 1, 100, true}, {{0, -2, 0, 1}, 1, 0, false},
                           {{0, 0, -2, 1}, 2, 0, false}, {{0, 0, 2, 1}, 2, 1, true}};
    for (uint32_t bit = 0; bit < 6; ++bit) {
        const Case& c = cases[bit];
        const std::vector<MesaVertex> vs = {
            vertex(-0.2f, -0.2f, 0.1f, 1, 0.25f, 0), vertex(0.2f, -0.1f, -0.1f, 1, 0.5f, 0),
            vertex(c.out[0], c.out[1], c.out[2], c.out[3], 1, 1u << bit)};
        // The outside vertex's third coordinate keeps the triangle's area in x and y.
        std::vector<MesaVertex> tri = vs;
        if (c.axis == 2) tri[2] = vertex(0.1f, 0.3f, c.out[2], 1, 1, 1u << bit);
        const auto tris = run(st, tri);
        ASSERT_EQ(tris.size(), 2u) << "bit " << bit;
        for (const auto& t : tris)
            for (int k = 0; k < 3; ++k) {
                const float coord = t[12 * k + c.axis];
                if (c.upper)
                    EXPECT_LE(coord, c.bound + 1e-4f) << "bit " << bit;
                else
                    EXPECT_GE(coord, c.bound - 1e-4f) << "bit " << bit;
                EXPECT_EQ(t[12 * k + 8], 0.0f); // the attribute of no output: zeros
                EXPECT_EQ(t[12 * k + 11], 0.0f);
            }
    }
    dp_stages_destroy(st);
}

// Mesa's bit 6 + i is user plane i: with legacy planes the distance is the plane's dot product
// with the clip-space position, with clip distances the shader's value, with gl_ClipVertex the
// dot product with it; a vertex outside an enabled plane is cut away there, and a bit of a
// plane not enabled is ignored.
TEST(MesaStages, UserPlanesClipAtThePlaneOrTheClipDistance) {
    const uint32_t user0 = 1u << 6, user1 = 1u << 7;
    {
        MesaState s;
        s.clip_plane_enable = 1;
        const float keep_right[4] = {1, 0, 0, 0}; // x >= 0 in clip space: window x >= 50
        std::memcpy(s.plane0, keep_right, sizeof keep_right);
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        const auto tris =
            run(st, {vertex(-0.5f, -0.5f, 0, 1, 0, user0), vertex(0.5f, -0.5f, 0, 1, 1, 0),
                     vertex(0.5f, 0.5f, 0, 1, 1, 0)});
        ASSERT_FALSE(tris.empty());
        bool on_plane = false;
        for (const auto& t : tris)
            for (int k = 0; k < 3; ++k) {
                EXPECT_GE(t[12 * k], 50 - 1e-4f);
                on_plane |= std::fabs(t[12 * k] - 50) < 1e-4f;
            }
        EXPECT_TRUE(on_plane);
        // Plane 1 is not enabled: its bit clips nothing.
        EXPECT_EQ(run(st, {vertex(-0.5f, -0.5f, 0, 1, 0, user1), vertex(0.5f, -0.5f, 0, 1, 1, 0),
                           vertex(0.5f, 0.5f, 0, 1, 1, 0)})
                      .size(),
                  1u);
        dp_stages_destroy(st);
    }
    {
        MesaState s;
        s.clip_plane_enable = 1;
        s.clip_distance = true;
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        // Distances -1, 1, 1: the cut is halfway along both edges from the first vertex,
        // where the colour (0 there, 1 at the others) is 0.5.
        std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0, user0),
                                      vertex(0.5f, -0.5f, 0, 1, 1, 0),
                                      vertex(0.5f, 0.5f, 0, 1, 1, 0)};
        std::vector<unsigned char> packed = pack(vs);
        const float dist[3] = {-1, 1, 1};
        for (int v = 0; v < 3; ++v)
            std::memcpy(packed.data() + v * kVertexSize + kData + 16 * kOutputs, &dist[v], 4);
        int halfway = 0;
        for (const HandedPrim& h : run_prims(st, packed, 3, {0, 1, 2})) {
            for (int k = 0; k < 3; ++k) {
                EXPECT_GE(h.verts[12 * k + 4], 0.5f - 1e-6f); // nothing of the cut-off corner
                halfway += std::fabs(h.verts[12 * k + 4] - 0.5f) < 1e-6f;
            }
        }
        EXPECT_GE(halfway, 2);
        dp_stages_destroy(st);
    }
    {
        // gl_ClipVertex: the plane measures output 2, not the position. Every position is
        // right of x = 0; the clip vertex's x is -1 at the first vertex, 1 at the others: the
        // same cut as the clip distance's above.
        MesaState s;
        s.clip_plane_enable = 1;
        const float keep_right[4] = {1, 0, 0, 0};
        std::memcpy(s.plane0, keep_right, sizeof keep_right);
        s.clip_vertex = true;
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        std::vector<unsigned char> packed =
            pack({vertex(0.1f, -0.5f, 0, 1, 0, user0), vertex(0.5f, -0.5f, 0, 1, 1, 0),
                  vertex(0.5f, 0.5f, 0, 1, 1, 0)});
        for (int v = 0; v < 3; ++v) {
            const float cv[4] = {v == 0 ? -1.0f : 1.0f, 0, 0, 1};
            std::memcpy(packed.data() + v * kVertexSize + kData + 16 * kOutputs, cv, 16);
        }
        int halfway = 0;
        for (const HandedPrim& h : run_prims(st, packed, 3, {0, 1, 2}))
            for (int k = 0; k < 3; ++k) {
                EXPECT_GE(h.verts[12 * k + 4], 0.5f - 1e-6f);
                halfway += std::fabs(h.verts[12 * k + 4] - 0.5f) < 1e-6f;
            }
        EXPECT_GE(halfway, 2);
        dp_stages_destroy(st);
    }
    MesaState past;
    past.clip_plane_enable = 2; // plane 1, the shader writes one distance
    past.clip_distance = true;
    EXPECT_EQ(create(past), nullptr);
}

// A vertex clipping makes takes the colour between its ends, or, for a flat colour, the
// provoking vertex's (the first or the last of the triangle).
TEST(MesaStages, NewVerticesInterpolateOrTakeTheProvokingFlatValue) {
    const std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0.25f, 0),
                                        vertex(0.5f, -0.5f, 0, 1, 0.5f, 0),
                                        vertex(0, 3, 0, 1, 1, 1u << 2)}; // above y = w
    for (const bool first : {false, true}) {
        MesaState s;
        s.flat_colour = true;
        s.provoking_first = first;
        dp_stages* st = create(s);
        const auto tris = run(st, vs);
        ASSERT_EQ(tris.size(), 2u);
        const float want = first ? 0.25f : 1.0f;
        // Every triangle's provoking vertex (first or last) carries the provoking colour.
        for (const auto& t : tris) EXPECT_EQ(t[12 * (first ? 0 : 2) + 4], want);
        dp_stages_destroy(st);
    }
    dp_stages* st = create({});
    bool between = false;
    for (const auto& t : run(st, vs))
        for (int k = 0; k < 3; ++k) {
            const float c = t[12 * k + 4];
            between |= c > 0.25f && c < 1.0f && c != 0.5f;
        }
    EXPECT_TRUE(between);
    dp_stages_destroy(st);
}

// Mesa's front_ccw: counter-clockwise in its window space (y down the picture, det < 0) is
// front; culling back faces keeps a triangle exactly when Mesa's cull stage does.
TEST(MesaStages, CullFollowsMesasFrontCcw) {
    // Window-space det of (v0 - v2) x (v1 - v2): this triangle has det > 0.
    const std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0.25f, 0),
                                        vertex(0.5f, -0.5f, 0, 1, 0.5f, 0),
                                        vertex(0, 3, 0, 1, 1, 1u << 2)};
    for (const bool front_ccw : {false, true})
        for (const unsigned cull : {1u, 2u, 3u}) {
            MesaState s;
            s.front_ccw = front_ccw;
            s.cull = cull;
            dp_stages* st = create(s);
            // det > 0 is clockwise to Mesa: front unless front_ccw.
            const bool front = !front_ccw;
            const bool kept = cull == 3 ? false : cull == 1 ? !front : front;
            EXPECT_EQ(run(st, vs).size(), kept ? 2u : 0u) << front_ccw << " " << cull;
            dp_stages_destroy(st);
        }
}

TEST(MesaStages, RefusesWhatItCannotTake) {
    char why[128] = "";
    dp_stages_state st{};
    st.num_outputs = 40; // past drawpipe's 32 varyings and the position
    EXPECT_EQ(dp_stages_create(&st, why, sizeof why), nullptr);
    EXPECT_STRNE(why, "");
    st.num_outputs = 2;
    st.position_output = 2;
    EXPECT_EQ(dp_stages_create(&st, why, sizeof why), nullptr);
}

// Only the vertices the kept primitives use are handed on: a triangle outside x <= w goes, and
// its own vertices with it; the triangle inside keeps its three.
TEST(MesaStages, OnlyTheVerticesOfKeptPrimitivesAreHandedOn) {
    dp_stages* st = create({});
    const std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0.25f, 0),
                                        vertex(0.5f, -0.5f, 0, 1, 0.5f, 0),
                                        vertex(0, 0.5f, 0, 1, 1, 0),
                                        vertex(2, 0, 0, 1, 0, 1),
                                        vertex(3, 0, 0, 1, 0, 1),
                                        vertex(2, 1, 0, 1, 0, 1)};
    const std::vector<unsigned char> packed = pack(vs);
    const uint16_t elts[6] = {3, 4, 5, 0, 1, 2};
    dp_staged* out = dp_staged_create();
    ASSERT_TRUE(dp_stages_run(st, packed.data(), 6, 4, 3, elts, 6, out));
    ASSERT_EQ(dp_staged_pieces(out), 1u);
    unsigned n = 0;
    const float* v = nullptr;
    const uint16_t* e = nullptr;
    const unsigned *first = nullptr, *count = nullptr, *prim = nullptr;
    ASSERT_EQ(dp_staged_piece(out, 0, &v, &n, &e, &first, &count, &prim), 1u);
    EXPECT_EQ(n, 3u);
    ASSERT_EQ(count[0], 3u);
    EXPECT_EQ(prim[0], kTriangles);
    // In first use: the inside triangle's vertices 0, 1, 2 with their colours.
    for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(v[12 * e[first[0] + k] + 4], vs[k].outputs[4]);
    dp_staged_destroy(out);
    dp_stages_destroy(st);
}

// Polygon mode line: a triangle's edges v2-v0, v0-v1, v1-v2 (Mesa's unfilled stage's order),
// each drawn only when the vertex it starts from has Mesa's edge-flag bit set. Point mode: the
// vertices whose edge flag is set.
TEST(MesaStages, UnfilledDrawsTheEdgesMesasEdgeFlagBitsKeep) {
    // Inside, clockwise to Mesa (det > 0): front unless front_ccw; colours 0.25, 0.5, 1.
    std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0.25f, kEdgeFlag),
                                  vertex(0.5f, -0.5f, 0, 1, 0.5f, kEdgeFlag),
                                  vertex(0, 0.5f, 0, 1, 1, kEdgeFlag)};
    auto colours = [](const HandedPrim& h) {
        std::vector<float> c;
        for (size_t k = 0; k < h.verts.size(); k += 12) c.push_back(h.verts[k + 4]);
        return c;
    };
    for (const unsigned off : {~0u, 0u, 1u, 2u}) { // the vertex whose edge flag is clear
        for (unsigned k = 0; k < 3; ++k) vs[k].mask = k == off ? 0 : kEdgeFlag;
        MesaState s;
        s.front_ccw = false; // the triangle is front
        s.fill_front = 1;    // line
        s.fill_back = 0;
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        const auto prims = run_prims(st, pack(vs), 3, {0, 1, 2});
        std::vector<std::vector<float>> want;
        const float c[3] = {0.25f, 0.5f, 1};
        for (const unsigned from : {2u, 0u, 1u})
            if (from != off) want.push_back({c[from], c[(from + 1) % 3]});
        ASSERT_EQ(prims.size(), want.size()) << "edge flag off on " << off;
        for (size_t i = 0; i < prims.size(); ++i) {
            EXPECT_EQ(prims[i].prim, kLines);
            EXPECT_EQ(colours(prims[i]), want[i]) << "line " << i << ", flag off on " << off;
        }
        dp_stages_destroy(st);

        s.fill_front = 2; // point
        st = create(s);
        std::vector<std::vector<float>> points;
        for (unsigned k = 0; k < 3; ++k)
            if (k != off) points.push_back({c[k]});
        const auto pts = run_prims(st, pack(vs), 3, {0, 1, 2});
        ASSERT_EQ(pts.size(), points.size());
        for (size_t i = 0; i < pts.size(); ++i) {
            EXPECT_EQ(pts[i].prim, kPoints);
            EXPECT_EQ(colours(pts[i]), points[i]);
        }
        dp_stages_destroy(st);
    }
}

// Mesa's unfilled stage injects the front face for the fragment shader into the slot after the
// outputs (1 front, 0 back, all four components); the render's attribute naming that slot gets
// it on every line and point, each triangle its own though they share their vertices.
TEST(MesaStages, UnfilledGivesTheFragmentShaderEachTrianglesFace) {
    const std::vector<MesaVertex> vs = {vertex(-0.5f, -0.5f, 0, 1, 0.25f, kEdgeFlag),
                                        vertex(0.5f, -0.5f, 0, 1, 0.5f, kEdgeFlag),
                                        vertex(0, 0.5f, 0, 1, 1, kEdgeFlag)};
    for (const unsigned mode : {1u, 2u}) { // line, point
        MesaState s;
        s.front_ccw = false; // 0 1 2 is front, 0 2 1 back
        s.fill_front = s.fill_back = mode;
        s.face = true;
        s.attribs = {0, 1, kOutputs}; // the third attribute: the injected face
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        const auto prims = run_prims(st, pack(vs), 3, {0, 1, 2, 0, 2, 1});
        const size_t per = 3; // three lines or three points a triangle
        ASSERT_EQ(prims.size(), 2 * per);
        for (size_t i = 0; i < prims.size(); ++i)
            for (size_t k = 0; k < prims[i].verts.size(); k += 12)
                for (unsigned c = 0; c < 4; ++c)
                    EXPECT_EQ(prims[i].verts[k + 8 + c], i < per ? 1.0f : 0.0f)
                        << "mode " << mode << ", primitive " << i;
        dp_stages_destroy(st);
    }
}

// Front faces in line mode and back faces in point mode: one draw's lines and points come back
// as ranges in draw order, all drawn from one set of vertices.
TEST(MesaStages, MixedPolygonModesKeepDrawOrderAcrossRanges) {
    std::vector<MesaVertex> vs;
    std::vector<uint16_t> elts;
    // Alternate clockwise (front: front_ccw false) and counter-clockwise triangles.
    for (unsigned t = 0; t < 4; ++t) {
        const float x = -0.9f + 0.4f * float(t), colour = float(t + 1);
        const uint16_t b = uint16_t(vs.size());
        vs.push_back(vertex(x, -0.5f, 0, 1, colour, kEdgeFlag));
        vs.push_back(vertex(x + 0.3f, -0.5f, 0, 1, colour, kEdgeFlag));
        vs.push_back(vertex(x, 0.5f, 0, 1, colour, kEdgeFlag));
        if (t % 2)
            elts.insert(elts.end(), {b, uint16_t(b + 2), uint16_t(b + 1)});
        else
            elts.insert(elts.end(), {b, uint16_t(b + 1), uint16_t(b + 2)});
    }
    MesaState s;
    s.front_ccw = false;
    s.fill_front = 1;
    s.fill_back = 2;
    dp_stages* st = create(s);
    const auto prims = run_prims(st, pack(vs), unsigned(vs.size()), elts);
    // Three lines of triangle 0, three points of 1, three lines of 2, three points of 3.
    ASSERT_EQ(prims.size(), 12u);
    for (size_t i = 0; i < prims.size(); ++i) {
        const unsigned t = unsigned(i / 3);
        EXPECT_EQ(prims[i].prim, t % 2 ? kPoints : kLines) << i;
        EXPECT_EQ(prims[i].verts[4], float(t + 1)) << i;
    }
    dp_stages_destroy(st);
}

// Two-sided colour with Mesa's output numbering: outputs 0 front colour, 1 the position, 2 the
// back colour (drawpipe's varyings skip the position). A back face takes the back colour, a
// front face keeps the front one; the render's layout is the position and the colour.
TEST(MesaStages, TwoSidedColourTakesMesasBackColourOutput) {
    constexpr unsigned outputs = 3, size = kData + 16 * outputs;
    auto packed = [&](bool clockwise) {
        const float xy[3][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0, 0.5f}};
        std::vector<unsigned char> out(3 * size, 0);
        for (unsigned i = 0; i < 3; ++i) {
            const unsigned k = clockwise ? i : (3 - i) % 3;
            const float clip[4] = {xy[k][0], xy[k][1], 0, 1};
            const float front[4] = {0.25f, 0.25f, 0.25f, 1}, back[4] = {0.75f, 0.75f, 0.75f, 1};
            const float win[4] = {xy[k][0] * kScale[0] + kTranslate[0],
                                  xy[k][1] * kScale[1] + kTranslate[1], kTranslate[2], 1};
            unsigned char* p = out.data() + i * size;
            std::memcpy(p, &kEdgeFlag, 4);
            std::memcpy(p + kClipPos, clip, 16);
            std::memcpy(p + kData, front, 16);
            std::memcpy(p + kData + 16, win, 16);
            std::memcpy(p + kData + 32, back, 16);
        }
        return out;
    };
    static const bool flat[outputs] = {false, false, false};
    const unsigned attribs[2] = {1, 0};
    dp_stages_state st{};
    st.vertex_size = size;
    st.clip_pos_offset = kClipPos;
    st.data_offset = kData;
    st.clipmask_bits = kMaskBits;
    st.num_outputs = outputs;
    st.position_output = 1;
    st.flat_output = flat;
    st.front_ccw = false; // clockwise to Mesa is front
    st.clip_z = true;
    st.fill_front = 1; // line: Mesa runs two-sided colour only with its pipeline
    st.fill_back = 1;
    st.edgeflag_bit = kMaskBits;
    st.light_twoside = true;
    st.clipvertex_output = st.face_output = -1;
    st.twoside_front[0] = 0, st.twoside_back[0] = 2;
    st.twoside_front[1] = -1, st.twoside_back[1] = -1;
    std::memcpy(st.scale, kScale, sizeof kScale);
    std::memcpy(st.translate, kTranslate, sizeof kTranslate);
    st.num_attribs = 2;
    st.attrib_output = attribs;
    dp_stages* stages = dp_stages_create(&st, nullptr, 0);
    ASSERT_NE(stages, nullptr);
    for (const bool clockwise : {true, false}) {
        const auto prims = run_prims(stages, packed(clockwise), 3, {0, 1, 2}, 8);
        ASSERT_EQ(prims.size(), 3u);
        for (const HandedPrim& h : prims) {
            EXPECT_EQ(h.prim, kLines);
            for (size_t k = 0; k < h.verts.size(); k += 8)
                EXPECT_EQ(h.verts[k + 4], clockwise ? 0.25f : 0.75f) << clockwise;
        }
    }
    dp_stages_destroy(stages);
    // A pair naming the position is refused.
    st.twoside_back[0] = 1;
    char why[128] = "";
    EXPECT_EQ(dp_stages_create(&st, why, sizeof why), nullptr);
    EXPECT_STRNE(why, "");
}

// Line stipple where every primitive restarts the pattern (triangles in polygon mode line):
// each edge comes back as its dashes; a line strip, whose pattern runs on from segment to
// segment in Mesa, is refused by dp_stages_run (dp_stages_run_in_order takes it, below).
TEST(MesaStages, LineStippleDashesEdgesAndRefusesStrips) {
    const std::vector<MesaVertex> vs = {vertex(-0.8f, -0.8f, 0, 1, 0.25f, kEdgeFlag),
                                        vertex(0.8f, -0.8f, 0, 1, 0.5f, kEdgeFlag),
                                        vertex(0, 0.8f, 0, 1, 1, kEdgeFlag)};
    MesaState s;
    s.front_ccw = false;
    s.fill_front = s.fill_back = 1;
    dp_stages* plain = create(s);
    s.line_stipple = true;
    s.stipple_factor = 2;
    s.stipple_pattern = 0x0F0F; // 8 pixels on, 8 off
    dp_stages* stippled = create(s);
    ASSERT_NE(plain, nullptr);
    ASSERT_NE(stippled, nullptr);
    const auto whole = run_prims(plain, pack(vs), 3, {0, 1, 2});
    const auto dashes = run_prims(stippled, pack(vs), 3, {0, 1, 2});
    ASSERT_EQ(whole.size(), 3u);
    EXPECT_GT(dashes.size(), 3 * 2u); // each edge is 50 pixels or more: several dashes
    for (const HandedPrim& h : dashes) EXPECT_EQ(h.prim, kLines);
    const std::vector<unsigned char> packed = pack(vs);
    const uint16_t strip[3] = {0, 1, 2};
    dp_staged* out = dp_staged_create();
    EXPECT_TRUE(dp_stages_run(plain, packed.data(), 3, 3 /* LINE_STRIP */, 0, strip, 3, out));
    EXPECT_FALSE(dp_stages_run(stippled, packed.data(), 3, 3, 0, strip, 3, out));
    EXPECT_FALSE(dp_stages_takes(stippled, 3));
    EXPECT_TRUE(dp_stages_takes(stippled, kTriangles));
    EXPECT_TRUE(dp_stages_takes(plain, 3));
    dp_staged_destroy(out);
    dp_stages_destroy(plain);
    dp_stages_destroy(stippled);
}

// A flat colour under line stipple: every dash takes the line's provoking colour (Mesa flattens
// before its stipple stage cuts the line), not one interpolated at the dash's ends.
TEST(MesaStages, StippledDashesKeepTheProvokingFlatColour) {
    const std::vector<MesaVertex> vs = {vertex(-0.8f, 0.1f, 0, 1, 0.25f, kEdgeFlag),
                                        vertex(0.8f, 0.1f, 0, 1, 1, kEdgeFlag)};
    for (const bool first : {false, true}) {
        MesaState s;
        s.flat_colour = true;
        s.provoking_first = first;
        s.line_stipple = true;
        s.stipple_pattern = 0x0F0F;
        dp_stages* st = create(s);
        ASSERT_NE(st, nullptr);
        const auto dashes = run_prims(st, pack(vs), 2, {0, 1}, 12, kLines);
        EXPECT_GT(dashes.size(), 3u);
        for (const HandedPrim& h : dashes)
            for (size_t k = 0; k < h.verts.size(); k += 12)
                EXPECT_EQ(h.verts[k + 4], first ? 0.25f : 1.0f) << "provoking first " << first;
        dp_stages_destroy(st);
    }
}

// A stippled line strip cut into segments, its segments through dp_stages_run_in_order in
// draw order: the pattern runs on from one segment to the next, so the dashes are exactly
// those of the whole strip in one segment; run apart (each segment's pattern from its start)
// they differ.
TEST(MesaStages, StippledStripSegmentsInOrderCarryThePattern) {
    std::vector<MesaVertex> vs;
    for (int i = 0; i < 9; ++i) // a zigzag of 8 lines, 30-100 pixels each
        vs.push_back(
            vertex(-0.9f + 0.2f * float(i), i % 2 ? 0.7f : -0.7f, 0, 1, 0.1f * float(i), 0));
    MesaState s;
    s.line_stipple = true;
    s.stipple_factor = 3;
    s.stipple_pattern = 0x00FF; // 24 pixels on, 24 off: cuts fall mid-dash
    const std::vector<unsigned char> packed = pack(vs);
    auto run = [&](bool in_order, std::vector<std::vector<uint16_t>> segments) {
        dp_stages* st = create(s);
        EXPECT_NE(st, nullptr);
        dp_staged* out = dp_staged_create();
        std::vector<HandedPrim> all;
        for (size_t k = 0; k < segments.size(); ++k) {
            const unsigned flags = (k > 0 ? 1u : 0u) | (k + 1 < segments.size() ? 2u : 0u);
            const auto& e = segments[k];
            const bool ok = in_order ? dp_stages_run_in_order(st, packed.data(), 9, 3, flags,
                                                              e.data(), unsigned(e.size()), out)
                                     : dp_stages_run(st, packed.data(), 9, 1 /* LINES */, 0,
                                                     e.data(), unsigned(e.size()), out);
            EXPECT_TRUE(ok);
            const auto prims = handed(out, 12);
            all.insert(all.end(), prims.begin(), prims.end());
        }
        dp_staged_destroy(out);
        dp_stages_destroy(st);
        return all;
    };
    const auto whole = run(true, {{0, 1, 2, 3, 4, 5, 6, 7, 8}});
    const auto cut = run(true, {{0, 1, 2, 3}, {3, 4, 5}, {5, 6, 7, 8}});
    ASSERT_GT(whole.size(), 8u);
    ASSERT_EQ(cut.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) EXPECT_EQ(cut[i].verts, whole[i].verts) << i;
    // Each line apart (separate lines restart the pattern): other dashes.
    const auto apart = run(false, {{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8}});
    bool differs = apart.size() != whole.size();
    for (size_t i = 0; !differs && i < whole.size(); ++i)
        differs = apart[i].verts != whole[i].verts;
    EXPECT_TRUE(differs);
}

// More vertices than a vbuf takes (u16 elements): the output comes in pieces of at most 65535
// vertices, cut between primitives, the primitives the same and in order.
TEST(MesaStages, OutputPastSixtyFiveThousandVerticesComesInPieces) {
    std::vector<MesaVertex> vs;
    std::vector<uint16_t> elts;
    for (int i = 0; i < 1200; ++i) { // 1200 lines of about 96 pixels, a dash every 2 pixels
        const float t = -0.9f + 1.8f * float(i) / 1200;
        vs.push_back(vertex(-0.95f, t, 0, 1, float(i), 0));
        vs.push_back(vertex(0.95f, -t, 0, 1, float(i), 0));
        elts.push_back(uint16_t(2 * i));
        elts.push_back(uint16_t(2 * i + 1));
    }
    MesaState s;
    s.line_stipple = true;
    s.stipple_factor = 1;
    s.stipple_pattern = 0x5555;
    dp_stages* st = create(s);
    ASSERT_NE(st, nullptr);
    dp_staged* out = dp_staged_create();
    const std::vector<unsigned char> packed = pack(vs);
    ASSERT_TRUE(dp_stages_run(st, packed.data(), unsigned(vs.size()), kLines, 0, elts.data(),
                              unsigned(elts.size()), out));
    EXPECT_GT(dp_staged_pieces(out), 1u);
    const auto pieces = handed(out, 12);
    // The same lines in batches of 100 (each under the limit: one piece each).
    std::vector<HandedPrim> batches;
    for (size_t b = 0; b < elts.size(); b += 200) {
        ASSERT_TRUE(dp_stages_run(st, packed.data(), unsigned(vs.size()), kLines, 0,
                                  elts.data() + b, 200, out));
        EXPECT_EQ(dp_staged_pieces(out), 1u);
        const auto h = handed(out, 12);
        batches.insert(batches.end(), h.begin(), h.end());
    }
    ASSERT_EQ(pieces.size(), batches.size());
    EXPECT_GT(pieces.size(), 32768u);
    for (size_t i = 0; i < pieces.size(); ++i) ASSERT_EQ(pieces[i].verts, batches[i].verts) << i;
    dp_staged_destroy(out);
    dp_stages_destroy(st);
}
