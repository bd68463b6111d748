// fuzz_api: the public API driven by bytes with hostile values, as a careless or hostile
// driver would: DrawInfo fields at the 32-bit edges (counts, starts, base vertices, restart
// values that do not fit the index type, an index_range that is given and wrong, instance
// counts and divisors of 0), vertex buffers with strides and offsets near 2^32 and every
// Format, shaders and middle ends switched between draws, the split cache's register /
// bump / budget, and raster states with hostile floats and enums (NaN, infinities, huge
// widths, sizes and viewports) in front of the counting or the raster backend. Any drawpipe::Error
// is an accepted answer; a crash, a sanitizer report, a hang or another exception is a bug.
//
// The caller's side of the contract is kept: buffer sizes and index_buffer_count never claim
// more memory than exists (lying about that is a driver bug drawpipe cannot see), and every
// buffer outlives the flush that ends each input.
#include "fuzz/hostile.hpp"

#include "drawpipe/backends/counting.hpp"
#include "drawpipe/backends/raster.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"
#include "tools/common/gs_library.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace drawpipe;
using fuzz::hostile_float;
using fuzz::hostile_i32;
using fuzz::hostile_u32;

namespace {

constexpr size_t kVertexArena = 4096; // bytes every vertex buffer points into
constexpr size_t kIndexArena = 2048;  // bytes of indices, filled from the input
// Vertices x instances of a draw that would be drawn: enough to split at every small limit;
// less with a GS bound (the A4xx models re-run a shader per output vertex).
constexpr uint64_t kMaxDrawWork = 2048;
constexpr uint64_t kMaxGsDrawWork = 256;
constexpr int kMaxOps = 48;
constexpr size_t kMaxRegistered = 8; // per context: SplitCache keeps every id it hands out

const char* const kStrategies[] = {"distinct",     "vsplit", "direct-2", "direct-64",
                                   "direct-65536", "exact",  "none",     "reorder"};

// DRAWPIPE_FUZZ_STATS=1 prints at exit what the operations came to: how many drew and how
// many each error code refused. A target whose inputs all end in one error tests little.
struct Stats {
    bool on = std::getenv("DRAWPIPE_FUZZ_STATS") != nullptr;
    uint64_t ops = 0, ok = 0;
    std::array<uint64_t, 16> errors{};
    ~Stats() {
        if (!on) return;
        std::fprintf(stderr, "fuzz_api: %llu operations, %llu without error\n",
                     (unsigned long long)ops, (unsigned long long)ok);
        for (size_t c = 0; c < errors.size(); ++c)
            if (errors[c])
                std::fprintf(stderr, "  %-22s %llu\n", error_code_name(ErrorCode(c)),
                             (unsigned long long)errors[c]);
    }
};
Stats g_stats;

struct Ctx {
    std::unique_ptr<Context> context;
    std::vector<uint64_t> registered;
};

// Built once per process: a Context per input would cost more than the input.
struct Harness {
    alignas(16) std::array<uint8_t, kVertexArena> vertex_arena{};
    alignas(16) std::array<uint8_t, kIndexArena> index_arena{};
    std::vector<MiddleEndRegistry::Entry> middles;
    std::array<Ctx, 3> contexts;
    CountingBackend backend;
    RasterBackend raster{16, 16, {.colour_varying = 0, .depth_test = true, .line_width = 3.0f}};
    // Writes every output it declares (a varying and each kind of special output) from
    // the fetched bits.
    VertexShader vs{[] {
                        ShaderOutputs o;
                        o.add_varying({ValueType::sint32, Interp::flat, 3});
                        o.point_size = true;
                        o.clip_distances = 2;
                        o.layer = o.viewport_index = true;
                        return o;
                    }(),
                    [](const ShaderBlock& b) {
                        for (uint32_t r = 0; r < b.out_count; ++r)
                            for (uint32_t l = 0; l < b.count; ++l)
                                b.out[r][l] = std::bit_cast<float>(
                                    (b.in_count ? std::bit_cast<uint32_t>(b.in[r % b.in_count][l])
                                                : b.vertex_id[l]) *
                                        3 +
                                    1);
                    }};

