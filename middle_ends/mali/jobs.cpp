#include "middle_ends/mali/jobs.hpp"

#include "middle_ends/mali/padded_count.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe::mali {

Job make_job(uint32_t n, uint32_t first, uint32_t count, std::span<const uint32_t> divisors,
             uint32_t base_instance, bool idvs) {
    assert(n > 0 && count > 0 && divisors.size() <= kMaxAttribs);
    Job job;
    job.vertex_count = n;
    job.first_instance = first;
    job.instance_count = count;
    job.instanced = count > 1;
    job.padded = job_vertex_count(n, count, idvs);
    job.vertex_id = vertex_id_descriptor(job.padded, job.instanced);
    job.instance_id = instance_id_descriptor(job.padded, job.instanced);
    job.attrib_count = uint32_t(divisors.size());
    for (uint32_t a = 0; a < job.attrib_count; ++a) {
        const uint32_t d = divisors[a];
        if (d == 0) {
            job.attribs[a] = per_vertex_descriptor(job.padded, job.instanced);
        } else {
            job.attribs[a] = per_instance_descriptor(job.padded, d, job.instanced);
            job.base_element[a] = uint64_t(base_instance) + first / d;
        }
    }
    return job;
}

uint32_t job_end(uint32_t first, uint32_t instance_count, uint64_t max_instances,
                 std::span<const uint32_t> divisors) {
    assert(first < instance_count && max_instances > 0);
    uint32_t end = uint32_t(std::min<uint64_t>(instance_count, first + max_instances));
    for (const uint32_t d : divisors) {
        if (d <= 1 || d >= instance_count) continue; // 1 divides all; d >= N is constant
        const uint32_t rem = first % d;
        if (rem != 0) {
            end = uint32_t(std::min<uint64_t>(end, uint64_t(first) + (d - rem)));
        } else if (end < instance_count) {
            const uint32_t aligned = end - end % d;
            if (aligned > first) end = aligned;
        }
    }
    return end;
}

} // namespace drawpipe::mali
