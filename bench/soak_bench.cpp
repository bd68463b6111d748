// Soak: a long run of a Context as a driver uses it, to show its memory stays flat and its
// output stays right. Not a timed benchmark: it prints figures and checks them.
//
// A 2-thread Context takes N random draws (default 1,000,000: every primitive, u8/u16/u32
// index buffers and linear draws, restart, base vertex, instancing, a correct index_range
// now and then) in flushes of 1-32 draws. Between flushes the state changes at random:
// vertex buffers and attributes (formats, strides, divisors), the vertex shader on or off,
// the middle end (every registered one that takes plain draws), and index buffers are
// bumped (rewritten) or re-registered (a driver replacing a buffer; the split cache keeps
// their splits until they are evicted). Half the indexed draws go through the split cache.
//
// Every --check-every'th flush (1000) is drawn into a TraceBackend and compared with the
// same draws through draw_serial (the one-thread reference); a difference exits 1. Peak RSS
// (VmHWM) and RSS are printed at 10K, 100K and 1M draws and at the end.
//
//   soak_bench [--draws N] [--check-every K] [--threads T] [--cache-mib M] [--seed S]
//              [--middle-ends fetch_shade,mali,...]
//   soak_bench --smoke     3000 draws, every 10th flush checked (ctest smoke_soak_bench)
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;

struct Options {
    uint64_t draws = 1'000'000;
    uint64_t check_every = 1000;
    uint32_t threads = 2;
    size_t cache_mib = 8; // small enough that the cache is full long before 10K draws
    uint32_t seed = 18;
    std::string middle_ends; // comma-separated names to keep; empty: every one that fits
};

// "VmHWM" (peak) or "VmRSS" (now) of /proc/self/status, in KiB.
long status_kib(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    const size_t n = std::strlen(key);
    while (std::getline(f, line))
        if (line.compare(0, n, key) == 0 && line.size() > n && line[n] == ':')
            return std::strtol(line.c_str() + n + 1, nullptr, 10);
    return -1;
}

constexpr uint32_t kVertexElements = 1 << 16; // per vertex buffer; reads past it are zeros
constexpr uint32_t kMaxDrawCount = 300;

// An index buffer the "driver" owns: rewritten after a bump, replaced by re-registering.
struct IndexBuffer {
    IndexType type = IndexType::u16;
    std::vector<uint8_t> bytes;
    uint32_t count = 0;
    uint32_t restart = 0;            // the value this buffer's restart draws use
    IndexRange all, without_restart; // raw bounds, with and without the restart value
    uint64_t id = 0;
};

class Soak {
  public:
    explicit Soak(const Options& o) : o_(o), rng_(o.seed) {
        register_builtin_middle_ends();
        ContextOptions co;
        co.threads = o.threads;
        ctx_ = std::make_unique<Context>(co);
        ctx_->split_cache().set_budget(o.cache_mib << 20);
        find_plain_middle_ends();
        for (uint32_t b = 0; b < 4; ++b) {
            auto& v = vertex_data_.emplace_back(size_t(kVertexElements) * 4);
            for (size_t k = 0; k < v.size(); ++k)
                v[k] = b % 2 ? uint32_t(k * 2654435761u) : float_dword(float(k) * 0.25f);
        }
        index_buffers_.resize(32);
        for (IndexBuffer& ib : index_buffers_) {
            ib.id = ctx_->register_index_buffer();
            rewrite(ib);
        }
        change_vertex_input();
        ctx_->bind_middle_end(middles_[0]);
        ctx_->bind_backend(counting_);
    }

    int run() {
        const auto t0 = std::chrono::steady_clock::now();
        uint64_t flushes = 0, next_report = 10'000;
        while (drawn_ < o_.draws) {
            change_state();
            const bool check = flushes % o_.check_every == 0;
            if (check) ctx_->bind_backend(trace_);
            const int k = uni(1, 32);
            for (int i = 0; i < k && drawn_ < o_.draws; ++i) issue_draw(check);
            ctx_->flush();
            if (check) {
                if (!matches_reference(flushes)) return 1;
                ctx_->bind_backend(counting_);
                ++checked_;
            }
            ++flushes;
            while (drawn_ >= next_report) {
                report(next_report, t0);
                next_report *= next_report < 1'000'000 ? 10 : 2;
            }
        }
        if (drawn_ * 10 != next_report && drawn_ * 2 != next_report) report(drawn_, t0);
        std::printf("%llu draws in %llu flushes, %llu refused by their middle end, %llu flushes "
                    "checked against draw_serial: all equal\n",
                    (unsigned long long)drawn_, (unsigned long long)flushes,
                    (unsigned long long)refused_, (unsigned long long)checked_);
        return 0;
    }

  private:
    int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool one_in(int n) { return uni(0, n - 1) == 0; }

