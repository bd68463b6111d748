// The Mesa adapter's stream output (integrations/mesa/src/drawpipe_so.cpp), without Mesa:
// vertices in Mesa's vertex_header layout are captured into Mesa's targets as Mesa's so_emit
// captures them: each output from its register and components (the position from the
// pre-viewport position), at its dword in its buffer, from the target's fill on, which moves
// on by whole vertices of the buffers written; a primitive that does not fit every buffer is
// counted, not written; a missing target writes nothing; the generated count without a
// capture takes primitives as drawn. States drawpipe refuses are refused.
#include "integrations/mesa/src/drawpipe_so.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

// Mesa's struct vertex_header on x86-64: a dword of bit fields, the clip-space position, then
// the outputs (vec4 registers).
constexpr unsigned kClipPos = 4, kData = 20, kRegisters = 3;
constexpr unsigned kVertexSize = kData + 16 * kRegisters;
constexpr unsigned kPoints = 0, kTriangles = 4, kTriangleStrip = 5, kQuads = 7,
                   kPolygon = 9; // PIPE_PRIM_*
constexpr unsigned kSplitBefore = 1;

// Vertex v: clip position (100v, 100v + 1, 100v + 2, 100v + 3), register r component c
// 1000 (r + 1) + 10 v + c; register 0 is the position as Mesa's viewport wrote it.
std::vector<float> records(unsigned n) {
    std::vector<float> out(n * kVertexSize / 4, -1.0f);
    for (unsigned v = 0; v < n; ++v) {
        float* p = out.data() + v * kVertexSize / 4;
        std::memset(p, 0, 4);
        for (unsigned c = 0; c < 4; ++c) p[kClipPos / 4 + c] = 100.0f * v + c;
        for (unsigned r = 0; r < kRegisters; ++r)
            for (unsigned c = 0; c < 4; ++c)
                p[kData / 4 + 4 * r + c] = 1000.0f * (r + 1) + 10.0f * v + c;
    }
    return out;
}

struct Capture {
    std::vector<dp_so_output> outputs;
    std::vector<float> buffers[4];
    dp_so_state state{};
    dp_so* so = dp_so_create();
    ~Capture() { dp_so_destroy(so); }

    // Buffer b: `floats` floats, `stride` dwords a vertex; bound at float `offset`.
    void bind(unsigned b, unsigned floats, unsigned stride, unsigned offset = 0) {
        buffers[b].assign(offset + floats, -7.0f);
        state.stride[b] = stride;
        state.targets[b] = {buffers[b].data(), 4 * size_t(offset), 4 * size_t(floats)};
    }
    bool set() {
        state.vertex_size = kVertexSize;
        state.clip_pos_offset = kClipPos;
        state.data_offset = kData;
        state.num_registers = kRegisters;
        state.position_output = 0;
        state.num_outputs = unsigned(outputs.size());
        state.outputs = outputs.data();
        char why[128];
        return dp_so_set(so, &state, why, sizeof why);
    }
};

// One segment as the adapter's draw-order path captures it: a session begun at the fills, the
// segment reserved and written, the fills moved to its end. False as dp_so_begin.
bool capture(dp_so* so, const std::vector<float>& verts, unsigned prim, unsigned flags,
             const uint16_t* elts, unsigned count, unsigned fill[4], unsigned* generated,
             unsigned* written) {
    if (!dp_so_begin(so, fill)) return false;
    dp_so_slot slot;
    dp_so_reserve(so, prim, flags, count, &slot);
    const bool ok = dp_so_write_slot(so, &slot, verts.data(),
                                     unsigned(verts.size() * 4 / kVertexSize), prim, elts, count);
    dp_so_end(so);
    for (unsigned b = 0; b < 4; ++b) fill[b] = unsigned(slot.end[b]);
    *generated = slot.generated;
    *written = slot.written;
    return ok;
}

