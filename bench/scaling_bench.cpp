// scaling_bench: how the whole draw scales with threads (issue 29 part 5). A plain program
// that needs no GL: it drives the draw through the public API as a driver does, a
// drawpipe::Context with ContextOptions::threads = T, the `fetch_shade_simd` middle end, a 4x4
// matrix vertex shader through the batched ShaderBlock interface, a RasterState with the clip
// test and viewport on (the matrix keeps every vertex inside the view volume, so nothing is
// clipped), and the counting backend.
//
//   scaling_bench [--threads 1,2,4,8,16] [--rounds N] [--reps N] [--workloads KEY,KEY,...]
//                 [--mesh FILE] [--parallel-backend] [--unchecked] [--smoke]
//
// --parallel-backend: the counting backend takes batches from the shading threads
// (Backend::takes_parallel_batches), as a binning rasterizer would; default: ordered.
// --unchecked: DrawOptions::check_middle_end off, to measure what the check costs.
//
// Workload keys (all by default; workloads/workloads.hpp defines W1-W7):
//   W1 W3 W7               grid triangles, random triangles, strip with restart (u32)
//   W1cull W3cull W7cull   the same with back-face culling (none, about half, all culled)
//   bunny                  glmark2-data's bunny.obj (--mesh FILE; skipped when not found)
//   small                  8192 draws of 96 of W1's indices, queued with draw(), flushed once
//
// Every round runs every workload at every thread count, beside the front end alone on the
// same draw (split only, the internal FrontEnd into a null middle end, as front_end_bench)
// and a limit loop at every thread count: tbb::parallel_for over 4096-index chunks of the
// same indices, each gathering its float4 positions and transforming them by the matrix
// into a cache-resident block, work that divides perfectly, so its speed-up is what the
// machine gives T threads at that moment. Workloads and the configurations inside each take
// a rotating order from round to round; each configuration runs --reps times (default 3)
// back to back and the round keeps its best. It prints, per workload, the 1-thread median (and
// best) time, ns per triangle (us per draw for the small draws), the front end's share of
// the 1-thread time (the serial part), the culled fraction the counting backend saw, and
// per thread count the median of per-round speed-ups over one thread with, in brackets, the
// median per-round ratio of that speed-up to the limit loop's (issue 29's 2-thread goal:
// 0.95). Then the cost of culling at one thread and of one small draw. Every thread count
// must deliver the same primitives (counting backend totals and checksum): a mismatch is
// printed and the exit status is 1. Round 0 warms up and is not counted.
#include "bench/matrix_shader.hpp"
#include "bench/rounds.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "drawpipe/registry.hpp"
#include "workloads/measure.hpp"
#include "workloads/mesh.hpp"
#include "workloads/workloads.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

constexpr const char* kDefaultMesh = "/usr/share/glmark2/models/bunny.obj";
constexpr uint32_t kSmallDraws = 8192, kSmallIndices = 96;
constexpr uint32_t kLimitChunk = 4096;

// mesa_draw_bench's matrix (row-major: out[r] = sum_c M[4r + c] * pos[c]), read at run time so
// no compiler folds its zeros: maps the [0, 1]^2 grid (z 0.5, w 1) to x in [-0.55, 0.65],
// y in [-0.65, 0.85], z -0.7, w 0.9, inside the view volume.
float g_matrix[16] = {1.2f, 0.0f, 0.1f,  -0.6f, 0.0f, 1.5f, 0.2f,  -0.75f,
                      0.0f, 0.0f, -1.0f, -0.2f, 0.0f, 0.0f, -0.2f, 1.0f};

// The vertex shader as a driver's SIMD shader would be written (bench/matrix_shader.hpp).
void matrix_vs(const ShaderBlock& b) {
    matrix_block(b, g_matrix);
}

