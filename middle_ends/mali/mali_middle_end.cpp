#include "middle_ends/mali/mali_middle_end.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "drawpipe/tess.hpp"
#include "middle_ends/mali/jobs.hpp"
#include "middle_ends/mali/padded_count.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

namespace drawpipe::mali {

namespace {

// MaliCounter's names, in its order.
constexpr std::string_view kCounterNames[] = {"threads", "wasted_threads", "quads"};
static_assert(std::size(kCounterNames) == COUNTER_COUNT && COUNTER_COUNT <= kMaxCounters);

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

    // The thread's vertex. The attribute unit finds each attribute's element from the
    // job's descriptors alone; those must be the elements GL reads (anything else is a bug
    // of the model, reported rather than drawn), so the fetch, position rule and shader
    // are then the shared shade_vertex.
    void shade(const Job& job, uint32_t L, uint32_t slot, uint32_t instance) {
        const uint32_t vertex_id = seg.vertex_id(slot);
        if (instance != gl_instance) set_gl_instance(instance);
        for (uint32_t a = 0; a < uint32_t(state.input.attribs.size()); ++a) {
            const AttributeDescriptor& d = job.attribs[a];
            const uint32_t index = attribute_index(d, L);
            uint64_t element, gl;
            if (divisors[a] == 0) {
                if (index >= job.vertex_count)
                    throw Error(ErrorCode::middle_end_failure,
                                "mali: per-vertex index out of the job");
                element = seg.vertex_id(index);
                gl = vertex_id;
            } else {
                element = job.base_element[a] + (d.zero_stride ? 0 : index);
                gl = gl_element[a];
            }
            if (element != gl)
                throw Error(ErrorCode::middle_end_failure,
                            "mali: attribute " + std::to_string(a) + " of linear id " +
                                std::to_string(L) + " reads element " + std::to_string(element) +
                                ", GL reads " + std::to_string(gl));
        }
        const size_t at = size_t(instance - first_instance) * job.vertex_count + slot;
        shade_vertex(state, layout, vertex_id, instance, seg.draw_id,
                     vertices + at * layout.stride());
    }

    // GL's per-instance elements, computed once per instance: threads run instance by
    // instance, and the division is what the descriptors exist to avoid.
    void set_gl_instance(uint32_t instance) {
        gl_instance = instance;
        for (uint32_t a = 0; a < uint32_t(state.input.attribs.size()); ++a)
            if (divisors[a] != 0)
                gl_element[a] =
                    attrib_element(state.input.attribs[a], 0, instance, state.draw.base_instance);
    }
    uint32_t gl_instance = ~0u; // no instance is ~0u: instance_count is at most ~0u
    std::array<uint64_t, kMaxAttribs> gl_element{};
};

// A draw as the driver sets it up: its state and attribute divisors, from which every
// job's descriptors follow once the job's size and instance range are known.
class MaliDraw final : public MiddleEndDraw {
  public:
    MaliDraw(const DrawState& state, const MaliOptions& options, const MiddleEndLimits& limits)
        : MiddleEndDraw(limits, vertex_layout_for(state)), state_(state), idvs_(options.idvs),
          linear_id_bits_(options.linear_id_bits) {
        for (uint32_t a = 0; a < uint32_t(state.input.attribs.size()); ++a)
            divisors_[a] = state.input.attribs[a].divisor;
    }

    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override;

  private:
    DrawState state_;
    bool idvs_;
    uint32_t linear_id_bits_;
    std::array<uint32_t, kMaxAttribs> divisors_{};
};

void MaliDraw::shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const {
    const VertexLayout& layout = this->layout();
    const uint32_t n = seg.fetch_count, k = seg.instance_count;
    const uint32_t base = out.vertex_count;
    uint32_t* vertices = out.append_vertices(n * k, layout.stride());
    const std::span<const uint32_t> divisors(divisors_.data(),
                                             uint32_t(state_.input.attribs.size()));
    Dispatch dispatch{state_, layout, seg, divisors, vertices, seg.instance_first};

    if (n > 0 && k > 0) {
        const uint32_t total = state_.draw.instance_count;
        const uint32_t padded = job_vertex_count(n, total, idvs_);
        const uint64_t cap = max_job_instances(padded, linear_id_bits_);
        if (cap == 0)
            throw Error(ErrorCode::count_overflow,
                        "mali: a " + std::to_string(n) + "-vertex segment overflows the linear id");
        const uint32_t f = seg.instance_first, fend = f + k;
        // Jobs are fixed by (n, instance count, divisors); run the part of each that this
        // segment's instances cover.
        for (uint32_t c0 = 0; c0 < fend;) {
            const uint32_t c1 = total <= cap ? total : job_end(c0, total, cap, divisors);
            if (c1 > f)
                dispatch.run(make_job(n, c0, c1 - c0, divisors, state_.draw.base_instance, idvs_),
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

} // namespace

std::shared_ptr<const MiddleEndDraw> MaliMiddleEnd::prepare(const DrawState& state) const {
    refuse_tess(state, name());
    if (state.gs)
        throw Error(ErrorCode::unsupported, "gs: the mali middle end models vertex fetch only");
    if (options_.linear_id_bits < 1 || options_.linear_id_bits > 32)
        throw Error(ErrorCode::invalid_value, "linear_id_bits: must be 1-32");

    const DrawInfo& d = state.draw;
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
    return std::make_shared<MaliDraw>(state, options_, lim);
}

std::span<const std::string_view> MaliMiddleEnd::counters() const {
    return kCounterNames;
}

std::vector<DerivedFigure> MaliMiddleEnd::derived(std::span<const uint64_t> counters) const {
    const DispatchStats s = dispatch_stats(counters);
    if (s.threads == 0) return {};
    return {{"waste_ratio", s.waste_ratio()}};
}

DispatchStats dispatch_stats(std::span<const uint64_t> counters) {
    if (counters.size() <= COUNTER_QUADS) return {};
    return {counters[COUNTER_THREADS], counters[COUNTER_WASTED], counters[COUNTER_QUADS]};
}

} // namespace drawpipe::mali
