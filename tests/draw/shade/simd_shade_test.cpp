// The vectorised path (drawpipe/extend/simd_shade.hpp, middle end fetch_shade_simd) against the
// scalar reference (shade_vertices / shade_segment, middle end fetch_shade), byte for byte,
// on every SIMD target this CPU runs: random vertex input of every format, stride, offset,
// divisor and buffer size (elements crossing the buffer end, vertex ids far past it), with
// and without a vertex shader, block-size edge counts, linear and listed segments with
// fetch_bias; then whole draws of every primitive through draw_serial and a threaded Context.
#include "draw/shade/raster_plan.hpp"
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "drawpipe/registry.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/draw_text.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

// Every Format value the library accepts (validate_vertex_input), so formats added later
// are covered without touching this test.
std::vector<Format> every_format() {
    std::vector<Format> formats;
    for (uint32_t f = 0; f < 256; ++f) {
        const VertexBuffer b{};
        const VertexAttrib a{0, 0, Format(f), 0};
        try {
            validate_vertex_input({{&b, 1}, {&a, 1}});
        } catch (const Error&) {
            break;
        }
        formats.push_back(Format(f));
    }
    return formats;
}

// Runs `body` once per SIMD target compiled in and supported here, then restores the choice.
template <class F> void for_each_target(F&& body) {
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(std::string("target ") + hwy::TargetName(target) + " (" +
                     std::string(simd_target()) + ")");
        body();
    }
    hwy::SetSupportedTargetsForTest(0);
}

// Outputs of every kind: varyings of each value type, point size, clip distances, layer and
// viewport index.
ShaderOutputs every_output(uint32_t varyings, uint32_t clips) {
    ShaderOutputs o;
    for (uint32_t i = 0; i < varyings; ++i)
        o.add_varying({ValueType(i % 3), Interp(i % 3), uint8_t(1 + i % 4)});
    o.point_size = varyings % 2 == 1;
    o.clip_distances = clips;
    o.layer = clips % 2 == 1;
    o.viewport_index = varyings % 3 == 2;
    return o;
}

// Writes every other output from the inputs (as floats, and as raw bits), the vertex id and
// the instance; leaves the rest at their presets. Reads only lanes [0, count).
void mixing_shader(const ShaderBlock& b) {
    for (uint32_t d = 0; d < b.out_count; ++d) {
        if (d % 5 == 3) continue; // keeps its preset
        for (uint32_t l = 0; l < b.count; ++l) {
            const float x = b.in_count ? b.in[d % b.in_count][l] : 0.0f;
            if (d % 3 == 1) {
                uint32_t bits;
                std::memcpy(&bits, &x, 4);
                bits ^= b.vertex_id[l] * 2654435761u + b.instance_id[l];
                std::memcpy(&b.out[d][l], &bits, 4);
            } else {
                b.out[d][l] = x * 1.5f + float(b.vertex_id[l]) - 0.25f * float(b.instance_id[l]);
            }
        }
    }
}

// The bench's shader: position = M * attribute 0.
void matrix_shader(const ShaderBlock& b) {
    static constexpr float m[16] = {1.2f, 0, 0.1f, 0,     0, 1.6f, 0.2f, 0,
                                    0,    0, -1,   -0.2f, 0, 0,    -1,   1};
    for (int r = 0; r < 4; ++r)
        for (uint32_t l = 0; l < b.count; ++l)
            b.out[r][l] = m[4 * r] * b.in[0][l] + m[4 * r + 1] * b.in[1][l] +
                          m[4 * r + 2] * b.in[2][l] + m[4 * r + 3] * b.in[3][l];
}

struct Rng {
    std::mt19937 gen;
    explicit Rng(uint32_t seed) : gen(seed) {}
    uint32_t operator()(uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(gen);
    }
    bool chance(uint32_t one_in) { return (*this)(0, one_in - 1) == 0; }
};

// Random vertex input: up to 4 buffers of random bytes and up to kMaxAttribs attributes.
struct RandomInput {
    std::vector<std::vector<unsigned char>> memory;
    std::vector<VertexBuffer> buffers;
    std::vector<VertexAttrib> attribs;