struct Options {
    std::vector<uint32_t> threads{1, 2};
    int rounds = 15;
    int reps = 3; // runs of each configuration per round, the best kept
    std::vector<std::string> workloads{"W1",     "W3",     "W7",    "W1cull",
                                       "W3cull", "W7cull", "bunny", "small"};
    std::string mesh = kDefaultMesh;
    bool smoke = false;
    bool parallel_backend = false; // the counting backend takes batches from the shading threads
    bool unchecked = false;        // DrawOptions::check_middle_end off (its cost, bench/README)
};

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t comma = std::min(s.find(',', pos), s.size());
        if (comma > pos) out.push_back(s.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

// A source of indices and positions: a generated workload or a mesh.
struct Source {
    Workload w;
    std::vector<float> positions; // float4 per vertex
    VertexBuffer buffer;
    VertexAttrib attrib{0, 0, Format::float32x4, 0};
    std::vector<uint32_t> indices; // u32 copy for the limit loop (restarts included)
};

// One measured workload: a draw (or the queue of small draws) and its state.
struct Input {
    std::string key, label;
    const Source* src = nullptr;
    bool cull = false;
    uint32_t draws = 1, per_draw = 0; // draws > 1: `draws` draws of `per_draw` indices
    uint32_t index_count = 0;         // of the whole input (every draw)
    FrontEndOptions split;            // what the middle end's prepare gives the front end
    uint64_t triangles = 0;           // decomposed triangles without culling
    CountingBackend::Totals ref;      // what one thread delivered
    std::vector<std::vector<double>> draw_s, limit_s; // [thread count index][round]
    std::vector<double> front_s;
};

// The limit loop on indices [first, last) of `src`: gather, transform into the block.
float limit_chunk(const Source& src, size_t first, size_t last, float* block) {
    const float* m = g_matrix;
    const float* pos = src.positions.data();
    const uint32_t vertices = uint32_t(src.positions.size() / 4);
    float sum = 0;
    for (size_t base = first; base < last; base += kLimitChunk) {
        const size_t n = std::min<size_t>(kLimitChunk, last - base);
        for (size_t i = 0; i < n; ++i) {
            uint32_t id = src.indices[base + i];
            if (id >= vertices) id = 0;
            const float* v = pos + 4 * size_t(id);
            for (int r = 0; r < 4; ++r)
                block[4 * i + r] = m[4 * r] * v[0] + m[4 * r + 1] * v[1] + m[4 * r + 2] * v[2] +
                                   m[4 * r + 3] * v[3];
        }
        sum += block[4 * (n - 1)] + block[1];
    }
    return sum;
}

float g_limit_sink = 0;

double run_limit(tbb::task_arena& arena, const Source& src, size_t count) {
    const size_t chunks = (count + kLimitChunk - 1) / kLimitChunk;
    std::vector<float> sums(chunks);
    const auto t0 = Clock::now();
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<size_t>(0, chunks), [&](const auto& r) {
            alignas(64) float block[4 * kLimitChunk];
            for (size_t c = r.begin(); c != r.end(); ++c)
                sums[c] = limit_chunk(src, c * kLimitChunk, std::min(count, (c + 1) * kLimitChunk),
                                      block);
        });
    });
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    for (float x : sums) g_limit_sink += x;
    return s;
}

// One thread count's context, set up as a driver would.
struct Driver {
    Driver(uint32_t threads, bool parallel_backend, bool unchecked)
        : ctx(make_options(threads, unchecked)), backend(parallel_backend) {
        ctx.bind_middle_end("fetch_shade_simd");
        ctx.bind_backend(backend);
        ctx.bind_vertex_shader(VertexShader{{}, matrix_vs});
    }
    static ContextOptions make_options(uint32_t threads, bool unchecked) {
        ContextOptions o;
        o.threads = threads;
        o.draw.check_middle_end = !unchecked;
        return o;
    }
    Context ctx;
    CountingBackend backend;
};

RasterState raster(bool cull) {
    RasterState r;
    r.viewport = {0, 0, 1024, 1024, 0, 1};
    r.cull = cull ? CullFace::back : CullFace::none;
    return r;
}