    Harness() {
        register_builtin_middle_ends();
        middles = MiddleEndRegistry::global().entries();
        for (size_t i = 0; i < kVertexArena; ++i) vertex_arena[i] = uint8_t(i * 37 + 11);
        ContextOptions one; // one thread, inline below the usual thresholds
        one.threads = 1;
        ContextOptions forced; // two threads, the pipeline for every flush
        forced.threads = 2;
        forced.inline_below = 0;
        ContextOptions usual; // two threads, the usual choice between inline and pipeline
        usual.threads = 2;
        const ContextOptions options[] = {one, forced, usual};
        for (size_t i = 0; i < contexts.size(); ++i)
            contexts[i].context = std::make_unique<Context>(options[i]);
    }
};

Harness& harness() {
    static Harness* h = new Harness; // never destroyed: exit must not wait on thread pools
    return *h;
}

// The state an input has bound, mirrored so a draw_serial call can use the same.
struct Bound {
    std::vector<VertexBuffer> buffers;
    std::vector<VertexAttrib> attribs;
    bool vs = false;
    const GeometryShader* gs = nullptr;
    std::shared_ptr<const MiddleEnd> middle;
};

class Driver {
  public:
    Driver(FuzzedDataProvider& in, Harness& h, Ctx& c) : in_(in), h_(h), c_(c), ctx_(*c.context) {}

    // Back to a known state, so an input behaves the same whatever ran before it; the
    // bumps drop the cached splits of the arena's buffers.
    void reset() {
        bound_ = {};
        bound_.middle = MiddleEndRegistry::global().find("fetch_shade");
        ctx_.bind_backend(h_.backend);
        ctx_.bind_middle_end(bound_.middle);
        ctx_.set_vertex_buffers({});
        ctx_.set_vertex_attribs({});
        ctx_.bind_vertex_shader({});
        ctx_.bind_geometry_shader(nullptr);
        ctx_.clear_raster_state();
        ctx_.split_cache().set_budget(SplitCache::kDefaultBudget);
        for (uint64_t id : c_.registered) ctx_.bump_index_buffer(id); // the arena is rewritten
    }

    void step() {
        switch (in_.ConsumeIntegralInRange<int>(0, 12)) {
        case 0:
            return set_buffers();
        case 1:
            return set_attribs();
        case 2:
            bound_.vs = in_.ConsumeBool();
            return ctx_.bind_vertex_shader(bound_.vs ? h_.vs : VertexShader{});
        case 3:
            return bind_gs();
        case 4:
            return bind_middle();
        case 5:
        case 6:
        case 7:
            return ctx_.draw(draw_info());
        case 8:
            ctx_.flush();
            return;
        case 9:
            return cache_op();
        case 10:
            return draw_twice_cached();
        case 11:
            return set_raster();
        default:
            return serial_draw();
        }
    }

  private:
    void set_buffers() {
        bound_.buffers.resize(in_.ConsumeIntegralInRange<size_t>(0, 4));
        for (VertexBuffer& b : bound_.buffers) {
            const size_t at = in_.ConsumeIntegralInRange<size_t>(0, kVertexArena);
            const bool null = in_.ConsumeIntegralInRange<int>(0, 15) == 0;
            b.data = null ? nullptr : h_.vertex_arena.data() + at;
            // Never more than is there: claiming more is the driver's bug, not drawpipe's.
            b.size = null ? 0 : in_.ConsumeIntegralInRange<size_t>(0, kVertexArena - at);
            b.stride = hostile_u32(in_);
            b.offset = hostile_u32(in_);
        }
        ctx_.set_vertex_buffers(bound_.buffers);
    }