    RandomInput(Rng& rng, const std::vector<Format>& formats) {
        const uint32_t nb = rng(1, 4);
        memory.resize(nb);
        for (uint32_t b = 0; b < nb; ++b) {
            static constexpr uint32_t kStrides[] = {0,  4,  12, 16,    16,         16,        7,
                                                    13, 20, 32, 65536, 0x7FFFFFFF, 0xFFFFFFFF};
            VertexBuffer buf;
            buf.stride = kStrides[rng(0, std::size(kStrides) - 1)];
            memory[b].resize(rng.chance(8) ? rng(0, 20) : rng(16, 3000));
            for (auto& c : memory[b]) c = uint8_t(rng(0, 255));
            buf.data = rng.chance(20) ? nullptr : memory[b].data();
            buf.size = memory[b].size();
            buf.offset = rng.chance(3) ? rng(0, 7) : rng.chance(10) ? rng(0, 4000) : 0;
            buffers.push_back(buf);
        }
        const uint32_t na = rng.chance(8) ? 0 : rng(1, kMaxAttribs);
        for (uint32_t a = 0; a < na; ++a) {
            VertexAttrib at;
            at.buffer = rng(0, nb - 1);
            at.offset = rng.chance(3) ? rng(0, 40) : rng.chance(20) ? rng(0, 5000) : 0;
            at.format = formats[rng(0, uint32_t(formats.size()) - 1)];
            at.divisor = rng.chance(3) ? rng(1, 3) : 0;
            // A disabled array reads its current value; its buffer index need not be bound.
            if (rng.chance(8)) {
                at.enabled = false;
                at.buffer = rng(0, 100);
                at.current_type = ValueType(rng(0, 2));
                for (uint32_t& c : at.current) c = rng(0, 0xFFFFFFFFu);
            }
            attribs.push_back(at);
        }
    }
    VertexInput input() const { return {buffers, attribs}; }
};

// Vertex ids: mostly near the buffers' elements, some far past them, some near 2^32.
uint32_t random_id(Rng& rng) {
    if (rng.chance(10)) return 0xFFFFFFFFu - rng(0, 40);
    if (rng.chance(10)) return rng(0, 0xFFFFFFFFu);
    return rng(0, 300);
}

std::string describe(const RandomInput& in, const DrawState& s) {
    std::string t = "vs " + std::to_string(s.vs != nullptr) + ", base_instance " +
                    std::to_string(s.draw.base_instance) + "\n";
    for (const VertexBuffer& b : in.buffers)
        t += "  buffer size " + std::to_string(b.size) + " stride " + std::to_string(b.stride) +
             " offset " + std::to_string(b.offset) + (b.data ? "" : " (null)") + "\n";
    for (const VertexAttrib& a : in.attribs)
        t += "  attrib buffer " + std::to_string(a.buffer) + " offset " + std::to_string(a.offset) +
             " format " + std::to_string(int(a.format)) + " divisor " + std::to_string(a.divisor) +
             (a.enabled ? "" : " disabled") + "\n";
    return t;
}

