// DrawOptions::robust_indices: off, a draw reading past its index buffer is
// Error(index_buffer_overrun); on, each index position past the buffer reads as index 0
// (Mesa's vsplit, what llvmpipe draws), so the draw equals one whose buffer holds zeros there:
// in direct, multi and indirect draws, through every strategy, small limits and chunks, the
// split cache, a given index range, a geometry shader and tessellation.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/indirect.hpp"
#include "support/expect_error.hpp"
#include "support/tess_util.hpp"
#include "tools/common/gs_library.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

using test::expect_error;

// Vertex v at (v / 16 - 0.5, (v % 5) / 5 - 0.5), its id the varying the trace prints.
std::vector<float> positions() {
    std::vector<float> p;
    for (uint32_t v = 0; v < 16; ++v)
        p.insert(p.end(), {float(v) / 16 - 0.5f, float(v % 5) / 5 - 0.5f, 0, 1});
    return p;
}

// The indices: `n` readable (index_buffer_count), then garbage a robust draw must not read.
// `padded` is the same with zeros in place of the garbage, read as an ordinary buffer.
struct Indices {
    std::vector<uint16_t> robust, padded;
    uint32_t readable;
    Indices(std::vector<uint16_t> head, uint32_t past) : readable(uint32_t(head.size())) {
        robust = padded = head;
        for (uint32_t i = 0; i < past; ++i) {
            robust.push_back(uint16_t(7 + i % 5));
            padded.push_back(0);
        }
    }
};

struct Config {
    std::string strategy = "distinct";
    uint32_t max_vertices = 0, chunk_positions = 0, threads = 1;
};

// Draws through a context with robust index access as `robust` says; `issue` makes the draws.
std::string trace(const Config& s, bool robust, const std::function<void(Context&)>& issue,
                  const std::function<void(Context&)>& bind = nullptr) {
    static const std::vector<float> pos = positions();
    ContextOptions o;
    o.threads = s.threads;
    o.inline_below = 0;
    o.draw.strategy = *Strategy::parse(s.strategy);
    o.draw.max_vertices = s.max_vertices;
    o.draw.chunk_positions = s.chunk_positions;
    o.draw.robust_indices = robust;
    Context ctx(o);
    TraceBackend trace;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(trace);
    const VertexBuffer vb{pos.data(), pos.size() * 4, 16, 0};
    const VertexAttrib a{0, 0, Format::float32x4, 0};
    ctx.set_vertex_buffers({&vb, 1});
    ctx.set_vertex_attribs({&a, 1});
    if (bind) bind(ctx);
    issue(ctx);
    ctx.flush();
    return trace.take();
}

DrawInfo indexed(Prim prim, const std::vector<uint16_t>& indices, uint32_t readable, uint32_t start,
                 uint32_t count) {
    DrawInfo d;
    d.prim = prim;
    d.index_type = IndexType::u16;
    d.indices = indices.data();
    d.index_buffer_count = readable;
    d.start = start;
    d.count = count;
    return d;
}

const Config kConfigs[] = {
    {"distinct"},       {"vsplit"},      {"exact"},       {"none"},
    {"direct-8"},       {"distinct", 6}, {"exact", 6, 4}, {"distinct", 0, 0, 2},
    {"vsplit", 4, 4, 2}};

TEST(RobustIndices, DirectDrawsOnEveryStrategyAndSplit) {
    const Indices ix({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 10);
    for (const Config& s : kConfigs)
        for (Prim prim : {Prim::triangles, Prim::triangle_strip, Prim::line_loop, Prim::points,
                          Prim::triangle_fan}) {
            for (uint32_t start : {0u, 4u, 11u, 30u}) { // 30: every position past the buffer
                auto draw_with = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
                    return [&, readable](Context& ctx) {
                        ctx.draw(indexed(prim, buf, readable, start, 9));
                    };
                };
                // The reference reads the zeros from its buffer; 30 + 9 lies past both.
                const uint32_t full = start == 30 ? 39 : uint32_t(ix.padded.size());
                std::vector<uint16_t> padded = ix.padded;
                padded.resize(full, 0);
                const std::string want = trace(s, false, draw_with(padded, full));
                EXPECT_EQ(trace(s, true, draw_with(ix.robust, ix.readable)), want)
                    << s.strategy << " " << s.max_vertices << " prim " << int(prim) << " start "
                    << start;
                if (start + 9 > ix.readable)
                    expect_error([&] { trace(s, false, draw_with(ix.robust, ix.readable)); },
                                 ErrorCode::index_buffer_overrun, "start + count");
            }
        }
}