    void set_attribs() {
        bound_.attribs.resize(in_.ConsumeIntegralInRange<size_t>(0, kMaxAttribs + 1));
        for (VertexAttrib& a : bound_.attribs) {
            a.buffer = in_.ConsumeIntegralInRange<int>(0, 7) == 0
                           ? hostile_u32(in_)
                           : in_.ConsumeIntegralInRange(0, 4);
            a.offset = hostile_u32(in_);
            // Every Format, and now and then a value that is none.
            a.format = Format(in_.ConsumeIntegralInRange<int>(0, 15) == 0
                                  ? in_.ConsumeIntegral<uint8_t>()
                                  : in_.ConsumeIntegralInRange<int>(0, kFormatCount - 1));
            a.divisor = in_.ConsumeBool() ? 0 : hostile_u32(in_);
            // Now and then a disabled array: its current value, whatever the buffer.
            a.enabled = in_.ConsumeIntegralInRange<int>(0, 7) != 0;
            a.current_type = ValueType(in_.ConsumeIntegralInRange<int>(0, 2));
            for (uint32_t& d : a.current) d = in_.ConsumeIntegral<uint32_t>();
        }
        ctx_.set_vertex_attribs(bound_.attribs);
    }

    // A raster state with hostile values (now and then enums that are none), cleared now and
    // then, in front of the counting or the raster backend.
    void set_raster() {
        if (in_.ConsumeIntegralInRange<int>(0, 7) == 0) return ctx_.clear_raster_state();
        ctx_.bind_backend(in_.ConsumeBool() ? static_cast<Backend&>(h_.raster) : h_.backend);
        auto pick = [&](int values) {
            return uint8_t(in_.ConsumeIntegralInRange<int>(0, 15) == 0
                               ? in_.ConsumeIntegral<uint8_t>()
                               : in_.ConsumeIntegralInRange<int>(0, values - 1));
        };
        RasterState r;
        Viewport& v = r.viewport;
        for (float* f : {&v.x, &v.y, &v.width, &v.height, &v.near, &v.far})
            *f = in_.ConsumeBool() ? hostile_float(in_) : *f;
        if (in_.ConsumeBool()) v.width = v.height = 16; // mostly the image
        r.front_face = FrontFace(pick(2));
        r.cull = CullFace(pick(4));
        r.front_mode = PolygonMode(pick(3));
        r.back_mode = PolygonMode(pick(3));
        r.flatshade = in_.ConsumeBool();
        r.line_stipple = in_.ConsumeBool();
        r.stipple_factor = in_.ConsumeBool() ? in_.ConsumeIntegralInRange(1, 3) : hostile_u32(in_);
        r.stipple_pattern = in_.ConsumeIntegral<uint16_t>();
        for (float* f : {&r.line_width, &r.wide_line_threshold, &r.point_size, &r.offset_factor,
                         &r.offset_units, &r.offset_units_r, &r.offset_clamp})
            *f = in_.ConsumeBool() ? hostile_float(in_) : *f;
        r.sprite_coord_varying = in_.ConsumeBool() ? -1 : hostile_i32(in_) % 4;
        r.sprite_origin_lower_left = in_.ConsumeBool();
        r.offset_fill = in_.ConsumeBool();
        r.offset_line = in_.ConsumeBool();
        r.offset_point = in_.ConsumeBool();
        r.clip_plane_enable =
            in_.ConsumeBool() ? in_.ConsumeIntegralInRange(0, 255) : hostile_u32(in_);
        for (auto& plane : r.clip_planes)
            for (float& c : plane) c = in_.ConsumeBool() ? hostile_float(in_) : 0.0f;
        r.edge_flag_varying = in_.ConsumeBool() ? -1 : hostile_i32(in_) % 4;
        r.clip_vertex_varying = in_.ConsumeBool() ? -1 : hostile_i32(in_) % 4;
        r.front_face_varying = in_.ConsumeBool() ? -1 : hostile_i32(in_) % 4;
        ctx_.set_raster_state(r);
    }

