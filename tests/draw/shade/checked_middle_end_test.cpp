// A middle end that breaks its contract (drawpipe/extend/shaded.hpp) gets Error(middle_end_failure)
// naming it, the draw and the segment, on every path (the pipeline at 1 and 4 threads,
// draw_serial), never a read past its vertices: one test per fault a model author makes.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "support/random_draw.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <functional>
#include <string>

using namespace drawpipe;

namespace {

const tbb::global_control g_threads(tbb::global_control::max_allowed_parallelism, 8);

// FetchShade, then `breakage` applied to the batch of segment `at` (Segment::sequence).
class BrokenMiddleEnd final : public MiddleEnd {
  public:
    using Breakage = std::function<void(ShadedBatch&)>;
    BrokenMiddleEnd(uint64_t at, Breakage b) : inner_(64), at_(at), breakage_(std::move(b)) {}
    std::string_view name() const override { return "broken"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        return std::make_shared<Draw>(inner_.prepare(state), at_, breakage_);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner_.make_scratch();
    }

  private:
    struct Draw final : MiddleEndDraw {
        Draw(std::shared_ptr<const MiddleEndDraw> in, uint64_t at, Breakage b)
            : MiddleEndDraw(in->limits(), in->layout()), inner(std::move(in)), at(at),
              breakage(std::move(b)) {}
        void shade(const Segment& seg, MiddleEndScratch* s, ShadedBatch& out) const override {
            inner->shade(seg, s, out);
            if (seg.sequence == at) breakage(out);
        }
        std::shared_ptr<const MiddleEndDraw> inner;
        uint64_t at;
        Breakage breakage;
    };
    FetchShade inner_;
    uint64_t at_;
    Breakage breakage_;
};

struct Fault {
    const char* name;
    BrokenMiddleEnd::Breakage breakage;
    const char* says; // a phrase the error must contain
};

const Fault kFaults[] = {
    {"element past the vertices",
     [](ShadedBatch& b) { b.elts[b.prims[0].first + 4] = b.vertex_count; }, "element"},
    {"element far past the vertices", [](ShadedBatch& b) { b.elts.back() = 0x7FFFFFFF; },
     "element"},
    {"no vertices at all", [](ShadedBatch& b) { b.vertices.clear(), b.vertex_count = 0; },
     "element"},
    {"vertex count above the records", [](ShadedBatch& b) { ++b.vertex_count; }, "vertex_count"},
    {"vertex count below the records", [](ShadedBatch& b) { --b.vertex_count; }, "vertex_count"},
    {"range past the elements", [](ShadedBatch& b) { b.prims.back().count += 3; }, "elements ["},
    {"range starting past the elements",
     [](ShadedBatch& b) { b.prims.back().first = uint32_t(b.elts.size()) + 1; }, "elements ["},
    {"unknown primitive type", [](ShadedBatch& b) { b.prims[0].prim = Prim(200); }, "prim 200"},
    {"stream out of range", [](ShadedBatch& b) { b.prims[0].stream = 9; }, "stream 9"},
};

// 600 triangles in random order over 1000 vertices: segments of at most 64 vertices.
const BoundDraw& scene() {
    static const auto bound = [] {
        DrawDesc d;
        d.prim = Prim::triangles;
        d.index_type = IndexType::u32;
        uint32_t x = 7;
        for (int i = 0; i < 1800; ++i) d.indices.push_back((x = x * 1103515245u + 12345u) % 1000);
        d.count = 1800;
        d.count_given = true;
        return bind_draw(d);
    }();
    return *bound;
}

void expect_named(const Error& e, const Fault& f, uint64_t at) {
    EXPECT_EQ(e.code(), ErrorCode::middle_end_failure) << f.name;
    const std::string what = e.what();
    EXPECT_NE(what.find("middle end 'broken'"), std::string::npos) << what;
    EXPECT_NE(what.find("segment " + std::to_string(at)), std::string::npos) << what;
    EXPECT_NE(what.find(f.says), std::string::npos) << f.name << ": " << what;
}

TEST(CheckedMiddleEnd, EveryFaultIsAnErrorNamingTheMiddleEndTheDrawAndTheSegment) {
    const BoundDraw& bound = scene();
    for (const std::string& level : simd_targets()) // the element check's every SIMD level
        for (const Fault& f : kFaults)
            for (const uint64_t at : {0ull, 3ull})
                for (const uint32_t threads : {1u, 4u}) {
                    SCOPED_TRACE(std::string(f.name) + ", segment " + std::to_string(at) + ", " +
                                 std::to_string(threads) + " threads, " + level);
                    pin_simd_target(level);
                    ContextOptions co;
                    co.threads = threads;
                    co.inline_below = threads == 1 ? ContextOptions{}.inline_below : 0;
                    Context ctx(co);
                    TraceBackend trace;
                    ctx.bind_middle_end(std::make_shared<BrokenMiddleEnd>(at, f.breakage));
                    ctx.bind_backend(trace);
                    ctx.set_vertex_buffers(bound.buffers);
                    ctx.set_vertex_attribs(bound.attribs);
                    ctx.draw(bound.info); // draw 0: drawn whole
                    try {
                        ctx.flush();
                        ADD_FAILURE() << "no error";
                    } catch (const Error& e) {
                        expect_named(e, f, at);
                        EXPECT_NE(std::string(e.what()).find("draw 0"), std::string::npos)
                            << e.what();
                    }
                    pin_simd_target("");
                }
}

TEST(CheckedMiddleEnd, DrawSerialChecksToo) {
    const BoundDraw& bound = scene();
    for (const Fault& f : kFaults) {
        BrokenMiddleEnd broken(2, f.breakage);
        TraceBackend trace;
        try {
            draw_serial({bound.info, bound.input(), nullptr, nullptr}, broken, trace);
            ADD_FAILURE() << f.name << ": no error";
        } catch (const Error& e) {
            expect_named(e, f, 2);
        }
    }
}

// A sound middle end passes the checks: the same draw, unbroken, at every path.
TEST(CheckedMiddleEnd, ASoundMiddleEndPasses) {
    const BoundDraw& bound = scene();
    FetchShade sound(64);
    TraceBackend expected;
    draw_serial({bound.info, bound.input(), nullptr, nullptr}, sound, expected);
    ContextOptions co;
    co.threads = 4;
    co.inline_below = 0;
    Context ctx(co);
    TraceBackend trace;
    ctx.bind_middle_end(std::make_shared<BrokenMiddleEnd>(~0ull, [](ShadedBatch&) {}));
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound.buffers);
    ctx.set_vertex_attribs(bound.attribs);
    ctx.draw(bound.info);
    ctx.flush();
    EXPECT_EQ(trace.text(), expected.text());
}

} // namespace
