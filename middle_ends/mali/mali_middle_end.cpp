#include "middle_ends/mali/mali_middle_end.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/vertex_fetch.hpp"
#include "drawpipe/fetch_shade.hpp"
#include "middle_ends/mali/jobs.hpp"
#include "middle_ends/mali/padded_count.hpp"

#include <algorithm>
#include <string>

namespace drawpipe::mali {

namespace {

// What one segment's dispatch writes: its vertices (instance-major, n per instance) and
// the dispatch counters.
struct Dispatch {
    const DrawState& state;
    const VertexLayout& layout;
    const Segment& seg;
    std::span<const uint32_t> divisors;
    uint32_t* vertices;      // seg.instance_count * n vertices
    uint32_t first_instance; // seg.instance_first
    uint64_t threads = 0, wasted = 0, quads = 0;

    // Runs the threads of `job` that belong to instances [i0, i1), quad by quad in linear-id
    // order; lanes outside that range are masked.
    void run(const Job& job, uint32_t i0, uint32_t i1) {
        const uint32_t n = job.vertex_count;
        const uint64_t lo = uint64_t(i0 - job.first_instance) * job.padded;
        const uint64_t hi = uint64_t(i1 - job.first_instance) * job.padded;
        for (uint64_t q = lo & ~uint64_t(3); q < hi; q += 4) {
            quads += q >= lo;
            for (uint32_t lane = 0; lane < 4; ++lane) {
                if (q + lane < lo || q + lane >= hi) continue;
                const uint32_t L = uint32_t(q + lane); // hi <= 2^32 by job construction
                ++threads;
                const uint32_t slot = attribute_index(job.vertex_id, L);
                if (slot >= n) {
                    ++wasted; // padding: no such vertex
                    continue;
                }
                const uint32_t instance = job.first_instance + attribute_index(job.instance_id, L);
                if (instance < i0 || instance >= i1)
                    throw Error(ErrorCode::middle_end_failure,
                                "mali: linear id " + std::to_string(L) + " decoded to instance " +
                                    std::to_string(instance) + " outside its job");
                shade(job, L, slot, instance);
            }
        }
    }