    void bind_gs() {
        const auto library = gs_library();
        const size_t i = in_.ConsumeIntegralInRange<size_t>(0, library.size());
        bound_.gs = i == library.size() ? nullptr : &library[i];
        ctx_.bind_geometry_shader(bound_.gs);
    }

    void bind_middle() {
        const size_t i = in_.ConsumeIntegralInRange<size_t>(0, h_.middles.size());
        if (i < h_.middles.size()) {
            bound_.middle = h_.middles[i].middle;
        } else { // fetch_shade with a hostile limit: 0, below a primitive's minimum, huge
            const uint32_t limit =
                in_.ConsumeBool() ? in_.ConsumeIntegralInRange(0, 8) : hostile_u32(in_);
            bound_.middle = std::make_shared<FetchShade>(limit);
        }
        ctx_.bind_middle_end(bound_.middle);
    }

    DrawInfo draw_info() {
        DrawInfo d;
        d.prim = Prim(in_.ConsumeIntegralInRange<int>(0, 31) == 0
                          ? in_.ConsumeIntegral<uint8_t>()
                          : in_.ConsumeIntegralInRange<int>(0, kPrimCount - 1));
        d.index_type = IndexType(in_.ConsumeIntegralInRange<int>(0, 31) == 0
                                     ? in_.ConsumeIntegral<uint8_t>()
                                     : in_.ConsumeIntegralInRange<int>(0, 3));
        const uint32_t isize = std::max<uint32_t>(index_size(d.index_type), 1);
        if (in_.ConsumeIntegralInRange<int>(0, 15) != 0) {
            d.indices = h_.index_arena.data();
            d.index_buffer_count = in_.ConsumeIntegralInRange<uint32_t>(0, kIndexArena / isize);
        } else { // null: only a count of 0 may use it, whatever the buffer count says
            d.index_buffer_count = hostile_u32(in_);
        }
        d.start = hostile_u32(in_);
        d.count = hostile_u32(in_);
        if (in_.ConsumeBool()) { // mostly inside the buffer, where the draw is drawn
            d.start = d.index_buffer_count ? d.start % d.index_buffer_count : 0;
            d.count = uint32_t(d.count % (uint64_t(d.index_buffer_count) - d.start + 1));
        }
        d.base_vertex = in_.ConsumeBool() ? 0 : hostile_i32(in_);
        d.primitive_restart = in_.ConsumeBool();
        d.restart_index = hostile_u32(in_); // 0x1FF does not fit u8, 0xFFFF is u16's ...
        d.instance_count = in_.ConsumeBool() ? in_.ConsumeIntegralInRange(0, 3) : hostile_u32(in_);
        d.base_instance = in_.ConsumeBool() ? 0 : hostile_u32(in_);
        d.provoking = in_.ConsumeBool() ? Provoking::first : Provoking::last;
        if (in_.ConsumeBool()) // given, and as often as not wrong (release builds trust it)
            d.index_range = IndexRange{hostile_u32(in_), hostile_u32(in_)};
        d.index_buffer_id = buffer_id();
        bound_work(d);
        return d;
    }

    // Keeps a draw that would be drawn under kMaxDrawWork, leaving alone the fields that make
    // it an error (the errors are what is under test, and cost nothing).
    void bound_work(DrawInfo& d) {
        const uint64_t cap = bound_.gs ? kMaxGsDrawWork : kMaxDrawWork;
        if (uint64_t(d.count) * std::max<uint32_t>(d.instance_count, 1) <= cap) return;
        const bool overflows =
            uint64_t(d.start) + d.count > UINT32_MAX ||
            uint64_t(d.base_instance) + d.instance_count > uint64_t(UINT32_MAX) + 1;
        const bool overruns =
            d.index_type != IndexType::none && uint64_t(d.start) + d.count > d.index_buffer_count;
        if (overflows || overruns) return;
        if (d.count > cap) d.count = uint32_t(d.count % cap);
        d.instance_count =
            uint32_t(std::min<uint64_t>(d.instance_count, cap / std::max(d.count, 1u)));
    }