TEST(MesaSo, OutputsLandWhereMesaPutsThemFromTheFillOn) {
    Capture c;
    // Buffer 0, 6 dwords a vertex: the position's y and z (from the clip position) at dword
    // 0, register 2's w at dword 5; buffer 1, 2 dwords: register 1's x and y.
    c.outputs = {{0, 1, 2, 0, 0, 0}, {2, 3, 1, 0, 5, 0}, {1, 0, 2, 1, 0, 0}};
    c.bind(0, 4 * 6, 6, 2);
    c.bind(1, 4 * 2, 2);
    ASSERT_TRUE(c.set());
    const std::vector<float> verts = records(4);
    const uint16_t elts[] = {3, 1, 2};
    unsigned fill[4] = {24, 0, 0, 0}, gen = 0, written = 0; // buffer 0 holds one vertex already
    ASSERT_TRUE(capture(c.so, verts, kTriangles, 0, elts, 3, fill, &gen, &written));
    EXPECT_EQ(gen, 1u);
    EXPECT_EQ(written, 1u);
    EXPECT_EQ(fill[0], 24u + 3 * 24);
    EXPECT_EQ(fill[1], 3u * 8);
    const float* b0 = c.buffers[0].data() + 2; // the bound offset
    for (unsigned i = 0; i < 3; ++i) {
        const float v = elts[i];
        const float* at = b0 + 6 * (i + 1);
        EXPECT_EQ(at[0], 100 * v + 1) << i; // pre-viewport, not register 0
        EXPECT_EQ(at[1], 100 * v + 2) << i;
        EXPECT_EQ(at[2], -7.0f) << i; // a gap no output writes
        EXPECT_EQ(at[5], 3000 + 10 * v + 3) << i;
        EXPECT_EQ(c.buffers[1][2 * i], 2000 + 10 * v) << i;
        EXPECT_EQ(c.buffers[1][2 * i + 1], 2000 + 10 * v + 1) << i;
    }
    EXPECT_EQ(b0[0], -7.0f); // below the fill: untouched
    EXPECT_EQ(c.buffers[0][0], -7.0f);
}

TEST(MesaSo, APrimitiveThatDoesNotFitIsCountedNotWritten) {
    Capture c;
    c.outputs = {{1, 0, 4, 0, 0, 0}};
    c.bind(0, 4 * 7, 4); // room for 7 vertices: two triangles
    ASSERT_TRUE(c.set());
    const std::vector<float> verts = records(9);
    unsigned fill[4] = {}, gen = 0, written = 0;
    ASSERT_TRUE(capture(c.so, verts, kTriangles, 0, nullptr, 9, fill, &gen, &written));
    EXPECT_EQ(gen, 3u);
    EXPECT_EQ(written, 2u);
    EXPECT_EQ(fill[0], 6u * 16);
    EXPECT_EQ(c.buffers[0][4 * 5], 2000.0f + 50);
    EXPECT_EQ(c.buffers[0][4 * 6], -7.0f); // the third triangle's first vertex would go here
    // The next segment finds the target full for triangles, not for points.
    ASSERT_TRUE(capture(c.so, verts, kTriangles, 0, nullptr, 3, fill, &gen, &written));
    EXPECT_EQ(gen, 1u);
    EXPECT_EQ(written, 0u);
    ASSERT_TRUE(capture(c.so, verts, kPoints, 0, nullptr, 2, fill, &gen, &written));
    EXPECT_EQ(gen, 2u);
    EXPECT_EQ(written, 1u);
    EXPECT_EQ(fill[0], 7u * 16);
    // A fill past the target's size is not drawpipe's to guess: the caller's path takes it.
    unsigned past[4] = {8 * 16, 0, 0, 0};
    EXPECT_FALSE(capture(c.so, verts, kPoints, 0, nullptr, 1, past, &gen, &written));
}

TEST(MesaSo, AMissingTargetWritesNothingButCounts) {
    Capture c;
    c.outputs = {{1, 0, 1, 0, 0, 0}, {2, 0, 1, 1, 0, 0}};
    c.bind(0, 64, 1);
    c.state.stride[1] = 1; // buffer 1 declared, no target bound
    ASSERT_TRUE(c.set());
    const std::vector<float> verts = records(4);
    unsigned fill[4] = {}, gen = 0, written = 0;
    ASSERT_TRUE(capture(c.so, verts, kQuads, 0, nullptr, 4, fill, &gen, &written));
    EXPECT_EQ(gen, 2u); // a captured quad is two triangles
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(fill[0], 0u);
    EXPECT_EQ(c.buffers[0][0], -7.0f);
}

TEST(MesaSo, ProvokingConventionOrdersStripTriangles) {
    // Mesa's so_emit decomposes with the rasterizer's convention: the strip's second triangle
    // is written in a different vertex order under each.
    std::vector<float> got[2];
    for (int first = 0; first < 2; ++first) {
        Capture c;
        c.outputs = {{1, 0, 1, 0, 0, 0}};
        c.bind(0, 6, 1);
        c.state.provoking_first = first;
        ASSERT_TRUE(c.set());
        const std::vector<float> verts = records(4);
        unsigned fill[4] = {}, gen = 0, written = 0;
        ASSERT_TRUE(capture(c.so, verts, kTriangleStrip, 0, nullptr, 4, fill, &gen, &written));
        EXPECT_EQ(written, 2u);
        for (float f : c.buffers[0]) got[first].push_back((f - 2000) / 10);
    }
    EXPECT_EQ(got[0], (std::vector<float>{0, 1, 2, 2, 1, 3})); // last vertex provokes
    EXPECT_EQ(got[1], (std::vector<float>{0, 1, 2, 1, 3, 2})); // first vertex provokes
}

