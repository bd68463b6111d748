// fuzz_split_invariant: splitting never changes what is drawn (docs/architecture.md, "The
// invariant"). A description -- from the generator of fuzz_draw.hpp, or the text itself when
// the input is a description -- is traced unsplit (fetch_shade, limit 65536) and must give
// the same trace under
//   - every strategy, each at a fuzzed limit up to 64 (or all at the primitive's smallest);
//   - every registered middle end whose prepare() accepts it, at its own or the fuzzed limit;
//   - a Context of 1 and of 2 threads (pipeline forced on) with a fuzzed strategy/middle end;
//   - a cached replay: the index buffer registered, the draw drawn twice (serial and Context).
// Each execution checks one fuzzed point of every dimension; the fuzzer covers the rest.
// `reorder` may reorder independent primitives, so its traces are compared as sorted lines.
// A difference prints the description and the variant and aborts.
#include "fuzz/fuzz_common.hpp"
#include "fuzz/fuzz_draw.hpp"

#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"

#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

constexpr const char* kStrategies[] = {"distinct", "vsplit", "direct-64",
                                       "exact",    "none",   "reorder"};
constexpr size_t kStrategyCount = std::size(kStrategies);
constexpr uint32_t kMaxForcedLimit = 64;
constexpr uint32_t kUnsplitLimit = 65536;

// Everything built once per process: a fuzz execution must not pay for thread pools.
struct Harness {
    std::vector<Strategy> strategies;
    std::vector<MiddleEndRegistry::Entry> middles;
    std::array<std::shared_ptr<const FetchShade>, kMaxForcedLimit + 1> fetch_shade; // by limit
    FetchShade unsplit{kUnsplitLimit};
    // [threads - 1][strategy], each with an index buffer registered in its own split cache.
    std::unique_ptr<Context> contexts[2][kStrategyCount];
    uint64_t context_buffer[2][kStrategyCount] = {};
    SplitCache serial_cache;
    uint64_t serial_buffer = serial_cache.register_buffer();

    Harness() {
        register_builtin_middle_ends();
        middles = MiddleEndRegistry::global().entries();
        for (const char* name : kStrategies) // reorder only exists with meshoptimizer
            if (const auto s = Strategy::parse(name)) strategies.push_back(*s);
        for (uint32_t l = 1; l <= kMaxForcedLimit; ++l)
            fetch_shade[l] = std::make_shared<FetchShade>(l);
        for (uint32_t t = 0; t < 2; ++t)
            for (size_t s = 0; s < strategies.size(); ++s) {
                ContextOptions o;
                o.threads = t + 1;
                o.draw.strategy = strategies[s];
                o.inline_below = 0; // the pipeline even for one thread and tiny draws
                contexts[t][s] = std::make_unique<Context>(o);
                context_buffer[t][s] = contexts[t][s]->register_index_buffer();
            }
    }
};

Harness& harness() {
    static Harness* h = new Harness; // never destroyed: exit must not wait on thread pools
    return *h;
}

// The fuzzed choices besides the description.
struct Params {
    uint8_t limit = 0;    // forced limit: min_segment_vertices(prim) + limit % (...)
    uint8_t strategy = 0; // the replays' and the Contexts' strategy
    uint8_t middle = 0;   // the Contexts' middle end
    uint8_t flags = 0;    // Flags below
};
enum Flags : uint8_t {
    kAtMinimum = 1,         // every strategy at min_segment_vertices(prim), not a fuzzed limit
    kMiddleAtLimit = 2,     // middle ends at the fuzzed limit, not their own
    kReplayOnOneThread = 4, // the Context's cached replay on 1 thread, not 2
};