    // The thread's vertex: ids from the system-value records, attributes from their
    // descriptors, then the same position rule and shader as fetch_shade.
    void shade(const Job& job, uint32_t L, uint32_t slot, uint32_t instance) {
        const uint32_t stride = layout.stride();
        uint32_t* v =
            vertices + (size_t(instance - first_instance) * job.vertex_count + slot) * stride;
        v[SLOT_VERTEX_ID] = seg.vertex_id(slot);
        v[SLOT_INSTANCE_ID] = instance;
        v[SLOT_GS_ID] = 0;
        v[SLOT_GS_LAYER] = 0;
        for (uint32_t a = 0; a < layout.attrib_count; ++a) {
            const AttributeDescriptor& d = job.attribs[a];
            const uint32_t index = attribute_index(d, L);
            uint64_t element;
            if (divisors[a] == 0) {
                if (index >= job.vertex_count)
                    throw Error(ErrorCode::middle_end_failure,
                                "mali: per-vertex index out of the job");
                element = seg.vertex_id(index);
            } else {
                element = job.base_element[a] + (d.zero_stride ? 0 : index);
            }
            const VertexAttrib& attrib = state.input.attribs[a];
            fetch_attrib(state.input.buffers[attrib.buffer], attrib, element,
                         v + kVertexHeaderDwords + 4 * a);
        }
        if (layout.attrib_count > 0) {
            std::copy_n(v + kVertexHeaderDwords, 4, v + SLOT_POSITION);
        } else {
            v[SLOT_POSITION] = v[SLOT_POSITION + 1] = v[SLOT_POSITION + 2] = 0;
            v[SLOT_POSITION + 3] = float_dword(1.0f);
        }
        if (state.vs) (*state.vs)(v, layout);
    }
};

constexpr std::array<std::string_view, 3> kCounterNames = {"threads", "wasted_threads", "quads"};

} // namespace

MaliMiddleEnd::MaliMiddleEnd(const MaliOptions& options) : options_(options) {}

MiddleEndLimits MaliMiddleEnd::prepare(const DrawState& state) {
    if (state.gs)
        throw Error(ErrorCode::unsupported, "gs: the mali middle end models vertex fetch only");
    if (options_.linear_id_bits < 1 || options_.linear_id_bits > 32)
        throw Error(ErrorCode::invalid_value, "linear_id_bits: must be 1-32");
    state_ = state;
    layout_ = vertex_layout_for(state.input);
    for (uint32_t a = 0; a < layout_.attrib_count; ++a)
        divisors_[a] = state.input.attribs[a].divisor;

    const DrawInfo& d = *state.draw;
    if (d.count > 0 && d.instance_count > 0) {
        // No segment fetches more than the draw's count or the u16 element limit.
        const uint32_t n_max = std::min(d.count, kMaxSegmentVertices);
        const uint32_t padded = job_vertex_count(n_max, d.instance_count, options_.idvs);
        if (max_job_instances(padded, options_.linear_id_bits) == 0)
            throw Error(ErrorCode::count_overflow,
                        "instance_count: one instance of a " + std::to_string(n_max) +
                            "-vertex job pads to " + std::to_string(padded) +
                            " threads, more than the " + std::to_string(options_.linear_id_bits) +
                            "-bit linear id holds");
    }
    MiddleEndLimits lim;
    lim.max_vertices = options_.max_vertices;
    lim.handles_instancing =
        d.instance_count > 1 && uint64_t(d.count) * d.instance_count <= options_.max_batch_vertices;
    lim.instancing_single_segment_only = true;
    return lim;
}

void MaliMiddleEnd::run(const Segment& seg, Scratch*, ShadedBatch& out) const {
    const uint32_t n = seg.fetch_count, k = seg.instance_count;
    const uint32_t stride = layout_.stride();
    const uint32_t base = out.vertex_count;
    uint32_t* vertices = out.append_vertices(n * k, stride);
    const std::span<const uint32_t> divisors(divisors_.data(), layout_.attrib_count);
    Dispatch dispatch{state_, layout_, seg, divisors, vertices, seg.instance_first};

    if (n > 0 && k > 0) {
        const DrawInfo& draw = *state_.draw;
        const uint32_t total = draw.instance_count;
        const uint32_t padded = job_vertex_count(n, total, options_.idvs);
        const uint64_t cap = max_job_instances(padded, options_.linear_id_bits);
        if (cap == 0)
            throw Error(ErrorCode::count_overflow,
                        "mali: a " + std::to_string(n) + "-vertex segment overflows the linear id");
        const uint32_t f = seg.instance_first, fend = f + k;
        // Jobs are fixed by (n, instance count, divisors); run the part of each that this
        // segment's instances cover.
        for (uint32_t c0 = 0; c0 < fend;) {
            const uint32_t c1 = total <= cap ? total : job_end(c0, total, cap, divisors);
            if (c1 > f)
                dispatch.run(make_job(n, c0, c1 - c0, divisors, draw.base_instance, options_.idvs),
                             std::max(f, c0), std::min(fend, c1));
            c0 = c1;
        }
    }

    // Instance by instance, the segment's primitives over that instance's vertices.
    const uint32_t count = seg.draw_count;
    const size_t first = out.elts.size();
    out.elts.resize(first + size_t(k) * count);
    uint32_t* elts = out.elts.data() + first;
    for (uint32_t i = 0; i < k; ++i, elts += count) {
        const uint32_t vbase = base + i * n;
        if (seg.linear_draw()) {
            for (uint32_t e = 0; e < count; ++e) elts[e] = vbase + e;
        } else {
            const uint16_t* draw = seg.draw_elts.data();
            for (uint32_t e = 0; e < count; ++e) elts[e] = vbase + draw[e];
        }
        out.prims.push_back({seg.prim, seg.flags, uint32_t(first + size_t(i) * count), count});
    }
    out.counters[COUNTER_THREADS] += dispatch.threads;
    out.counters[COUNTER_WASTED] += dispatch.wasted;
    out.counters[COUNTER_QUADS] += dispatch.quads;
}

std::span<const std::string_view> MaliMiddleEnd::counter_names() const {
    return kCounterNames;
}

DispatchStats dispatch_stats(const DrawStats& stats) {
    return {stats.counters[COUNTER_THREADS], stats.counters[COUNTER_WASTED],
            stats.counters[COUNTER_QUADS]};
}

} // namespace drawpipe::mali
