// Every vertex stream through the hardware middle ends: for random draws with geometry shaders
// that emit to several streams, the stream-output buffers (every byte, the bytes around the
// written ranges included), the per-stream generated and written counts (per draw and over a
// capture session with pause/resume), the bytes each buffer took and what the backend
// receives (stream 0 only) from a4xx (switch-rewritten and naive) and gen7 equal
// fetch_shade's, at forced small vertex limits, with the distinct and vsplit strategies, on 1
// and 2 threads through the pipeline.
//
// The shaders: the library's streams2 and streams4, and shaders here that scatter their emits over
// up to four streams in an order that depends on the primitive and invocation (sometimes past
// max_vertices, which GL counts over every stream), with a layer, a viewport index, a point
// size, a varying read from the input vertices and the position. Points output is what GL
// allows with several streams (gen7 refuses anything else); the A4xx also runs a strip
// shader with several streams through ir3's per-stream clones.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/stream_output.hpp"
#include "middle_ends/adreno_a4xx/a4xx_middle_end.hpp"
#include "middle_ends/intel_gen7/gen7_middle_end.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace drawpipe {
namespace {

uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

// Output vertex n of one invocation, on `stream`. Every value read from the inputs is loaded
// here, right before the emit, so vertex n depends on n alone (the A4xx switch form applies).
GsOutput scatter_vertex(GsContext& ctx, uint32_t n, uint32_t stream) {
    const uint32_t v = n % ctx.vertex_count();
    GsOutput o;
    o.id = 1000000u * ctx.instance_id() + 1000u * ctx.primitive_id_in() +
           100u * ctx.invocation_id() + n;
    o.layer = (n + 2 * stream) % 7;
    o.viewport = (3 * n + stream) % 16;
    o.point_size = float(n) + 0.5f;
    for (uint32_t c = 0; c < 4; ++c) o.position[c] = dword_float(ctx.load(v, SLOT_POSITION + c));
    // Varying 0 of the input vertex (0 when the draw has no attributes), its id, the stream.
    o.varyings[0] = {ctx.load(v, kVertexHeaderDwords), ctx.load(v, kVertexHeaderDwords + 1),
                     ctx.vertex_id(v), stream};
    return o;
}

void declare_outputs(GeometryShader& gs) {
    gs.outputs.layer = true;
    gs.outputs.viewport_index = true;
    gs.outputs.point_size = true;
    gs.outputs.add_varying();
}

// Points to `streams` streams: per (input primitive, invocation) a pseudo-random number of
// emits (up to 3 past max_vertices), each to a pseudo-random stream (stream 0 twice as
// likely), with end_primitive calls between them (no-ops for points). `independent`:
// values are loaded at each emit; otherwise the shader loads its inputs once at the top.
GeometryShader scatter_points(const char* name, Prim input, uint32_t streams, uint32_t max_vertices,
                              uint32_t invocations, bool independent) {
    GeometryShader gs;
    gs.name = name;
    gs.input = input;
    gs.output = Prim::points;
    gs.max_vertices = max_vertices;
    gs.invocations = invocations;
    gs.streams = streams;
    gs.independent_vertices = independent;
    gs.uses_end_primitive = true;
    declare_outputs(gs);
    gs.main = [streams, max_vertices, independent](GsContext& ctx) {
        const uint32_t prim = ctx.primitive_id_in(), inv = ctx.invocation_id();
        const uint32_t emits = hash3(prim, inv, 7) % (max_vertices + 4);
        // The dependent form reads everything first, as a shader with a prologue would.
        const uint32_t instance = independent ? 0 : ctx.instance_id();
        const uint32_t vid0 = independent ? 0 : ctx.vertex_id(0);
        for (uint32_t n = 0; n < emits; ++n) {
            uint32_t s = hash3(prim, inv, 100 + n) % (streams + 1);
            if (s == streams) s = 0;
            GsOutput o;
            if (independent) {
                o = scatter_vertex(ctx, n, s);
            } else {
                o.id = 1000000u * instance + 1000u * prim + 100u * inv + n;
                o.layer = (n + s) % 5;
                o.viewport = (n + 2 * s) % 16;
                o.point_size = float(s);
                o.varyings[0] = {vid0, n, s, inv};
            }
            ctx.emit_stream_vertex(s, o);
            if (hash3(prim, inv, 200 + n) % 4 == 0)
                ctx.end_stream_primitive(hash3(prim, inv, 300 + n) % streams);
        }
    };
    return gs;
}

// A strip shader with several streams (Vulkan allows it, GL does not): each emit to a
// pseudo-random stream, strips of each stream ended at random, never past max_vertices. The
// A4xx runs it as ir3 does, one clone of the shader per stream.
GeometryShader scatter_strips(const char* name, Prim output, uint32_t streams,
                              uint32_t max_vertices) {
    GeometryShader gs;
    gs.name = name;
    gs.input = Prim::triangles;
    gs.output = output;
    gs.max_vertices = max_vertices;
    gs.streams = streams;
    gs.independent_vertices = true;
    declare_outputs(gs);
    gs.main = [streams, max_vertices](GsContext& ctx) {
        const uint32_t prim = ctx.primitive_id_in();
        const uint32_t emits = hash3(prim, 1, 9) % (max_vertices + 1);
        for (uint32_t n = 0; n < emits; ++n) {
            const uint32_t s = hash3(prim, 2, n) % streams;
            ctx.emit_stream_vertex(s, scatter_vertex(ctx, n, s));
            if (hash3(prim, 3, n) % 3 == 0) ctx.end_stream_primitive(hash3(prim, 4, n) % streams);
        }
    };
    return gs;
}

// What one capture left behind.
struct Capture {
    std::array<std::vector<uint32_t>, kMaxStreamOutputBuffers> mem;
    std::vector<StreamOutputCounts> per_draw;
    StreamOutputCounts session;
    std::array<size_t, kMaxStreamOutputBuffers> written_bytes{};
    std::string trace;
};

std::string counts_text(const StreamOutputCounts& c) {
    std::ostringstream s;
    for (uint32_t k = 0; k < kMaxVertexStreams; ++k)
        s << " s" << k << " " << c.written[k] << "/" << c.generated[k];
    return s.str();
}

// Empty when equal, else what differs first.
std::string difference(const Capture& want, const Capture& got) {
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b) {
        if (want.mem[b] == got.mem[b]) continue;
        size_t at = 0;
        while (at < want.mem[b].size() && want.mem[b][at] == got.mem[b][at]) ++at;
        return "buffer " + std::to_string(b) + " differs at dword " + std::to_string(at) +
               " (written bytes " + std::to_string(want.written_bytes[b]) + " / " +
               std::to_string(got.written_bytes[b]) + ")";
    }
    if (want.written_bytes != got.written_bytes) return "written bytes differ";
    for (size_t i = 0; i < want.per_draw.size(); ++i)
        if (want.per_draw[i].generated != got.per_draw[i].generated ||
            want.per_draw[i].written != got.per_draw[i].written)
            return "draw " + std::to_string(i) + " counts:" + counts_text(want.per_draw[i]) +
                   " vs" + counts_text(got.per_draw[i]);
    if (want.session.generated != got.session.generated ||
        want.session.written != got.session.written)
        return "session counts:" + counts_text(want.session) + " vs" + counts_text(got.session);
    if (want.trace != got.trace) return "backend traces differ";
    return {};
}