// The records and batches of both paths, for one random input and shader, over `rounds`
// random vertex lists and segments.
void compare_random(uint32_t seed, int rounds) {
    const std::vector<Format> formats = every_format();
    Rng rng(seed);
    RandomInput in(rng, formats);
    const uint32_t kind = rng(0, 3);
    const VertexShader mixing{every_output(rng(0, 6), rng(0, 8)), mixing_shader};
    const VertexShader matrix{{}, matrix_shader};
    DrawState state{};
    state.input = in.input();
    state.draw.base_instance = rng.chance(4) ? rng(0, 0xFFFFFFFFu) : rng(0, 5);
    state.vs = kind == 0 ? nullptr : kind == 1 || in.attribs.empty() ? &mixing : &matrix;
    SCOPED_TRACE(describe(in, state));
    const VertexLayout layout = vertex_layout_for(state);
    const SimdShade fast(state);
    ASSERT_EQ(fast.layout().stride(), layout.stride());
    const uint32_t stride = layout.stride();

    for (int round = 0; round < rounds; ++round) {
        // A vertex list of a block-edge or random length.
        static constexpr uint32_t kCounts[] = {1, kShaderLanes - 1, kShaderLanes, kShaderLanes + 1,
                                               2 * kShaderLanes + 3};
        const uint32_t n = rng.chance(2) ? kCounts[rng(0, 4)] : rng(0, 150);
        std::vector<uint32_t> ids(n);
        const bool run = rng.chance(2);
        const uint32_t first = random_id(rng);
        for (uint32_t i = 0; i < n; ++i) ids[i] = run ? first + i : random_id(rng);
        const uint32_t instance = rng(0, 7);
        std::vector<uint32_t> ref(size_t(n) * stride, 0xDEADBEEF), got(ref);
        shade_vertices(state, layout, ids.data(), n, instance, 3, ref.data());
        fast.shade_vertices(ids.data(), n, instance, 3, got.data());
        ASSERT_EQ(ref, got) << "shade_vertices, round " << round << ", " << n << " vertices";

        // A segment: linear or listed (with a bias), drawn linearly or through elements.
        Segment seg;
        seg.prim = Prim(rng(0, test::kPrimsWithoutTess - 1));
        seg.flags = uint8_t(rng(0, 3));
        seg.instance_first = rng(0, 4);
        seg.instance_count = rng(1, 3);
        seg.fetch_count = n;
        if (rng.chance(2)) {
            seg.fetch_start = first;
        } else {
            seg.fetch_elts = ids;
            seg.fetch_bias = rng.chance(2) ? 0 : rng.chance(2) ? rng(0, 50) : 0u - rng(0, 50);
        }
        std::vector<uint16_t> draw_elts;
        seg.draw_count = n == 0 ? 0 : rng(0, 3 * n);
        if (rng.chance(2)) {
            seg.draw_count = n;
        } else {
            for (uint32_t e = 0; e < seg.draw_count; ++e)
                draw_elts.push_back(uint16_t(rng(0, n - 1)));
            seg.draw_elts = draw_elts;
        }
        ShadedBatch a, b;
        // The fast path writes records it does not zero: stale dwords left in the batch's
        // storage by an earlier segment must all be overwritten.
        b.vertices.assign(size_t(3 * n + 8) * layout.stride(), 0xDEADBEEFu);
        b.elts.assign(3 * n + 8, 0xDEADBEEFu);
        b.clear();
        a.vertices.assign(3, 7); // batches already holding something
        b.vertices = a.vertices;
        a.vertex_count = b.vertex_count = 1;
        shade_segment(state, layout, seg, a);
        fast.shade_segment(seg, b);
        ASSERT_EQ(a.vertices, b.vertices) << "shade_segment, round " << round;
        ASSERT_EQ(a.vertex_count, b.vertex_count);
        ASSERT_EQ(a.elts, b.elts);
        ASSERT_EQ(a.prims.size(), b.prims.size());
        for (size_t p = 0; p < a.prims.size(); ++p) {
            EXPECT_EQ(a.prims[p].prim, b.prims[p].prim);
            EXPECT_EQ(a.prims[p].flags, b.prims[p].flags);
            EXPECT_EQ(a.prims[p].first, b.prims[p].first);
            EXPECT_EQ(a.prims[p].count, b.prims[p].count);
        }
    }
}