    // The registered middle ends that take a plain indexed draw (no GS).
    void find_plain_middle_ends() {
        const uint16_t idx[3] = {0, 1, 2};
        DrawInfo d;
        d.index_type = IndexType::u16;
        d.indices = idx;
        d.index_buffer_count = d.count = 3;
        for (const auto& e : MiddleEndRegistry::global().entries()) {
            if (!o_.middle_ends.empty() &&
                ("," + o_.middle_ends + ",").find("," + e.name + ",") == std::string::npos)
                continue;
            try {
                if (e.middle->prepare({d, {}, nullptr, nullptr})) middles_.push_back(e.middle);
            } catch (const Error&) {
            }
        }
        if (middles_.empty()) throw std::invalid_argument("no middle end to draw with");
        std::printf("middle ends taking plain draws:");
        for (const auto& m : middles_)
            std::printf(" %.*s", int(m->name().size()), m->name().data());
        std::printf("\n");
    }

    // New contents for an index buffer (the caller has bumped it or registered it anew).
    void rewrite(IndexBuffer& ib) {
        ib.type = IndexType(uni(1, 3));
        const uint32_t size = index_size(ib.type);
        ib.count = uint32_t(one_in(4) ? uni(1000, 6000) : uni(8, 400));
        const uint32_t max_value = ib.type == IndexType::u8    ? 0xFF
                                   : ib.type == IndexType::u16 ? 0xFFFF
                                                               : 1u << 20;
        const uint32_t span =
            std::min<uint32_t>(max_value, one_in(3) ? kVertexElements : uni(8, 600));
        ib.restart = ib.type == IndexType::u32 ? 0xFFFFFFFFu : max_value;
        ib.bytes.assign(size_t(ib.count) * size, 0);
        ib.all = {UINT32_MAX, 0};
        ib.without_restart = {UINT32_MAX, 0};
        for (uint32_t i = 0; i < ib.count; ++i) {
            const uint32_t v = one_in(40) ? ib.restart : uint32_t(uni(0, int(span)));
            std::memcpy(ib.bytes.data() + size_t(i) * size, &v, size);
            ib.all = {std::min(ib.all.min, v), std::max(ib.all.max, v)};
            if (v != ib.restart)
                ib.without_restart = {std::min(ib.without_restart.min, v),
                                      std::max(ib.without_restart.max, v)};
        }
    }

    void change_vertex_input() {
        buffers_.clear();
        const int nb = uni(1, 3);
        for (int b = 0; b < nb; ++b) {
            const auto& data = vertex_data_[size_t(uni(0, 3))];
            const uint32_t stride = uint32_t(4 * uni(0, 6)); // 0: every element aliases
            buffers_.push_back({data.data(), data.size() * 4, stride, uint32_t(4 * uni(0, 8))});
        }
        attribs_.clear();
        const int na = uni(0, 4);
        for (int a = 0; a < na; ++a) {
            const uint32_t divisor = one_in(4) ? uint32_t(uni(1, 3)) : 0;
            attribs_.push_back({uint32_t(uni(0, nb - 1)), uint32_t(4 * uni(0, 4)),
                                Format(uni(0, kFormatCount - 1)), divisor});
        }
        ctx_->set_vertex_buffers(buffers_);
        ctx_->set_vertex_attribs(attribs_);
    }

    // Between flushes, as a driver changes state between batches of draws.
    void change_state() {
        if (one_in(20)) change_vertex_input();
        if (one_in(30)) {
            vs_on_ = !vs_on_;
            ctx_->bind_vertex_shader(vs_on_ ? vs_ : VertexShader{});
        }
        if (one_in(25)) {
            middle_ = size_t(uni(0, int(middles_.size()) - 1));
            ctx_->bind_middle_end(middles_[middle_]);
        }
        if (one_in(10)) { // a buffer's contents change: bump, then write (queue is empty)
            IndexBuffer& ib = index_buffers_[size_t(uni(0, 31))];
            ctx_->bump_index_buffer(ib.id);
            rewrite(ib);
        }
        if (one_in(200)) { // a buffer replaced by a new one
            IndexBuffer& ib = index_buffers_[size_t(uni(0, 31))];
            ib.id = ctx_->register_index_buffer();
            rewrite(ib);
        }
    }

    DrawInfo random_draw() {
        DrawInfo d;
        d.prim = Prim(uni(0, int(Prim::patches) - 1)); // patches need tessellation shaders
        d.provoking = one_in(2) ? Provoking::first : Provoking::last;
        d.instance_count = one_in(8) ? uint32_t(uni(0, 6)) : 1;
        d.base_instance = one_in(8) ? uint32_t(uni(0, 10)) : 0;
        if (one_in(4)) { // linear
            d.start = uint32_t(uni(0, 1000));
            d.count = uint32_t(uni(0, kMaxDrawCount));
            return d;
        }
        const IndexBuffer& ib = index_buffers_[size_t(uni(0, 31))];
        d.index_type = ib.type;
        d.indices = ib.bytes.data();
        d.index_buffer_count = ib.count;
        d.start = uint32_t(uni(0, int(ib.count) - 1));
        d.count = uint32_t(uni(0, int(std::min(ib.count - d.start, kMaxDrawCount))));
        if (one_in(10)) d.start = 0, d.count = ib.count; // the whole buffer
        d.base_vertex = one_in(3) ? uni(0, 1000) : 0;
        d.primitive_restart = one_in(3);
        d.restart_index = ib.restart;
        // Without restart, a u32 buffer's 0xFFFFFFFF is an index: base vertex would overflow.
        if (ib.type == IndexType::u32 && !d.primitive_restart) d.base_vertex = 0;
        if (one_in(3)) d.index_range = d.primitive_restart ? ib.without_restart : ib.all;
        if (d.index_range && d.index_range->min > d.index_range->max) d.index_range.reset();
        if (one_in(2)) d.index_buffer_id = ib.id;
        return d;
    }