// The capture declaration of one draw: which streams are captured, what, and where.
struct CaptureSpec {
    StreamOutputState state;                              // buffers' data pointers set per run
    std::array<size_t, kMaxStreamOutputBuffers> dwords{}; // memory per buffer, sentinels included
    uint32_t repeat = 1;                                  // draws in the session
};

CaptureSpec random_spec(std::mt19937& rng, const GeometryShader& gs) {
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    CaptureSpec spec;
    spec.repeat = uni(1, 3);
    StreamOutputState& st = spec.state;
    st.mode = CaptureMode::interleaved;
    for (uint32_t s = 0; s < gs.streams; ++s) {
        // Stream s into buffer s; stream 0 is sometimes not captured at all.
        if (s == 0 && uni(0, 5) == 0) continue;
        uint32_t dw = 0;
        const ShaderOutputs& out = gs.outputs; // what the shader declares may be captured
        st.outputs.push_back({CaptureSource::gs_id, 0, 0, 1, s, dw++, s});
        if (out.layer && uni(0, 1))
            st.outputs.push_back({CaptureSource::layer, 0, 0, 1, s, dw++, s});
        if (out.viewport_index && uni(0, 2) == 0)
            st.outputs.push_back({CaptureSource::viewport_index, 0, 0, 1, s, dw++, s});
        if (out.point_size && uni(0, 2) == 0)
            st.outputs.push_back({CaptureSource::point_size, 0, 0, 1, s, dw++, s});
        if (out.varying_count > 0 && uni(0, 1)) {
            const uint32_t first = uni(0, 3), n = uni(1, 4 - first);
            st.outputs.push_back({CaptureSource::varying, 0, first, n, s, dw, s});
            dw += n;
        }
        if (uni(0, 3) == 0) {
            st.outputs.push_back({CaptureSource::position, 0, 0, 4, s, dw, s});
            dw += 4;
        }
        const uint32_t stride = 4 * (dw + uni(0, 1));
        const size_t offset = 4 * uni(0, 3);
        size_t size;
        switch (uni(0, 4)) {
        case 0: // nothing, or hardly anything, fits
            size = uni(0, 2 * stride);
            break;
        case 1: // a whole number of vertices, often ending mid-draw
            size = size_t(stride) * uni(0, 60);
            break;
        case 2: // not a multiple of the stride, nor of 4
            size = size_t(stride) * uni(0, 200) + uni(1, stride - 1);
            break;
        default: // room for everything
            size = size_t(1) << 18;
            break;
        }
        st.buffers[s] = {nullptr, offset, size, stride};
        spec.dwords[s] = (offset + size + 3) / 4 + 3;
    }
    return spec;
}

