// The Mesa adapter's stages (integrations/mesa/src/drawpipe_stages.cpp), without Mesa: vertices
// in Mesa's vertex_header layout come out clipped in the render's layout. Each of Mesa's six
// plane bits clips against its own plane; the render's attributes take the outputs they name
// (zeros for none); flat outputs keep the provoking vertex's value; Mesa's front_ccw culls the
// faces Mesa's cull stage does; a state drawpipe cannot take is refused.
#include "integrations/mesa/src/drawpipe_stages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

// Mesa's struct vertex_header on x86-64: a dword of bit fields (the clip mask in its low 14
// bits), the clip-space position, then the outputs.
constexpr unsigned kClipPos = 4, kData = 20, kMaskBits = 14;

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
    // The render's layout: the position, the colour, then an attribute of zeros.
    std::vector<unsigned> attribs = {0, 1, ~0u};
};

dp_stages* create(const MesaState& s) {
    static bool flat[kOutputs];
    flat[0] = false, flat[1] = s.flat_colour;
    dp_stages_state st{};
    st.vertex_size = kVertexSize;
    st.clip_pos_offset = kClipPos;
    st.data_offset = kData;
    st.clipmask_bits = kMaskBits;
    st.num_outputs = kOutputs;
    st.position_output = 0;
    st.flat_output = flat;
    st.provoking_first = s.provoking_first;
    st.cull_face = s.cull;
    st.front_ccw = s.front_ccw;
    st.clip_z = true;
    st.clip_halfz = false;
    std::memcpy(st.scale, kScale, sizeof kScale);
    std::memcpy(st.translate, kTranslate, sizeof kTranslate);
    st.num_attribs = unsigned(s.attribs.size());
    st.attrib_output = s.attribs.data();
    return dp_stages_create(&st, nullptr, 0);
}

// One triangle (PIPE_PRIM_TRIANGLES = 4) through the stages: the render-layout vertices of its
// triangles, 3 x 12 floats each.
std::vector<std::vector<float>> run(dp_stages* st, const std::vector<MesaVertex>& vs) {
    const std::vector<unsigned char> packed = pack(vs);
    dp_staged* out = dp_staged_create();
    const uint16_t elts[3] = {0, 1, 2};
    EXPECT_TRUE(dp_stages_run(st, packed.data(), unsigned(vs.size()), 4, 3, elts, 3, out));
    unsigned n = 0;
    const float* verts = dp_staged_vertices(out, &n);
    std::vector<std::vector<float>> tris;
    for (unsigned r = 0; r < dp_staged_range_count(out); ++r) {
        unsigned prim = 0, count = 0;
        const uint16_t* e = dp_staged_range(out, r, &prim, &count);
        EXPECT_EQ(prim, 4u);
        for (unsigned i = 0; i + 2 < count; i += 3) {
            std::vector<float> t;
            for (unsigned k = 0; k < 3; ++k) {
                EXPECT_LT(e[i + k], n);
                t.insert(t.end(), verts + 12 * e[i + k], verts + 12 * e[i + k] + 12);
            }
            tris.push_back(t);
        }
    }
    dp_staged_destroy(out);
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
    unsigned n = 0;
    const float* v = dp_staged_vertices(out, &n);
    EXPECT_EQ(n, 3u);
    ASSERT_EQ(dp_staged_range_count(out), 1u);
    unsigned prim = 0, count = 0;
    const uint16_t* e = dp_staged_range(out, 0, &prim, &count);
    ASSERT_EQ(count, 3u);
    // In first use: the inside triangle's vertices 0, 1, 2 with their colours.
    for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(v[12 * e[k] + 4], vs[k].outputs[4]);
    dp_staged_destroy(out);
    dp_stages_destroy(st);
}
