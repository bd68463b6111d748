// The Mali middle end against the GL reference: random instanced draws of every primitive
// trace exactly as fetch_shade and the GL oracle do, with and without splitting, IDVS,
// narrowed linear ids (forcing job splits), and the dispatch figures it reports.
#include "draw/front_end/front_end.hpp"
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "middle_ends/mali/jobs.hpp"
#include "middle_ends/mali/mali_middle_end.hpp"
#include "middle_ends/mali/padded_count.hpp"
#include "support/gl_oracle.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace drawpipe;
using namespace drawpipe::mali;

namespace {

struct MaliRun {
    std::string trace;
    DispatchStats dispatch;
    uint64_t segments = 0;
    std::vector<DerivedFigure> derived; // what the middle end reports from its counters
};

MaliRun run_mali(const DrawDesc& desc, const MaliOptions& options, uint32_t max_vertices = 0,
                 Strategy strategy = {}) {
    const auto bound = bind_draw(desc);
    DrawState state{bound->info, bound->input(), nullptr, nullptr};
    const MaliMiddleEnd middle(options);
    TraceBackend trace;
    const DrawStats stats = draw_serial(state, middle, trace, {strategy, max_vertices});
    return {trace.take(), dispatch_stats(stats.counters), stats.front.segments,
            middle.derived(stats.counters)};
}

constexpr uint32_t kDivisors[] = {0, 1, 2, 3, 5, 7, 9, 255};

DrawDesc random_instanced_draw(std::mt19937& rng, Prim prim, uint32_t max_count) {
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    test::RandomDrawOptions o;
    o.max_count = max_count;
    o.max_instances = 40;
    o.allow_attribs = false;
    DrawDesc d = test::random_draw(rng, prim, o);
    const uint32_t attribs = uni(1, 3);
    for (uint32_t a = 0; a < attribs; ++a) d.attrib_divisors.push_back(kDivisors[uni(0, 7)]);
    if (uni(0, 5) == 0) { // many instances of a small mesh, so divisor 255 steps too
        d.instances = uni(256, 600);
        d.count = std::min(d.count, 24u);
        if (d.index_type != IndexType::none) d.indices.resize(d.start + d.count);
    }
    if (uni(0, 4) == 0) d.base_instance = uni(0, 100000);
    return d;
}

Strategy random_strategy(std::mt19937& rng) {
    const char* names[] = {"distinct", "vsplit", "exact", "none", "direct-16"};
    return *Strategy::parse(names[rng() % 5]);
}

uint32_t random_limit(std::mt19937& rng, Prim prim) {
    const uint32_t choices[] = {0, 0, 7, 16, 33, 100};
    const uint32_t pick = choices[rng() % 6];
    return pick == 0 ? 0 : std::max(pick, min_segment_vertices(prim));
}

} // namespace

TEST(MaliMiddleEnd, RegisteredAsMali) {
    register_builtin_middle_ends();
    const auto m = MiddleEndRegistry::global().find("mali");
    EXPECT_EQ(m->name(), "mali");
    EXPECT_EQ(m->counters().size(), 3u);
}

TEST(MaliMiddleEnd, RandomInstancedDrawsTraceAsGl) {
    std::mt19937 rng(4);
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        for (int iter = 0; iter < 50; ++iter) {
            const Prim prim = Prim(p);
            const DrawDesc d = random_instanced_draw(rng, prim, 300);
            const uint32_t limit = random_limit(rng, prim);
            const Strategy strategy = random_strategy(rng);
            MaliOptions options;
            options.idvs = rng() % 2;
            SCOPED_TRACE(format_draw_text(d) + "limit " + std::to_string(limit) + " strategy " +
                         strategy.name() + (options.idvs ? " idvs" : ""));
            const MaliRun mali = run_mali(d, options, limit, strategy);
            const std::string reference = test::trace_of(d, limit, strategy);
            ASSERT_EQ(mali.trace, reference);
            ASSERT_EQ(mali.trace, test::oracle_trace(d));
        }
    }
}

