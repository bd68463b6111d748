// `drawpipe mali N [--instances I] [--divisor D]... [--idvs]`: what a Mali job-manager GPU
// runs for an instanced vertex job of N vertices: the padded count, the descriptors and
// records the driver writes, and the threads dispatched and wasted.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/limits.hpp"
#include "middle_ends/mali/jobs.hpp"
#include "middle_ends/mali/mali_middle_end.hpp"
#include "middle_ends/mali/padded_count.hpp"
#include "tools/commands.hpp"

#include <bit>
#include <cstdio>
#include <string>
#include <vector>

namespace drawpipe::cli {

namespace {

struct MaliArgs {
    uint32_t vertices = 0;
    uint32_t instances = 1;
    std::vector<uint32_t> divisors;
    bool idvs = false;
};

std::string shape(uint64_t v) {
    const int shift = std::countr_zero(v);
    return std::to_string(v >> shift) + " * 2^" + std::to_string(shift);
}

std::string describe(const mali::AttributeDescriptor& d) {
    using mali::AttributeMode;
    char buf[160];
    switch (d.mode) {
    case AttributeMode::linear:
        return d.zero_stride ? "1D, stride 0 (every thread reads the same element)"
                             : "1D (element = L)";
    case AttributeMode::pot_divisor:
        std::snprintf(buf, sizeof buf, "1D POT divisor, shift %u (L >> %u)", d.shift, d.shift);
        return buf;
    case AttributeMode::modulus:
        std::snprintf(buf, sizeof buf, "1D modulus, shift %u, extra_flags %u (L mod %llu)", d.shift,
                      d.extra_flags,
                      (unsigned long long)(uint64_t(2 * d.extra_flags + 1) << d.shift));
        return buf;
    case AttributeMode::npot_divisor:
        std::snprintf(buf, sizeof buf,
                      "1D NPOT divisor, magic_divisor 0x%08X, shift %u, extra_flags %u",
                      d.magic_divisor, d.shift, d.extra_flags);
        return buf;
    }
    return "?";
}

void print_job(const MaliArgs& args) {
    using namespace mali;
    const uint32_t n = args.vertices, total = args.instances;
    const uint32_t limit = args.idvs ? kMaxPaddableCount - 3 : kMaxPaddableCount;
    if (n == 0 || n > limit)
        throw Error(ErrorCode::invalid_value, "N: must be 1-" + std::to_string(limit));
    if (args.divisors.size() > kMaxAttribs)
        throw Error(ErrorCode::invalid_value,
                    "--divisor: at most " + std::to_string(kMaxAttribs) + " attributes");
    std::printf(
        "# legend: an instanced job runs `padded` threads per instance; thread L = instance * "
        "padded + vertex.\n"
        "#   records (element read for L): 1D: L; 1D POT divisor: L >> shift; 1D modulus: L mod "
        "(2 * extra_flags + 1) * 2^shift;\n"
        "#   1D NPOT divisor: ((L + extra_flags) * (2^31 | magic_divisor)) >> 32 >> shift "
        "(its continuation record holds the divisor).\n"
        "#   attribute buffer records: the four DWORDs of each slot as the driver writes them "
        "(Panfrost's v5 Attribute Buffer layout).\n"
        "#   wasted: threads whose vertex is past N (the padding).\n");
    std::printf("vertex job: %u vertices, %u instances%s\n", n, total,
                args.idvs ? ", Bifrost IDVS (n rounded up to 4 first)" : "");
    if (total == 0) {
        std::printf("instance count 0: nothing is dispatched\n");
        return;
    }
    const uint32_t padded = job_vertex_count(n, total, args.idvs);
    if (total > 1)
        std::printf("padded vertex count: %u = %s (padded field 0x%02X)\n", padded,
                    shape(padded).c_str(), *encode_padded_field(padded));
    else
        std::printf("padded vertex count: %u (one instance: not padded, attributes linear)\n",
                    padded);

    // The jobs that keep padded * instances within the 32-bit linear id.
    const uint64_t cap = max_job_instances(padded, 32);
    std::vector<Job> jobs;
    for (uint32_t c0 = 0; c0 < total;) {
        const uint32_t c1 = total <= cap ? total : job_end(c0, total, cap, args.divisors);
        jobs.push_back(make_job(n, c0, c1 - c0, args.divisors, 0, args.idvs));
        c0 = c1;
    }
    if (jobs.size() > 1)
        std::printf("jobs: %zu (padded * instances must fit the 32-bit linear id: at most %llu "
                    "instances each); descriptors of the first:\n",
                    jobs.size(), (unsigned long long)cap);
    const Job& job = jobs[0];
    std::printf("gl_VertexID record:   %s\n", describe(job.vertex_id).c_str());
    std::printf("gl_InstanceID record: %s\n", describe(job.instance_id).c_str());
    std::vector<AttributeBuffer> buffers;
    for (uint32_t a = 0; a < job.attrib_count; ++a) {
        const uint32_t d = args.divisors[a];
        std::string what = d == 0 ? "per vertex" : "divisor " + std::to_string(d);
        if (d != 0 && job.instanced)
            what += ", hardware divisor " + std::to_string(uint64_t(job.padded) * d);
        std::printf("attrib %u (%s): %s\n", a, what.c_str(), describe(job.attribs[a]).c_str());
        buffers.push_back({job.attribs[a], 0x100000ull * (a + 1), 16, 16 * n});
    }
    if (!buffers.empty()) {
        std::vector<uint32_t> slots;
        const auto records = pack_attribute_buffers(buffers, slots);
        std::printf("attribute buffer records (example pointers, stride 16):\n");
        for (size_t s = 0; s < records.size(); ++s)
            std::printf("  slot %zu: %08X %08X %08X %08X\n", s, records[s][0], records[s][1],
                        records[s][2], records[s][3]);
    }

    uint64_t threads = 0;
    for (const Job& j : jobs) threads += j.threads();
    const uint64_t wasted = threads - uint64_t(n) * total;
    std::printf("threads dispatched %llu, wasted %llu (%.2f%%)\n", (unsigned long long)threads,
                (unsigned long long)wasted,
                threads ? 100.0 * double(wasted) / double(threads) : 0.0);

    // Small enough to run: draw N points through the middle end and report what it did.
    if (n <= kMaxSegmentVertices && uint64_t(n) * total <= (uint64_t(1) << 22)) {
        DrawInfo draw;
        draw.prim = Prim::points;
        draw.count = n;
        draw.instance_count = total;
        std::vector<VertexBuffer> vbufs(args.divisors.size());
        std::vector<VertexAttrib> attribs;
        for (uint32_t a = 0; a < args.divisors.size(); ++a)
            attribs.push_back({a, 0, Format::uint32x1, args.divisors[a]});
        MaliOptions options;
        options.idvs = args.idvs;
        mali::MaliMiddleEnd middle(options);
        CountingBackend counting;
        const DrawState state{draw, {vbufs, attribs}, nullptr, nullptr};
        const DispatchStats s = dispatch_stats(draw_serial(state, middle, counting).counters);
        std::printf(
            "simulated (a points draw through the mali middle end): threads %llu, wasted %llu, "
            "quads %llu, points drawn %llu\n",
            (unsigned long long)s.threads, (unsigned long long)s.wasted,
            (unsigned long long)s.quads, (unsigned long long)counting.totals().points);
    }
}

} // namespace

void add_mali_command(CLI::App& app) {
    auto args = std::make_shared<MaliArgs>();
    CLI::App* cmd = app.add_subcommand(
        "mali", "Mali instanced vertex job: padded count, attribute descriptors, threads");
    cmd->footer(
        "The padded count follows the shipping Panfrost driver: n < 10 is kept, 10-19 rounds up "
        "to\n"
        "even, and from 20 the top four bits pick 9*2^s, 5*2^(s+1), 3*2^(s+2), 7*2^(s+1) or "
        "2^(s+4)\n"
        "(70 -> 72). The 2019 notes that seeded the driver had a different small-count table\n"
        "(3 -> 4, 4-7 -> 8, 8-11 -> 12, 12-15 -> 16, 16-19 -> 20, 'always at least one more');\n"
        "the driver corrected it (3 -> 3, 9 -> 9, 11 -> 12, 31 -> 32). Only instanced jobs pad.\n" +
        std::string(kExitCodeHelp));
    cmd->add_option("N", args->vertices, "Vertices in the job")->required();
    cmd->add_option("--instances", args->instances, "Instance count (default 1)")
        ->check(CLI::Range(1u, 0xFFFFFFFFu));
    cmd->add_option("--divisor", args->divisors,
                    "An attribute with this instance divisor (0 = per vertex); repeat for more");
    cmd->add_flag("--idvs", args->idvs, "Bifrost IDVS path: round N up to a multiple of 4 first");
    cmd->callback([args] { print_job(*args); });
}

} // namespace drawpipe::cli