// Contexts by (threads, strategy, forced limit), made once: the pipeline forced on.
class Contexts {
  public:
    Context& get(uint32_t threads, const std::string& strategy, uint32_t limit) {
        auto& c = all_[{threads, strategy, limit}];
        if (!c) {
            ContextOptions o;
            o.threads = threads;
            o.draw.strategy = *Strategy::parse(strategy);
            o.draw.max_vertices = limit;
            o.inline_below = 0;
            c = std::make_unique<Context>(o);
        }
        return *c;
    }

  private:
    std::map<std::tuple<uint32_t, std::string, uint32_t>, std::unique_ptr<Context>> all_;
};

Capture capture(Context& ctx, std::shared_ptr<const MiddleEnd> middle, const GeometryShader& gs,
                const BoundDraw& bound, const CaptureSpec& spec) {
    Capture cap;
    TraceBackend trace;
    StreamOutputState st = spec.state;
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b) {
        cap.mem[b].assign(spec.dwords[b], 0xDEADBEEFu);
        if (!cap.mem[b].empty()) st.buffers[b].data = cap.mem[b].data();
    }
    ctx.bind_middle_end(std::move(middle));
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound.buffers);
    ctx.set_vertex_attribs(bound.attribs);
    ctx.bind_geometry_shader(&gs);
    ctx.set_stream_output(st);
    ctx.begin_stream_output();
    for (uint32_t r = 0; r < spec.repeat; ++r) {
        const bool paused = r % 2 == 1; // every second draw is not captured, only counted
        if (paused) ctx.pause_stream_output();
        ctx.draw(bound.info);
        cap.per_draw.push_back(ctx.flush().primitives);
        if (paused) ctx.resume_stream_output();
    }
    for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b)
        cap.written_bytes[b] = ctx.stream_output_written_bytes(b);
    cap.session = ctx.end_stream_output();
    ctx.clear_stream_output();
    ctx.bind_geometry_shader(nullptr);
    cap.trace = trace.take();
    return cap;
}

struct Hardware {
    const char* name;
    std::shared_ptr<const MiddleEnd> middle;
    bool points_only; // gen7 compiles several streams only for points output, as GL links them
};

std::vector<Hardware> hardware() {
    return {
        {"a4xx", std::make_shared<a4xx::A4xxMiddleEnd>(), false},
        {"a4xx_naive", std::make_shared<a4xx::A4xxMiddleEnd>(a4xx::Mode::naive), false},
        {"gen7", std::make_shared<gen7::Gen7MiddleEnd>(), true},
    };
}

struct Coverage {
    int draws = 0, later_stream_written = 0, later_stream_overflow = 0, stream0_overflow = 0,
        split = 0;
};