    void issue_draw(bool record) {
        const DrawInfo d = random_draw();
        try {
            ctx_->draw(d);
        } catch (const Error&) {
            ++refused_; // a middle end's own limits (Mali's linear id bits, say)
            return;
        }
        ++drawn_;
        if (record) recorded_.push_back(d);
    }

    // The flush's trace against the same draws through draw_serial, one thread, no cache.
    bool matches_reference(uint64_t flush) {
        TraceBackend reference;
        const DrawState state{{}, {buffers_, attribs_}, vs_on_ ? &vs_ : nullptr, nullptr};
        for (const DrawInfo& d : recorded_) {
            DrawState s = state;
            s.draw = d;
            s.draw.index_buffer_id = 0;
            draw_serial(s, *middles_[middle_], reference);
        }
        recorded_.clear();
        const bool same = reference.text() == trace_.text();
        if (!same)
            std::fprintf(stderr,
                         "soak: flush %llu (middle end %.*s, vs %s): the %u-thread Context drew "
                         "%zu bytes of trace, draw_serial %zu, and they differ\n",
                         (unsigned long long)flush, int(middles_[middle_]->name().size()),
                         middles_[middle_]->name().data(), vs_on_ ? "on" : "off", o_.threads,
                         trace_.text().size(), reference.text().size());
        trace_.clear();
        return same;
    }

    void report(uint64_t at, std::chrono::steady_clock::time_point t0) const {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const SplitCacheStats cs = ctx_->split_cache().stats();
        // Heap in use tells live memory from what the allocator keeps for reuse.
        const struct mallinfo2 mi = mallinfo2();
        std::printf("%9llu draws: peak RSS %6.1f MiB, RSS %6.1f MiB, heap in use %6.1f MiB, split "
                    "cache %5.2f MiB in %zu entries (%llu hits), %.1f s, %.0f draws/s\n",
                    (unsigned long long)at, status_kib("VmHWM") / 1024.0,
                    status_kib("VmRSS") / 1024.0, double(mi.uordblks + mi.hblkhd) / 1048576.0,
                    cs.bytes / 1048576.0, cs.entries, (unsigned long long)cs.hits, s,
                    double(drawn_) / s);
        std::fflush(stdout);
    }

    Options o_;
    std::mt19937 rng_;
    std::unique_ptr<Context> ctx_;
    std::vector<std::shared_ptr<const MiddleEnd>> middles_;
    size_t middle_ = 0;
    std::vector<std::vector<uint32_t>> vertex_data_;
    std::vector<VertexBuffer> buffers_;
    std::vector<VertexAttrib> attribs_;
    std::vector<IndexBuffer> index_buffers_;
    bool vs_on_ = false;
    // Position and one varying from the first attribute's bits, scaled.
    const VertexShader vs_{
        [] {
            ShaderOutputs o;
            o.add_varying({ValueType::uint32, Interp::flat, 4});
            return o;
        }(),
        [](const ShaderBlock& b) {
            for (uint32_t c = 0; c < 8; ++c)
                for (uint32_t l = 0; l < b.count; ++l)
                    b.out[c][l] = std::bit_cast<float>(
                        b.in_count ? std::bit_cast<uint32_t>(b.in[c % 4][l]) * 3 + 1 : c);
        }};
    CountingBackend counting_;
    TraceBackend trace_;
    std::vector<DrawInfo> recorded_;
    uint64_t drawn_ = 0, refused_ = 0, checked_ = 0;
};

bool parse_args(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> unsigned long long {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return std::stoull(argv[++i]);
        };
        if (a == "--smoke") {
            o.draws = 3000;
            o.check_every = 10;
        } else if (a == "--draws") {
            o.draws = value();
        } else if (a == "--check-every") {
            o.check_every = std::max(1ull, value());
        } else if (a == "--threads") {
            o.threads = uint32_t(value());
        } else if (a == "--cache-mib") {
            o.cache_mib = size_t(value());
        } else if (a == "--seed") {
            o.seed = uint32_t(value());
        } else if (a == "--middle-ends") {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            o.middle_ends = argv[++i];
        } else {
            std::fprintf(stderr, "soak_bench: unknown argument '%s' (see the file's header)\n",
                         a.c_str());
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    try {
        if (!parse_args(argc, argv, o)) return 2;
        std::printf("soak: %llu draws, %u threads, split cache %zu MiB, seed %u, every %llu-th "
                    "flush checked\n",
                    (unsigned long long)o.draws, o.threads, o.cache_mib, o.seed,
                    (unsigned long long)o.check_every);
        return Soak(o).run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "soak_bench: %s\n", e.what());
        return 1;
    }
}