// The clip test and viewport transform fused into the kernel (SimdShade::shade_segment with a
// PostShadeStep) against post_shade over the reference's records: records, clip_or, masks and
// clip-space positions bit for bit, with user planes and clip distances enabled, vertices outside
// (and NaN).
void compare_post(uint32_t seed, uint32_t& inside, uint32_t& outside) {
    const std::vector<Format> formats = every_format();
    Rng rng(seed);
    RandomInput in(rng, formats);
    const uint32_t clips = rng(0, 8);
    const VertexShader mixing{every_output(rng(0, 6), clips), mixing_shader};
    const VertexShader matrix{{}, matrix_shader};
    DrawState state{};
    state.input = in.input();
    state.vs = rng.chance(3) || in.attribs.empty() ? &mixing : &matrix;
    SCOPED_TRACE(describe(in, state));
    const VertexLayout layout = vertex_layout_for(state);
    const SimdShade fast(state);
    RasterState rs;
    rs.viewport = {float(rng(0, 20)) - 10.5f, float(rng(0, 9)),  float(rng(1, 900)) + 0.25f,
                   float(rng(1, 700)),        rng(0, 3) * 0.25f, 1.0f - rng(0, 3) * 0.125f};
    rs.clip_plane_enable = rng(0, 255);
    for (auto& plane : rs.clip_planes)
        for (float& c : plane) c = (float(rng(0, 2000)) - 1000.0f) / 333.0f;
    const auto plan = plan_raster(rs, layout, false);
    for (int round = 0; round < 4; ++round) {
        static constexpr uint32_t kCounts[] = {1, kShaderLanes - 1, kShaderLanes, kShaderLanes + 1,
                                               2 * kShaderLanes + 3};
        const uint32_t n = rng.chance(2) ? kCounts[rng(0, 4)] : rng(1, 150);
        Segment seg;
        seg.prim = Prim::triangles;
        seg.instance_first = rng(0, 4);
        seg.fetch_count = seg.draw_count = n;
        std::vector<uint32_t> ids(n);
        const uint32_t first = random_id(rng);
        if (rng.chance(2)) {
            seg.fetch_start = first;
        } else {
            for (uint32_t& id : ids) id = random_id(rng);
            seg.fetch_elts = ids;
            seg.fetch_bias = rng.chance(2) ? 0 : rng(0, 50);
        }
        ShadedBatch a, b;
        ClipResults ac, bc;
        bc.clip_pos.assign(4 * n + 64, -7.0f); // stale storage must be overwritten
        bc.clip_mask.assign(n + 16, 0xBEEF);
        shade_segment(state, layout, seg, a);
        post_shade(*plan, a, ac);
        ASSERT_TRUE(fast.shade_segment(seg, b, *plan, bc));
        ASSERT_EQ(a.vertices.size(), b.vertices.size());
        for (size_t i = 0; i < a.vertices.size(); ++i)
            ASSERT_EQ(a.vertices[i], b.vertices[i])
                << "round " << round << ", " << n << " vertices: vertex " << i / layout.stride()
                << " dword " << i % layout.stride();
        ASSERT_EQ(a.elts, b.elts);
        ASSERT_EQ(ac.clip_or, bc.clip_or) << "round " << round;
        ++(ac.clip_or ? outside : inside);
        if (!ac.clip_or) continue;
        ASSERT_EQ(ac.clip_mask, bc.clip_mask) << "round " << round;
        ASSERT_EQ(ac.clip_pos.size(), bc.clip_pos.size());
        EXPECT_EQ(0, std::memcmp(ac.clip_pos.data(), bc.clip_pos.data(), 4 * ac.clip_pos.size()))
            << "round " << round;
    }
}

TEST(SimdShade, FusedClipTestAndViewportMatchPostShade) {
    uint32_t inside = 0, outside = 0;
    for_each_target([&] {
        for (uint32_t seed = 1; seed <= 200; ++seed) {
            SCOPED_TRACE("seed " + std::to_string(seed));
            compare_post(seed, inside, outside);
            if (testing::Test::HasFatalFailure()) return;
        }
    });
    // Both kinds of batch were compared.
    EXPECT_GT(inside, 20u);
    EXPECT_GT(outside, 20u);
}