TEST(MaliMiddleEnd, NarrowLinearIdSplitsJobsWithoutChangingTheTrace) {
    // With 10-bit linear ids a job holds at most 1024 / padded instances, so draws of up
    // to 300 vertices and 40 or more instances run as several jobs, some starting off a
    // multiple of a divisor.
    std::mt19937 rng(10);
    MaliOptions options;
    options.linear_id_bits = 10;
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        for (int iter = 0; iter < 25; ++iter) {
            const Prim prim = Prim(p);
            const DrawDesc d = random_instanced_draw(rng, prim, 300);
            const uint32_t limit = random_limit(rng, prim);
            options.idvs = rng() % 2;
            SCOPED_TRACE(format_draw_text(d) + "limit " + std::to_string(limit));
            const MaliRun mali = run_mali(d, options, limit);
            ASSERT_EQ(mali.trace, test::oracle_trace(d));
        }
    }
}

TEST(MaliMiddleEnd, JobsPartitionTheInstancesExactly) {
    std::mt19937 rng(12);
    for (int iter = 0; iter < 3000; ++iter) {
        const uint32_t total = 1 + rng() % 500;
        const uint64_t cap = 1 + rng() % 50;
        std::vector<uint32_t> divisors;
        for (uint32_t a = rng() % 4; a > 0; --a)
            divisors.push_back(rng() % 2 ? kDivisors[rng() % 8] : 1 + rng() % 600);
        uint32_t jobs = 0;
        for (uint32_t c0 = 0; c0 < total; ++jobs) {
            const uint32_t c1 = job_end(c0, total, cap, divisors);
            ASSERT_GT(c1, c0);
            ASSERT_LE(c1, total);
            ASSERT_LE(c1 - c0, cap);
            // The driver's offset (first / d) plus the job's own quotient is GL's element.
            for (const uint32_t d : divisors)
                for (uint32_t i = c0; d > 0 && i < c1; ++i) ASSERT_EQ(c0 / d + (i - c0) / d, i / d);
            c0 = c1;
        }
        ASSERT_GE(uint64_t(jobs) * cap, total);
    }
}

TEST(MaliMiddleEnd, FullWidthOverflowIsSplitIntoJobsThatFit) {
    // 65536 vertices pad to 73728; 100000 instances would need 7.4e9 linear ids.
    const uint32_t n = 65536, total = 100000;
    const uint32_t padded = padded_vertex_count(n);
    ASSERT_EQ(padded, 73728u);
    ASSERT_GT(uint64_t(padded) * total, uint64_t(1) << 32);
    const uint64_t cap = max_job_instances(padded, 32);
    const uint32_t divisors[] = {0, 3, 7};
    uint64_t instances = 0;
    for (uint32_t c0 = 0; c0 < total;) {
        const uint32_t c1 = job_end(c0, total, cap, divisors);
        const Job job = make_job(n, c0, c1 - c0, divisors, 5, false);
        EXPECT_LE(job.threads(), uint64_t(1) << 32);
        // The job's last thread decodes to its last instance and vertex without wrapping.
        const uint32_t last = uint32_t(job.threads() - 1);
        EXPECT_EQ(attribute_index(job.instance_id, last), job.instance_count - 1);
        EXPECT_EQ(attribute_index(job.vertex_id, last), padded - 1);
        EXPECT_EQ(job.base_element[1] + attribute_index(job.attribs[1], last), 5 + (c1 - 1) / 3);
        EXPECT_EQ(job.base_element[2] + attribute_index(job.attribs[2], last), 5 + (c1 - 1) / 7);
        instances += job.instance_count;
        c0 = c1;
    }
    EXPECT_EQ(instances, total);
}

TEST(MaliMiddleEnd, LinearIdTooNarrowForOneInstanceIsAnError) {
    DrawDesc d;
    d.prim = Prim::points;
    d.count = 100; // pads to 112
    d.instances = 2;
    d.attrib_divisors = {0};
    MaliOptions options;
    options.linear_id_bits = 6; // 64 ids
    try {
        run_mali(d, options);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::count_overflow);
        EXPECT_NE(std::string(e.what()).find("instance_count"), std::string::npos);
    }
}