TEST(MesaSo, ANewTargetIsTakenAndBadStatesRefused) {
    Capture c;
    c.outputs = {{1, 0, 4, 0, 0, 0}};
    c.bind(0, 8, 4);
    ASSERT_TRUE(c.set());
    const std::vector<float> verts = records(2);
    unsigned fill[4] = {}, gen = 0, written = 0;
    ASSERT_TRUE(capture(c.so, verts, kPoints, 0, nullptr, 1, fill, &gen, &written));
    c.bind(0, 8, 4); // new memory: the same state otherwise
    ASSERT_TRUE(c.set());
    fill[0] = 0;
    ASSERT_TRUE(capture(c.so, verts, kPoints, 0, nullptr, 1, fill, &gen, &written));
    EXPECT_EQ(c.buffers[0][0], 2000.0f);

    char why[128] = "";
    Capture bad;
    bad.outputs = {{kRegisters, 0, 4, 0, 0, 0}}; // no such register
    bad.bind(0, 8, 4);
    EXPECT_FALSE(bad.set());
    bad.outputs = {{1, 0, 4, 0, 0, 1}}; // a second vertex stream
    EXPECT_FALSE(bad.set());
    bad.outputs = {{1, 0, 4, 0, 2, 0}}; // past the stride: drawpipe's own check
    EXPECT_FALSE(bad.set());
    EXPECT_FALSE(dp_so_set(bad.so, &bad.state, why, sizeof why));
    EXPECT_NE(std::string(why).find("stride"), std::string::npos) << why;
    EXPECT_FALSE(capture(bad.so, verts, kPoints, 0, nullptr, 1, fill, &gen, &written));
}

TEST(MesaSo, SegmentsReservedInOrderMayBeWrittenInAnyOrder) {
    // Three strip segments of one draw (the adapter's windows): reserved in draw order, written
    // last first, they give the bytes and fills of capturing them one after another.
    const std::vector<float> verts = records(12);
    const uint16_t elts[3][5] = {{0, 1, 2, 3, 4}, {3, 4, 5, 6, 7}, {6, 7, 8, 9, 10}};
    std::vector<float> got[2];
    unsigned fills[2][4] = {}, counts[2][2] = {};
    for (int reversed = 0; reversed < 2; ++reversed) {
        Capture c;
        c.outputs = {{1, 0, 2, 0, 0, 0}, {0, 0, 4, 1, 0, 0}};
        c.bind(0, 2 * 20, 2);
        c.bind(1, 4 * 20, 4);
        ASSERT_TRUE(c.set());
        unsigned fill[4] = {8, 16, 0, 0};
        if (!reversed) {
            for (const auto& e : elts) {
                unsigned gen, written;
                ASSERT_TRUE(capture(c.so, verts, kTriangleStrip, 0, e, 5, fill, &gen, &written));
                counts[0][0] += gen, counts[0][1] += written;
            }
        } else {
            ASSERT_TRUE(dp_so_begin(c.so, fill));
            dp_so_slot slot[3];
            for (int i = 0; i < 3; ++i) {
                dp_so_reserve(c.so, kTriangleStrip, 0, 5, &slot[i]);
                counts[1][0] += slot[i].generated, counts[1][1] += slot[i].written;
            }
            for (int i = 2; i >= 0; --i)
                ASSERT_TRUE(
                    dp_so_write_slot(c.so, &slot[i], verts.data(), 12, kTriangleStrip, elts[i], 5));
            dp_so_end(c.so);
            for (unsigned b = 0; b < 4; ++b) fill[b] = unsigned(slot[2].end[b]);
        }
        std::memcpy(fills[reversed], fill, sizeof fill);
        got[reversed] = c.buffers[0];
        got[reversed].insert(got[reversed].end(), c.buffers[1].begin(), c.buffers[1].end());
    }
    EXPECT_EQ(counts[0][0], 9u);
    EXPECT_EQ(counts[0][1], 6u); // buffer 0 holds 19 vertices past its fill: 6 triangles
    EXPECT_EQ(counts[1][0], counts[0][0]);
    EXPECT_EQ(counts[1][1], counts[0][1]);
    EXPECT_EQ(got[1], got[0]);
    for (unsigned b = 0; b < 4; ++b) EXPECT_EQ(fills[1][b], fills[0][b]) << b;
}

TEST(MesaSo, GeneratedWithoutACaptureCountsAsDrawn) {
    EXPECT_EQ(dp_so_prims_drawn(kQuads, 8, 0), 2u);
    EXPECT_EQ(dp_so_prims_drawn(kTriangleStrip, 5, 0), 3u);
    EXPECT_EQ(dp_so_prims_drawn(kPolygon, 5, 0), 1u);
    EXPECT_EQ(dp_so_prims_drawn(kPolygon, 5, kSplitBefore), 0u); // a piece of one polygon
}

} // namespace