uint64_t fnv1a(std::string_view s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

class Checker {
  public:
    Checker(const DrawDesc& d, const BoundDraw& b, const VertexShader* vs, const GeometryShader* gs,
            std::string expected)
        : desc_(d), bound_(b), vs_(vs), gs_(gs), expected_(std::move(expected)) {}

    // Traces through draw_serial; a variant may refuse the draw only as too small a limit.
    void serial(const MiddleEnd& middle, const DrawOptions& options, const std::string& what) {
        std::string got;
        try {
            got = fuzz::trace_serial(bound_, vs_, gs_, middle, options);
        } catch (const Error& e) {
            if (e.code() == ErrorCode::limit_too_small) return;
            fuzz::report_mismatch(desc_, what + ": threw " + e.what(), expected_, "");
        }
        compare(got, expected_, options.strategy, what);
    }

    void compare(const std::string& got, const std::string& expected, const Strategy& s,
                 const std::string& what) const {
        // With a geometry shader, reorder must not reorder at all (it sees primitive ids).
        const bool as_set = s.kind == Strategy::Kind::reorder && !gs_;
        if (as_set ? fuzz::sorted_lines(got) == fuzz::sorted_lines(expected) : got == expected)
            return;
        fuzz::report_mismatch(desc_, what, expected, got);
    }

    const DrawDesc& desc() const { return desc_; }
    const BoundDraw& bound() const { return bound_; }
    const VertexShader* vs() const { return vs_; }
    const GeometryShader* gs() const { return gs_; }
    const std::string& expected() const { return expected_; }

  private:
    const DrawDesc& desc_;
    const BoundDraw& bound_;
    const VertexShader* vs_;
    const GeometryShader* gs_;
    std::string expected_;
};

bool accepts(const MiddleEnd& middle, const BoundDraw& b, const VertexShader* vs,
             const GeometryShader* gs) {
    try {
        return middle.prepare({b.info, b.input(), vs, gs}) != nullptr;
    } catch (const Error&) {
        return false;
    }
}

// The draw once, then (indexed) twice with its index buffer registered: the second draw
// replays the split the first one recorded.
void check_context(Checker& c, Context& ctx, uint64_t buffer_id,
                   std::shared_ptr<const MiddleEnd> middle, const Strategy& s, bool replay,
                   const std::string& what) {
    TraceBackend trace;
    const BoundDraw& b = c.bound();
    try {
        ctx.bind_backend(trace);
        ctx.bind_middle_end(std::move(middle));
        ctx.set_vertex_buffers(b.buffers);
        ctx.set_vertex_attribs(b.attribs);
        ctx.bind_vertex_shader(c.vs() ? *c.vs() : VertexShader{});
        ctx.bind_geometry_shader(c.gs());
        submit_draw(ctx, b); // the draw, or its multi-draw or indirect records
        ctx.flush();
        c.compare(trace.take(), c.expected(), s, what);
        const bool single = !b.multi.indirect_given && b.multi.draws.empty();
        if (!replay || !single || b.info.index_type == IndexType::none) return;
        DrawInfo cached = b.info;
        cached.index_buffer_id = buffer_id;
        ctx.draw(cached);
        ctx.draw(cached);
        ctx.flush();
        // Drops the recorded split: an execution that ends with more allocated than it
        // started makes libFuzzer re-run it under a full leak scan.
        ctx.bump_index_buffer(buffer_id);
    } catch (const Error& e) {
        fuzz::report_mismatch(c.desc(), what + ": threw " + e.what(), c.expected(), "");
    }
    c.compare(trace.take(), c.expected() + c.expected(), s, what + ", cached replay");
}

void run(const DrawDesc& d, const Params& p) {
    Harness& h = harness();
    const VertexShader* vs = nullptr;
    const GeometryShader* gs = nullptr;
    std::unique_ptr<BoundDraw> bound;
    std::string expected;
    try {
        vs = fuzz::vs_of(d);
        gs = fuzz::gs_of(d);
        bound = bind_draw(d);
        expected = fuzz::trace_serial(*bound, vs, gs, h.unsplit);
    } catch (const Error&) {
        return; // a bad draw: nothing to compare (fuzz_api covers what errors say)
    }
    Checker c(d, *bound, vs, gs, std::move(expected));
    const uint32_t min_limit = min_segment_vertices(d.prim);
    const uint32_t limit = min_limit + p.limit % (kMaxForcedLimit + 1 - min_limit);
    const std::string at = ", limit ";

    // Every dimension in every execution, one fuzzed point of each: a limit per strategy,
    // one strategy for the replays and the Contexts. Enough variants to catch a difference,
    // few enough for thousands of executions a second.
    size_t si = p.strategy % h.strategies.size();
    const uint32_t range = kMaxForcedLimit + 1 - min_limit;
    for (size_t k = 0; k < h.strategies.size(); ++k) {
        const Strategy& s = h.strategies[k];
        const uint32_t l = p.flags & kAtMinimum ? min_limit : min_limit + (limit + 7 * k) % range;
        c.serial(h.unsplit, {s, l}, "fetch_shade, strategy " + s.name() + at + std::to_string(l));
    }
    if (d.index_type != IndexType::none) { // cached replay through draw_serial
        const Strategy& s = h.strategies[si];
        BoundDraw& b = *bound;
        b.info.index_buffer_id = h.serial_buffer;
        for (const char* pass : {", recorded", ", replayed"})
            c.serial(h.unsplit, {s, limit, &h.serial_cache},
                     "fetch_shade, strategy " + s.name() + at + std::to_string(limit) + pass);
        b.info.index_buffer_id = 0;
        h.serial_cache.bump_version(h.serial_buffer); // drops the split (and its memory)
    }

    std::vector<std::shared_ptr<const MiddleEnd>> accepted{h.fetch_shade[limit]};
    for (const auto& e : h.middles) {
        if (!accepts(*e.middle, *bound, vs, gs)) continue;
        accepted.push_back(e.middle);
        if (p.flags & kMiddleAtLimit)
            c.serial(*e.middle, {Strategy{}, limit}, e.name + at + std::to_string(limit));
        else
            c.serial(*e.middle, {}, e.name + ", own limit");
    }

    const size_t mi = p.middle % accepted.size();
    for (uint32_t t = 0; t < 2; ++t)
        check_context(c, *h.contexts[t][si], h.context_buffer[t][si], accepted[mi],
                      h.strategies[si], (p.flags & kReplayOnOneThread ? t == 0 : t == 1),
                      std::to_string(t + 1) + "-thread Context, strategy " +
                          h.strategies[si].name() + ", middle end " +
                          std::string(accepted[mi]->name()) +
                          (mi == 0 ? at + std::to_string(limit) : std::string()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    Params p;
    DrawDesc d;
    if (fuzz::looks_like_text(bytes)) {
        try {
            d = parse_draw_text(bytes);
        } catch (const Error&) {
            return -1;
        }
        // Small enough to trace some 30 times; the generator keeps to this by construction.
        if (!fuzz::cheap_enough(d, 1024, 1 << 17)) return -1;
        const uint64_t hash = fnv1a(bytes);
        p = {uint8_t(hash), uint8_t(hash >> 8), uint8_t(hash >> 16), uint8_t(hash >> 24)};
    } else {
        FuzzedDataProvider in(data, size);
        p.limit = in.ConsumeIntegral<uint8_t>();
        p.strategy = in.ConsumeIntegral<uint8_t>();
        p.middle = in.ConsumeIntegral<uint8_t>();
        p.flags = in.ConsumeIntegral<uint8_t>();
        d = fuzz::draw_from_bytes(in);
    }
    run(d, p);
    return 0;
}