void check_shader(Contexts& contexts, const GeometryShader& gs, std::mt19937& rng, int per_prim,
                  Coverage& cover) {
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    const auto reference = std::make_shared<FetchShade>();
    const std::vector<Hardware> hw = hardware();
    const uint32_t V = gs_input_vertices(gs.input);
    const uint32_t limits[] = {V, V + 1, 2 * V, 3 * V + 1, 12, 0};
    const char* strategies[] = {"distinct", "vsplit"};
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        if (!gs_input_compatible(Prim(p), gs.input)) continue;
        for (int iter = 0; iter < per_prim; ++iter) {
            const DrawDesc d =
                test::random_draw(rng, Prim(p), {.max_count = 36, .max_instances = 3});
            const auto bound = bind_draw(d);
            const CaptureSpec spec = random_spec(rng, gs);
            const Capture want =
                capture(contexts.get(1, "distinct", 0), reference, gs, *bound, spec);
            ++cover.draws;
            for (uint32_t s = 1; s < kMaxVertexStreams; ++s) {
                cover.later_stream_written += want.session.written[s] > 0;
                cover.later_stream_overflow += want.session.written[s] < want.session.generated[s];
            }
            cover.stream0_overflow += want.session.written[0] < want.session.generated[0];
            for (const Hardware& h : hw) {
                if (h.points_only && gs.output != Prim::points) continue;
                for (uint32_t threads : {1u, 2u})
                    for (const char* strategy : strategies) {
                        const uint32_t limit = limits[uni(0, std::size(limits) - 1)];
                        const Capture got = capture(contexts.get(threads, strategy, limit),
                                                    h.middle, gs, *bound, spec);
                        const std::string why = difference(want, got);
                        ASSERT_EQ(why, "")
                            << gs.name << " through " << h.name << ", " << threads << " threads, "
                            << strategy << ", limit " << limit << ", " << spec.repeat << " draws\n"
                            << format_draw_text(d);
                        cover.split += limit != 0 && limit < d.count;
                    }
            }
        }
    }
}

std::vector<GeometryShader> scatter_shaders() {
    return {
        // 20 vertices of stream ids: 40 header bits, gen7 writes them in 32-bit batches.
        scatter_points("scatter4_tris", Prim::triangles, 4, 20, 1, true),
        // 80 header bits and two invocations, loads in a prologue (A4xx: naive runs).
        scatter_points("scatter3_lines_inv2", Prim::lines, 3, 40, 2, false),
        // Exactly one 32-bit header DWORD at 16 vertices.
        scatter_points("scatter2_points", Prim::points, 2, 16, 1, true),
        scatter_points("scatter4_tris_adj", Prim::triangles_adjacency, 4, 6, 3, true),
    };
}

TEST(StreamsProperty, HardwareMiddleEndsCaptureEveryStreamAsTheReference) {
    std::mt19937 rng(1616);
    Contexts contexts;
    Coverage cover;
    for (const char* name : {"streams2", "streams4"}) {
        check_shader(contexts, find_gs(name), rng, 12, cover);
        if (HasFatalFailure()) return;
    }
    for (const GeometryShader& gs : scatter_shaders()) {
        check_shader(contexts, gs, rng, 10, cover);
        if (HasFatalFailure()) return;
    }
    // What the draws exercised: streams past 0 written and overflowing, stream 0
    // overflowing, draws split into several segments.
    EXPECT_GT(cover.later_stream_written, cover.draws / 2);
    EXPECT_GT(cover.later_stream_overflow, cover.draws / 8);
    EXPECT_GT(cover.stream0_overflow, cover.draws / 8);
    EXPECT_GT(cover.split, cover.draws);
}

// The A4xx clones a strip shader per stream (ir3): each clone's runs carry its stream in
// prim_info, and the strips of every stream reach stream output.
TEST(StreamsProperty, A4xxStripShadersWithSeveralStreams) {
    std::mt19937 rng(4416);
    Contexts contexts;
    Coverage cover;
    check_shader(contexts, scatter_strips("strips3", Prim::triangle_strip, 3, 12), rng, 10, cover);
    if (HasFatalFailure()) return;
    check_shader(contexts, scatter_strips("lines2", Prim::line_strip, 2, 9), rng, 10, cover);
    if (HasFatalFailure()) return;
    EXPECT_GT(cover.later_stream_written, cover.draws / 2);
}

// gen7 compiles several streams only for points output (GL's link rule): a strip shader
// with several streams is refused, not drawn with streams dropped. (Compiled without stream
// output it has no streams past 0 to deliver: tests/draw/stream_output/stream_output_test.cpp.)
TEST(StreamsProperty, Gen7RefusesStripShadersWithSeveralStreams) {
    const GeometryShader strips = scatter_strips("strips3", Prim::triangle_strip, 3, 12);
    const auto tris = bind_draw(parse_draw_text("prim triangles\nindex none\ncount 3\n"));
    Context ctx;
    TraceBackend trace;
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(tris->buffers);
    ctx.set_vertex_attribs(tris->attribs);
    ctx.bind_middle_end(std::make_shared<gen7::Gen7MiddleEnd>());
    ctx.bind_geometry_shader(&strips);
    try {
        ctx.draw(tris->info);
        FAIL() << "gen7 compiled a strip shader with several streams";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::invalid_value);
        EXPECT_NE(std::string(e.what()).find("only a points geometry shader"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace drawpipe