// The kernel stores clip-space positions only from the first vertex outside on and shades
// the blocks before it again: wherever that vertex falls (first lane, mid-vector, mid-block,
// later blocks, the last vertex), the batch's clip positions and masks equal post_shade's.
TEST(SimdShade, ClipPositionsFromAnyFirstVertexOutside) {
    const uint32_t n = 3 * kShaderLanes + 5;
    std::vector<float> pos(4 * size_t(n));
    const VertexBuffer vb{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib at{0, 0, Format::float32x4, 0};
    DrawState state{};
    state.input = {{&vb, 1}, {&at, 1}};
    const VertexLayout layout = vertex_layout_for(state);
    RasterState rs;
    rs.viewport = {0, 0, 64, 64, 0, 1};
    const auto plan = plan_raster(rs, layout, false);
    uint32_t checked = 0;
    for_each_target([&] {
        const SimdShade fast(state);
        for (uint32_t outside = 0; outside < n; ++outside) {
            for (uint32_t v = 0; v < n; ++v) {
                const float t = float(v) / float(n); // inside: |x|, |y|, |z| < w
                const float p[4] = {t - 0.5f, 0.25f - t * 0.5f, t * 0.75f - 0.4f, 1.0f + t};
                std::memcpy(&pos[4 * size_t(v)], p, sizeof p);
            }
            pos[4 * size_t(outside)] = 3.0f + float(outside); // x > w: right of the view
            Segment seg;
            seg.prim = Prim::points;
            seg.fetch_count = seg.draw_count = n;
            ShadedBatch a, b;
            ClipResults ac, bc;
            shade_segment(state, layout, seg, a);
            post_shade(*plan, a, ac);
            bc.clip_pos.assign(4 * size_t(n) + 64, -7.0f); // stale storage must be overwritten
            bc.clip_mask.assign(n + 16, 0xBEEF);
            ASSERT_TRUE(fast.shade_segment(seg, b, *plan, bc));
            ASSERT_EQ(ac.clip_or, uint32_t(CLIP_RIGHT));
            ASSERT_EQ(bc.clip_or, ac.clip_or) << "vertex " << outside << " outside";
            ASSERT_EQ(ac.clip_mask, bc.clip_mask) << "vertex " << outside << " outside";
            ASSERT_EQ(ac.clip_pos.size(), bc.clip_pos.size());
            ASSERT_EQ(0,
                      std::memcmp(ac.clip_pos.data(), bc.clip_pos.data(), 4 * ac.clip_pos.size()))
                << "vertex " << outside << " outside";
            ASSERT_EQ(a.vertices, b.vertices) << "vertex " << outside << " outside";
            ++checked;
        }
    });
    EXPECT_GE(checked, n);
}

TEST(SimdShade, EveryFormatIsCovered) {
    const std::vector<Format> formats = every_format();
    ASSERT_GE(formats.size(), 13u);
    EXPECT_EQ(formats.front(), Format::float32x1);
}

TEST(SimdShade, RandomInputMatchesTheReference) {
    for_each_target([] {
        for (uint32_t seed = 1; seed <= 300; ++seed) {
            SCOPED_TRACE("seed " + std::to_string(seed));
            compare_random(seed, 6);
            if (testing::Test::HasFatalFailure()) return;
        }
    });
}

// Each fast format alone, tightly packed and in a stride-16 buffer, linear runs that end
// exactly at, one before and one past the buffer's last element (the de-interleaving loads
// must stop inside it), at every offset alignment.
TEST(SimdShade, LinearRunsAtTheBufferEnd) {
    const std::vector<Format> formats = every_format();
    const VertexShader matrix{{}, matrix_shader};
    for_each_target([&] {
        for (const Format f : formats)
            for (const uint32_t tight : {0u, 1u})
                for (const uint32_t offset : {0u, 1u, 4u, 6u})
                    for (const bool vs : {false, true}) {
                        const uint32_t size = format_size(f);
                        const uint32_t stride = tight ? size : 16;
                        const uint32_t elements = 70;
                        std::vector<unsigned char> mem(offset + stride * (elements - 1) + size);
                        for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(i * 37 + 11);
                        const VertexBuffer buf{mem.data(), mem.size(), stride, offset};
                        const VertexAttrib at{0, 0, f, 0};
                        DrawState state{};
                        state.input = {{&buf, 1}, {&at, 1}};
                        state.vs = vs ? &matrix : nullptr;
                        const VertexLayout layout = vertex_layout_for(state);
                        const SimdShade fast(state);
                        for (const uint32_t n : {1u, 3u, 8u, 16u, 31u, 32u, 33u, 64u, 65u})
                            for (const int end : {-1, 0, 1, 5}) {
                                const uint32_t first = elements + end - n;
                                Segment seg;
                                seg.fetch_start = first;
                                seg.fetch_count = n;
                                seg.draw_count = n;
                                ShadedBatch a, b;
                                shade_segment(state, layout, seg, a);
                                fast.shade_segment(seg, b);
                                ASSERT_EQ(a.vertices, b.vertices)
                                    << "format " << int(f) << " stride " << stride << " offset "
                                    << offset << " n " << n << " end " << end;
                            }
                    }
    });
}

// Everything a backend receives, byte for byte.
class RecordingBackend final : public Backend {
  public:
    std::vector<uint32_t> log;
    void begin_draw(const DrawInfo& d, const VertexLayout& layout) override {
        log.insert(log.end(), {0xB0B0u, uint32_t(d.prim), layout.stride()});
    }
    void draw_elements(Prim prim, uint8_t flags, const VertexView& v,
                       std::span<const uint32_t> elts) override {
        log.insert(log.end(), {uint32_t(prim), flags, v.count, v.stride, uint32_t(elts.size())});
        log.insert(log.end(), v.data, v.data + size_t(v.count) * v.stride);
        log.insert(log.end(), elts.begin(), elts.end());
    }
    void end_draw() override { log.push_back(0xE0E0u); }
};

// Whole random draws of every primitive type (index types, restart, base vertex, instances,
// divisors), over the description's integer attributes or random input of every format,
// split small so segments are linear and listed: fetch_shade_simd delivers what fetch_shade
// does through draw_serial, and through a Context with 2 threads whose split cache replays
// indexed draws at another base vertex (listed segments with a fetch_bias), trace for trace.
TEST(SimdShade, WholeDrawsMatchFetchShade) {
    const std::vector<Format> formats = every_format();
    const VertexShader mixing{every_output(4, 3), mixing_shader};
    const FetchShade reference(65536);
    const FetchShadeSimd fast(65536);
    std::mt19937 rng(1234);
    Rng input_rng(99);
    for (int k = 0; k < test::kPrimsWithoutTess; ++k)
        for (int i = 0; i < 12; ++i) {
            const DrawDesc desc = test::random_draw(rng, Prim(k));
            const auto bound = bind_draw(desc);
            const RandomInput random_input(input_rng, formats);
            const VertexInput input = i % 2 ? random_input.input() : bound->input();
            for (const bool vs : {false, true}) {
                SCOPED_TRACE(std::string(prim_name(Prim(k))) + " draw " + std::to_string(i) +
                             " vs " + std::to_string(vs));
                DrawState state{bound->info, input, vs ? &mixing : nullptr, nullptr};
                const uint32_t limit = std::uniform_int_distribution<uint32_t>(6, 80)(rng);
                const Strategy strategy{};
                RecordingBackend ra, rb;
                draw_serial(state, reference, ra, {strategy, limit});
                draw_serial(state, fast, rb, {strategy, limit});
                ASSERT_EQ(ra.log, rb.log);

                // The same draw at base vertex + 3 (indexed draws only).
                DrawInfo shifted = bound->info;
                const bool indexed = shifted.index_type != IndexType::none;
                if (indexed) shifted.base_vertex += 3;
                TraceBackend ta, tb;
                draw_serial(state, reference, ta, {strategy, limit});
                if (indexed) {
                    DrawState s2 = state;
                    s2.draw = shifted;
                    draw_serial(s2, reference, ta, {strategy, limit});
                }
                ContextOptions o;
                o.threads = 2;
                o.inline_below = 0;
                Context ctx(o);
                ctx.bind_middle_end("fetch_shade_simd");
                ctx.bind_backend(tb);
                ctx.set_vertex_buffers(input.buffers);
                ctx.set_vertex_attribs(input.attribs);
                if (vs) ctx.bind_vertex_shader(mixing);
                DrawInfo cached = bound->info;
                if (indexed) {
                    cached.index_buffer_id = shifted.index_buffer_id = ctx.register_index_buffer();
                    ctx.draw(cached);
                    ctx.draw(shifted); // replayed: the split's fetch elements + fetch_bias 3
                } else {
                    ctx.draw(cached);
                }
                ctx.flush();
                ASSERT_EQ(ta.text(), tb.text());
            }
        }
}

// Every level can be pinned by name, through the API and through DRAWPIPE_SIMD_TARGET at
// Context creation; an unknown level is an error naming the ones there are.
TEST(SimdShade, TheLevelCanBePinned) {
    const std::vector<std::string> levels = simd_targets();
    ASSERT_FALSE(levels.empty());
    const std::string best(simd_target());
    EXPECT_EQ(levels.front(), best);
    for (const std::string& level : levels) {
        pin_simd_target(level);
        EXPECT_EQ(simd_target(), level);
    }
    pin_simd_target("");
    EXPECT_EQ(simd_target(), best);
    try {
        pin_simd_target("AVX9000");
        ADD_FAILURE() << "an unknown level was pinned";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::invalid_value);
        EXPECT_NE(std::string(e.what()).find(levels.back()), std::string::npos) << e.what();
    }
    ::setenv("DRAWPIPE_SIMD_TARGET", levels.back().c_str(), 1);
    {
        Context ctx;
        EXPECT_EQ(simd_target(), levels.back());
    }
    ::setenv("DRAWPIPE_SIMD_TARGET", "nonsense", 1);
    EXPECT_THROW(Context{}, Error);
    ::unsetenv("DRAWPIPE_SIMD_TARGET");
    pin_simd_target("");
    EXPECT_EQ(simd_target(), best);
}

TEST(SimdShade, RegisteredNextToFetchShade) {
    const auto m = MiddleEndRegistry::global().find("fetch_shade_simd");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->name(), "fetch_shade_simd");
    EXPECT_FALSE(simd_target().empty());
}

} // namespace
