// How the Mali middle end turns one segment drawn with N instances into vertex jobs: the
// descriptors a driver would encode for each job, and where the instance range must be cut
// so padded * instances never overflows the 32-bit linear id.
#pragma once

#include "drawpipe/limits.hpp"
#include "middle_ends/mali/descriptors.hpp"

#include <array>
#include <cstdint>
#include <span>

namespace drawpipe::mali {

// One vertex job: n vertices, instances [first_instance, first_instance + instance_count).
struct Job {
    uint32_t vertex_count = 0;
    uint32_t first_instance = 0;
    uint32_t instance_count = 0;
    bool instanced = false;          // more than one instance: padded, divisor modes
    uint32_t padded = 0;             // threads per instance
    AttributeDescriptor vertex_id;   // L -> vertex slot (gl_VertexID record)
    AttributeDescriptor instance_id; // L -> instance within the job (gl_InstanceID record)
    uint32_t attrib_count = 0;
    std::array<AttributeDescriptor, kMaxAttribs> attribs{};
    // Per-instance attributes: element at the buffer start, base_instance + first / divisor,
    // as GL defines it (Panfrost offsets by base_instance / divisor instead, which GL does
    // not); per-vertex ones index the segment's vertex ids instead.
    std::array<uint64_t, kMaxAttribs> base_element{};

    uint64_t threads() const { return uint64_t(padded) * instance_count; }
};

// Descriptors for a job of n > 0 vertices over instances [first, first + count), count > 0.
// `divisors` holds each attribute's API divisor (0 = per vertex), at most kMaxAttribs.
// Requires padded * count <= 2^32 (see job_end).
Job make_job(uint32_t n, uint32_t first, uint32_t count, std::span<const uint32_t> divisors,
             uint32_t base_instance, bool idvs);

// Most instances one job of `padded` threads per instance may hold with `id_bits`-bit
// linear ids (0 when even one instance does not fit).
constexpr uint64_t max_job_instances(uint32_t padded, uint32_t id_bits) {
    return padded == 0 ? 0 : (uint64_t(1) << id_bits) / padded;
}

// End of the job that starts at instance `first` of a draw with `instance_count` instances,
// each job holding at most `max_instances` > 0. The driver adds first / d to a per-instance
// attribute's buffer offset, which is exact only if no multiple of d falls strictly inside
// the job after an unaligned start; so a job starting off a multiple of d ends at the next
// one, and otherwise ends on a multiple of d when it can, keeping the next job aligned.
// Returns a value in (first, instance_count].
uint32_t job_end(uint32_t first, uint32_t instance_count, uint64_t max_instances,
                 std::span<const uint32_t> divisors);

} // namespace drawpipe::mali