TEST(RobustIndices, RestartIndexRangeAndSplitCache) {
    const Indices ix({1, 2, 3, 0xFFFF, 4, 5, 6, 7}, 6);
    for (const Config& s : kConfigs) {
        for (bool cached : {false, true}) {
            auto draws = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
                const bool robust = &buf == &ix.robust;
                return [&, readable, robust](Context& ctx) {
                    DrawInfo d = indexed(Prim::triangle_strip, buf, readable, 1, 12);
                    d.primitive_restart = true;
                    d.restart_index = 0xFFFF;
                    d.index_range = IndexRange{0, 7};
                    if (cached) d.index_buffer_id = ctx.register_index_buffer();
                    ctx.draw(d); // twice: the second may replay a cached split
                    ctx.draw(d);
                    // A range without 0, though a robust draw reads 0 past the buffer.
                    if (robust) d.index_range = IndexRange{1, 7};
                    ctx.draw(d);
                };
            };
            const std::string want = trace(s, false, draws(ix.padded, 14));
            EXPECT_EQ(trace(s, true, draws(ix.robust, ix.readable)), want)
                << s.strategy << (cached ? " cached" : "");
        }
    }
}

TEST(RobustIndices, MultiAndIndirectDraws) {
    const Indices ix({1, 2, 3, 4, 5, 6, 7, 8}, 8);
    for (const Config& s : kConfigs) {
        auto multi = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
            return [&, readable](Context& ctx) {
                const DrawInfo d[3] = {indexed(Prim::triangles, buf, readable, 0, 6),
                                       indexed(Prim::triangles, buf, readable, 5, 6),
                                       indexed(Prim::triangles, buf, readable, 9, 3)};
                ctx.draw(std::span<const DrawInfo>(d));
            };
        };
        EXPECT_EQ(trace(s, true, multi(ix.robust, ix.readable)),
                  trace(s, false, multi(ix.padded, 16)))
            << s.strategy;
        expect_error([&] { trace(s, false, multi(ix.robust, ix.readable)); },
                     ErrorCode::index_buffer_overrun, "draw 1");
        const DrawElementsIndirectCommand records[3] = {
            {6, 1, 0, 0, 0}, {6, 2, 4, 1, 0}, {3, 1, 10, 0, 0}};
        auto indirect = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
            return [&, readable](Context& ctx) {
                IndirectDraws in;
                in.buffer = {records, sizeof records};
                in.draw_count = 3;
                ctx.draw_indirect(indexed(Prim::triangles, buf, readable, 0, 0), in);
            };
        };
        EXPECT_EQ(trace(s, true, indirect(ix.robust, ix.readable)),
                  trace(s, false, indirect(ix.padded, 16)))
            << s.strategy;
        expect_error([&] { trace(s, false, indirect(ix.robust, ix.readable)); },
                     ErrorCode::index_buffer_overrun, "indirect record 1");
    }
}

TEST(RobustIndices, GeometryShaderAndTessellation) {
    const Indices ix({1, 2, 3, 4, 5, 6, 7}, 8);
    const GeometryShader& gs = find_gs("passthrough_tri");
    for (const Config& s : kConfigs) {
        auto tris = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
            return [&, readable](Context& ctx) {
                ctx.draw(indexed(Prim::triangles, buf, readable, 3, 9));
            };
        };
        auto bind_gs = [&](Context& ctx) { ctx.bind_geometry_shader(&gs); };
        EXPECT_EQ(trace(s, true, tris(ix.robust, ix.readable), bind_gs),
                  trace(s, false, tris(ix.padded, 15), bind_gs))
            << s.strategy;
        auto patches = [&](const std::vector<uint16_t>& buf, uint32_t readable) {
            return [&, readable](Context& ctx) {
                DrawInfo d = indexed(Prim::patches, buf, readable, 2, 9);
                d.patch_vertices = 3;
                ctx.draw(d);
            };
        };
        auto bind_tess = [&](Context& ctx) { ctx.bind_tess_eval(test::patch_ids_tes(3)); };
        EXPECT_EQ(trace(s, true, patches(ix.robust, ix.readable), bind_tess),
                  trace(s, false, patches(ix.padded, 15), bind_tess))
            << s.strategy;
    }
}

} // namespace