TEST(MaliMiddleEnd, DispatchFigures) {
    DrawDesc d;
    d.prim = Prim::points;
    d.count = 70;
    d.instances = 3;
    d.attrib_divisors = {0, 1};
    const MaliRun plain = run_mali(d, {});
    EXPECT_EQ(plain.segments, 1u); // every instance in one segment
    EXPECT_EQ(plain.dispatch.threads, 72u * 3);
    EXPECT_EQ(plain.dispatch.wasted, 2u * 3);
    EXPECT_EQ(plain.dispatch.quads, 54u);
    EXPECT_DOUBLE_EQ(plain.dispatch.waste_ratio(), 6.0 / 216.0);
    // The middle end reports the ratio itself, for tools that know no counter names.
    ASSERT_EQ(plain.derived.size(), 1u);
    EXPECT_EQ(plain.derived[0].name, "waste_ratio");
    EXPECT_DOUBLE_EQ(plain.derived[0].value, 6.0 / 216.0);

    MaliOptions idvs;
    idvs.idvs = true;
    const MaliRun bifrost = run_mali(d, idvs);
    EXPECT_EQ(bifrost.dispatch.threads, 80u * 3);
    EXPECT_EQ(bifrost.dispatch.wasted, 10u * 3);

    // 9 vertices keep 9 threads per instance: 27 threads, the last quad has 3 lanes.
    d.count = 9;
    const MaliRun nine = run_mali(d, {});
    EXPECT_EQ(nine.dispatch.threads, 27u);
    EXPECT_EQ(nine.dispatch.wasted, 0u);
    EXPECT_EQ(nine.dispatch.quads, 7u);

    // One instance: not instanced, no padding.
    d.count = 70;
    d.instances = 1;
    const MaliRun single = run_mali(d, {});
    EXPECT_EQ(single.dispatch.threads, 70u);
    EXPECT_EQ(single.dispatch.wasted, 0u);

    // A split draw: each piece is its own job, run one instance pass at a time.
    d.instances = 3;
    const MaliRun split = run_mali(d, {}, 32); // pieces of 32, 32, 6 vertices
    EXPECT_EQ(split.segments, 9u);
    EXPECT_EQ(split.dispatch.threads, 3u * (36 + 36 + 6));
    EXPECT_EQ(split.dispatch.wasted, 3u * (4 + 4 + 0));
    EXPECT_EQ(split.trace, plain.trace);
}

TEST(MaliMiddleEnd, ZeroInstancesDrawNothing) {
    DrawDesc d;
    d.prim = Prim::triangles;
    d.count = 30;
    d.instances = 0;
    d.attrib_divisors = {0, 3};
    const MaliRun r = run_mali(d, {});
    EXPECT_TRUE(r.trace.empty());
    EXPECT_EQ(r.dispatch.threads, 0u);
    EXPECT_EQ(r.segments, 0u);
    EXPECT_TRUE(r.derived.empty()) << "no thread ran: no waste ratio";
}

TEST(MaliMiddleEnd, FrontEndGivesAllInstancesOnlyToSingleSegmentDraws) {
    DrawInfo info;
    info.prim = Prim::triangles;
    info.count = 30;
    info.instance_count = 5;
    MiddleEndLimits lim;
    lim.handles_instancing = true;
    lim.instancing_single_segment_only = true;
    auto collect = [&](uint32_t limit) {
        lim.max_vertices = limit;
        FrontEnd fe;
        fe.begin(info, {lim, {}});
        std::vector<Segment> segs;
        SegmentStorage st;
        Segment seg;
        while (fe.next(st, seg)) segs.push_back(seg);
        return segs;
    };
    const auto whole = collect(30);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0].instance_first, 0u);
    EXPECT_EQ(whole[0].instance_count, 5u);
    const auto split = collect(9); // 4 pieces per instance, instance by instance
    ASSERT_EQ(split.size(), 20u);
    for (size_t i = 0; i < split.size(); ++i) {
        EXPECT_EQ(split[i].instance_first, i / 4);
        EXPECT_EQ(split[i].instance_count, 1u);
    }
}