    // 0, a registered buffer, or an id nobody registered.
    uint64_t buffer_id() {
        switch (in_.ConsumeIntegralInRange<int>(0, 3)) {
        case 0:
        case 1:
            if (c_.registered.empty()) return 0;
            return c_.registered[in_.ConsumeIntegralInRange<size_t>(0, c_.registered.size() - 1)];
        case 2:
            return in_.ConsumeIntegral<uint64_t>();
        default:
            return 0;
        }
    }

    void cache_op() {
        switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
        case 0:
            if (c_.registered.size() < kMaxRegistered)
                c_.registered.push_back(ctx_.register_index_buffer());
            return;
        case 1:
            return ctx_.bump_index_buffer(buffer_id()); // unknown ids: Error(not_found)
        default: {
            const size_t budgets[] = {0,
                                      1,
                                      64,
                                      4096,
                                      size_t(1) << 20,
                                      SplitCache::kDefaultBudget,
                                      SIZE_MAX,
                                      hostile_u32(in_)};
            return ctx_.split_cache().set_budget(in_.PickValueInArray(budgets));
        }
        }
    }

    // The same draw twice: the second replays the split the first recorded (when the budget
    // and the id let it), with the first still queued.
    void draw_twice_cached() {
        DrawInfo d = draw_info();
        if (!c_.registered.empty()) d.index_buffer_id = c_.registered.front();
        ctx_.draw(d);
        d.base_vertex = in_.ConsumeBool() ? d.base_vertex : hostile_i32(in_);
        ctx_.draw(d);
    }

    // The one-thread path with the bound state and a hostile forced limit and strategy.
    void serial_draw() {
        const DrawInfo d = draw_info();
        DrawOptions o;
        o.strategy = *Strategy::parse(in_.PickValueInArray(kStrategies));
        o.max_vertices = in_.ConsumeBool() ? in_.ConsumeIntegralInRange(0, 8) : hostile_u32(in_);
        if (in_.ConsumeBool()) o.split_cache = &ctx_.split_cache();
        const DrawState state{
            d, {bound_.buffers, bound_.attribs}, bound_.vs ? &h_.vs : nullptr, bound_.gs};
        CountingBackend backend;
        draw_serial(state, *bound_.middle, backend, o);
    }

    FuzzedDataProvider& in_;
    Harness& h_;
    Ctx& c_;
    Context& ctx_;
    Bound bound_;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Harness& h = harness();
    FuzzedDataProvider in(data, size);
    Ctx& c = h.contexts[in.ConsumeIntegralInRange<size_t>(0, h.contexts.size() - 1)];
    // Index values from the input: arbitrary 32-bit vertex ids, restart values among them.
    // At most half the input, so the operations keep bytes of their own.
    const size_t n =
        in.ConsumeIntegralInRange<size_t>(0, std::min(kIndexArena, in.remaining_bytes() / 2));
    const std::vector<uint8_t> indices = in.ConsumeBytes<uint8_t>(n);
    std::fill(h.index_arena.begin(), h.index_arena.end(), uint8_t(0));
    std::copy(indices.begin(), indices.end(), h.index_arena.begin());

    Driver driver(in, h, c);
    driver.reset();
    for (int op = 0; op < kMaxOps && in.remaining_bytes() > 0; ++op) {
        ++g_stats.ops;
        try {
            driver.step();
            ++g_stats.ok;
        } catch (const Error& e) {
            ++g_stats.errors[size_t(e.code()) % g_stats.errors.size()];
        }
    }
    try {
        c.context->flush(); // every queued draw is drawn before its buffers go
    } catch (const Error&) {
    }
    // Release what the input made (cached splits, a middle end it bound): an input that ends
    // with more allocated than it started makes libFuzzer re-run it under a full leak scan.
    driver.reset();
    return 0;
}