// The input's draws through `d`, flushed; returns the seconds from the first draw() to the
// end of flush().
double run_draw(Driver& d, const Input& in, bool cull) {
    d.ctx.set_vertex_buffers({&in.src->buffer, 1});
    d.ctx.set_vertex_attribs({&in.src->attrib, 1});
    d.ctx.set_raster_state(raster(cull));
    d.backend.reset();
    DrawInfo info = in.src->w.draw();
    const auto t0 = Clock::now();
    if (in.draws == 1) {
        d.ctx.draw(info);
    } else {
        info.count = in.per_draw;
        for (uint32_t i = 0; i < in.draws; ++i) {
            info.start = i * in.per_draw;
            d.ctx.draw(info);
        }
    }
    d.ctx.flush();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double run_front(FrontEnd& front, SegmentStorage& storage, const Input& in) {
    DrawInfo info = in.src->w.draw();
    if (in.draws == 1) return run_front_end(front, storage, info, in.split).seconds;
    // The small draws: one clock around them all (run_front_end reads it per draw).
    info.count = in.per_draw;
    NullMiddleEnd null;
    Segment seg;
    const auto t0 = Clock::now();
    for (uint32_t i = 0; i < in.draws; ++i) {
        info.start = i * in.per_draw;
        front.begin(info, in.split);
        front.drain(storage, seg, [&](const Segment& s) { null.consume(s); });
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    g_limit_sink += float(null.sum & 1);
    return s;
}

// Smoke mode keeps the first `n` indices (W7's rows end in restarts, so any cut is legal).
void shorten(Workload& w, uint32_t n) {
    n = std::min(n, w.count);
    if (!w.primitive_restart) n -= n % 3;
    if (w.index_type == IndexType::u16) w.indices16.resize(n);
    if (w.index_type == IndexType::u32) w.indices32.resize(n);
    w.count = n;
}

void fill_indices(Source& s) {
    if (s.w.index_type == IndexType::u32)
        s.indices = s.w.indices32;
    else
        s.indices.assign(s.w.indices16.begin(), s.w.indices16.end());
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown CPU";
}

int usage() {
    std::fprintf(stderr, "usage: scaling_bench [--threads 1,2,4,8,16] [--rounds N] [--reps N] "
                         "[--workloads W1,W3,W7,W1cull,W3cull,W7cull,bunny,small] [--mesh FILE] "
                         "[--parallel-backend] [--unchecked] [--smoke]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    Options opt;
    bool rounds_given = false;
    std::string command = "scaling_bench";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        command += " " + a;
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) return {};
            command += std::string(" ") + argv[i + 1];
            return argv[++i];
        };
        if (a == "--smoke") {
            opt.smoke = true;
        } else if (a == "--threads") {
            opt.threads.clear();
            for (const std::string& t : split_list(value())) {
                const long n = std::strtol(t.c_str(), nullptr, 10);
                if (n < 1 || n > long(kMaxThreads)) return usage();
                opt.threads.push_back(uint32_t(n));
            }
        } else if (a == "--rounds") {
            opt.rounds = std::atoi(value().c_str());
            rounds_given = true;
            if (opt.rounds < 1) return usage();
        } else if (a == "--reps") {
            opt.reps = std::atoi(value().c_str());
            if (opt.reps < 1) return usage();
        } else if (a == "--workloads") {
            opt.workloads = split_list(value());
        } else if (a == "--parallel-backend") {
            opt.parallel_backend = true;
        } else if (a == "--unchecked") {
            opt.unchecked = true;
        } else if (a == "--mesh") {
            opt.mesh = value();
        } else {
            return usage();
        }
    }
    // One thread is always the baseline, first.
    opt.threads.erase(std::remove(opt.threads.begin(), opt.threads.end(), 1u), opt.threads.end());
    opt.threads.insert(opt.threads.begin(), 1u);
    if (opt.smoke && !rounds_given) opt.rounds = 1;
    if (opt.smoke) opt.reps = 1;
    const size_t nt = opt.threads.size();

    try {
        // Sources: the grid workloads over kGridSide^2 float4 positions, the mesh in the
        // grid's [0, 1]^2 with z in [0.4, 0.6], where the matrix keeps it inside.
        std::deque<Source> sources;
        auto grid_source = [&](const char* id) -> const Source* {
            for (const Source& s : sources)
                if (s.w.id == id) return &s;
            Source& s = sources.emplace_back();
            s.w = make_workload(id);
            if (opt.smoke) shorten(s.w, 60000);
            s.positions = grid_positions(1.0f / (kGridSide - 1));
            return &s;
        };
        std::vector<Input> inputs;
        for (const std::string& key : opt.workloads) {
            Input in;
            in.key = key;
            if (key == "W1" || key == "W3" || key == "W7" || key == "W1cull" || key == "W3cull" ||
                key == "W7cull") {
                in.src = grid_source(key.substr(0, 2).c_str());
                in.cull = key.size() > 2;
                in.label = in.src->w.label() + (in.cull ? ", cull back" : "");
            } else if (key == "small") {
                in.src = grid_source("W1");
                in.draws = opt.smoke ? 256 : kSmallDraws;
                in.per_draw = kSmallIndices;
                in.label = std::to_string(in.draws) + " draws x " + std::to_string(kSmallIndices) +
                           " indices (W1)";
            } else if (key == "bunny") {
                Workload w;
                try {
                    w = load_mesh(opt.mesh);
                } catch (const Error& e) {
                    std::printf("bunny skipped: %s\n", e.what());
                    continue;
                }
                Source& s = sources.emplace_back();
                float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
                for (size_t v = 0; v < w.vertex_count; ++v)
                    for (int c = 0; c < 3; ++c) {
                        lo[c] = std::min(lo[c], w.positions[3 * v + c]);
                        hi[c] = std::max(hi[c], w.positions[3 * v + c]);
                    }
                const float sc =
                    1.0f / std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30f});
                s.positions.reserve(size_t(w.vertex_count) * 4);
                for (size_t v = 0; v < w.vertex_count; ++v)
                    s.positions.insert(s.positions.end(),
                                       {(w.positions[3 * v] - lo[0]) * sc,
                                        (w.positions[3 * v + 1] - lo[1]) * sc,
                                        0.4f + 0.2f * (w.positions[3 * v + 2] - lo[2]) * sc, 1.0f});
                s.w = std::move(w);
                in.src = &s;
                in.label = s.w.id + " (mesh)";
            } else {
                std::fprintf(stderr, "scaling_bench: unknown workload '%s'\n", key.c_str());
                return usage();
            }
            inputs.push_back(std::move(in));
        }
        for (Source& s : sources) {
            s.buffer = {s.positions.data(), s.positions.size() * sizeof(float), 16, 0};
            fill_indices(s);
        }
        const std::shared_ptr<const MiddleEnd> middle =
            MiddleEndRegistry::global().find("fetch_shade_simd");
        const VertexShader vs{{}, matrix_vs};
        for (Input& in : inputs) {
            in.index_count = in.draws == 1 ? in.src->w.count : in.draws * in.per_draw;
            const DrawState state{
                in.src->w.draw(), {{&in.src->buffer, 1}, {&in.src->attrib, 1}}, &vs, nullptr};
            in.split = {middle->prepare(state)->limits(), {}};
            in.draw_s.resize(nt);
            in.limit_s.resize(nt);
        }

        std::vector<std::unique_ptr<Driver>> drivers;
        std::vector<std::unique_ptr<tbb::task_arena>> arenas;
        for (uint32_t t : opt.threads) {
            drivers.push_back(std::make_unique<Driver>(t, opt.parallel_backend, opt.unchecked));
            arenas.push_back(std::make_unique<tbb::task_arena>(int(t)));
        }
        FrontEnd front;
        SegmentStorage storage;

        char date[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
        std::printf("%s\n%s; %s, %u hardware threads; fetch_shade_simd on %s\n", command.c_str(),
                    date, cpu_model().c_str(), default_thread_count(),
                    std::string(simd_target()).c_str());
        std::printf(
            "Context, 4x4 matrix VS (ShaderBlock), clip test + viewport (nothing "
            "clipped), counting backend (%s); %d rounds after a warm-up round, best of %d runs "
            "per configuration and round\n",
            opt.parallel_backend ? "parallel batches" : "ordered", opt.rounds, opt.reps);
        std::fflush(stdout);

        // What one thread delivers, with culling and without: the reference for every
        // thread count and the culled fraction.
        bool mismatch = false;
        for (Input& in : inputs) {
            run_draw(*drivers[0], in, false);
            in.triangles = drivers[0]->backend.totals().triangles;
            run_draw(*drivers[0], in, in.cull);
            in.ref = drivers[0]->backend.totals();
        }

        // Rounds: the inputs in a rotating order, and inside each input its draws at every
        // thread count, its limit loops and its front end, also rotating.
        for (int round = 0; round <= opt.rounds; ++round) {
            for (size_t g = 0; g < inputs.size(); ++g) {
                Input& in = inputs[(g + size_t(round)) % inputs.size()];
                const size_t nc = 2 * nt + 1;
                for (size_t k = 0; k < nc; ++k) {
                    const size_t c = (k + size_t(round)) % nc;
                    // Each configuration runs `reps` times back to back; the round keeps
                    // its best (noise only ever adds time).
                    double s = 1e30;
                    for (int rep = 0; rep < opt.reps; ++rep) {
                        if (c < nt) {
                            s = std::min(s, run_draw(*drivers[c], in, in.cull));
                            const CountingBackend::Totals& t = drivers[c]->backend.totals();
                            if (t.triangles != in.ref.triangles || t.checksum != in.ref.checksum ||
                                t.calls != in.ref.calls) {
                                std::printf("MISMATCH: %s at %u threads: %llu triangles, "
                                            "checksum %llx; 1 thread: %llu, %llx\n",
                                            in.label.c_str(), opt.threads[c],
                                            (unsigned long long)t.triangles,
                                            (unsigned long long)t.checksum,
                                            (unsigned long long)in.ref.triangles,
                                            (unsigned long long)in.ref.checksum);
                                mismatch = true;
                            }
                        } else if (c < 2 * nt) {
                            s = std::min(s, run_limit(*arenas[c - nt], *in.src, in.index_count));
                        } else {
                            s = std::min(s, run_front(front, storage, in));
                        }
                    }
                    if (round == 0) continue;
                    if (c < nt)
                        in.draw_s[c].push_back(s);
                    else if (c < 2 * nt)
                        in.limit_s[c - nt].push_back(s);
                    else
                        in.front_s.push_back(s);
                }
            }
            if (!opt.smoke && round > 0 && (round % 5 == 0 || round == opt.rounds)) {
                std::fprintf(stderr, "  round %d of %d\n", round, opt.rounds);
            }
        }

        // The table (markdown).
        std::printf("\n| workload | indices | 1T median | 1T best | per triangle | front end "
                    "alone | culled |");
        for (size_t t = 1; t < nt; ++t) std::printf(" %uT (of limit) |", opt.threads[t]);
        std::printf("\n|---|---|---|---|---|---|---|");
        for (size_t t = 1; t < nt; ++t) std::printf("---|");
        std::printf("\n");
        for (const Input& in : inputs) {
            const double med = median_of(in.draw_s[0]);
            char per[48];
            if (in.draws > 1)
                std::snprintf(per, sizeof per, "%.3f us/draw", med * 1e6 / in.draws);
            else
                std::snprintf(per, sizeof per, "%.1f ns", med * 1e9 / double(in.triangles));
            const double culled =
                in.triangles ? 1.0 - double(in.ref.triangles) / double(in.triangles) : 0.0;
            std::printf("| %s | %.3gM | %.2f ms | %.2f ms | %s | %.0f %% | %.0f %% |",
                        in.label.c_str(), in.index_count / 1e6, med * 1e3,
                        best_of(in.draw_s[0]) * 1e3, per,
                        100.0 * median_ratio(in.front_s, in.draw_s[0]), 100.0 * culled);
            for (size_t t = 1; t < nt; ++t)
                std::printf(" %.2fx (%.2f) |", median_ratio(in.draw_s[0], in.draw_s[t]),
                            median_relative_speedup(in.draw_s[0], in.draw_s[t], in.limit_s[0],
                                                    in.limit_s[t]));
            std::printf("\n");
        }
        // The limit loop: its speed-ups over every input's rounds.
        std::printf("| limit loop (all inputs' rounds) | | | | | | |");
        for (size_t t = 1; t < nt; ++t) {
            std::vector<double> r;
            for (const Input& in : inputs)
                for (size_t i = 0; i < in.limit_s[0].size(); ++i)
                    r.push_back(in.limit_s[0][i] / in.limit_s[t][i]);
            std::printf(" %.2fx |", r.empty() ? 0.0 : median_of(r));
        }
        std::printf("\n\n");

        // Culling at one thread: per round, (cull - no cull) / triangles.
        for (const Input& a : inputs) {
            if (a.cull) continue;
            for (const Input& b : inputs) {
                if (!b.cull || b.src != a.src || a.draws != 1) continue;
                std::vector<double> d, r;
                for (size_t i = 0; i < a.draw_s[0].size(); ++i) {
                    d.push_back((b.draw_s[0][i] - a.draw_s[0][i]) * 1e9 / double(a.triangles));
                    r.push_back(b.draw_s[0][i] / a.draw_s[0][i]);
                }
                std::printf("cull cost at 1 thread, %s: %+.2f ns per triangle (median of "
                            "per-round differences), time %.2fx the draw without culling; "
                            "%.0f %% culled\n",
                            a.src->w.label().c_str(), median_of(d), median_of(r),
                            100.0 * (1.0 - double(b.ref.triangles) / double(b.triangles)));
            }
        }
        for (const Input& in : inputs)
            if (in.draws > 1)
                std::printf("small draws at 1 thread: %.3f us per draw (median), %.3f best\n",
                            median_of(in.draw_s[0]) * 1e6 / in.draws,
                            best_of(in.draw_s[0]) * 1e6 / in.draws);
        std::printf("per triangle: the 1-thread median over the triangles drawn without "
                    "culling; front end alone: its time as a share of the 1-thread draw, "
                    "median of per-round ratios; (of limit): the speed-up over the limit loop's "
                    "at that thread count in the same rounds\n");
        if (g_limit_sink == 12345.678f) std::printf(" ");
        return mismatch ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scaling_bench: %s\n", e.what());
        return 1;
    }
}
