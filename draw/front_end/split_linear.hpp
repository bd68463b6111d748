// Non-indexed draws: every segment a range of the draw's vertices (a fan's later pieces and
// a split loop's last piece list theirs), no index copies. A list's or strip's segments are
// written by LinearRun alone: the run's first by LinearSplitter::build, the rest in closed
// form by FrontEnd::next and drain, inline (docs/front-end.md, "Non-indexed runs in closed
// form").
#pragma once

#include "draw/front_end/splitter.hpp"
#include "drawpipe/stats.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe::detail {

// A non-indexed list's or strip's run: segment k starts k * cut primitives in and holds `cut`
// primitives, the last one what is left.
struct LinearRun {
    bool active = false;  // FrontEnd::next writes the segment from here
    bool pending = false; // k and sequence are ahead of the front end's
    // The draw's (cut 0: not a list or strip, no closed form):
    Prim prim = Prim::points;
    uint32_t pmax = 0;            // a run's last segment when at most this many are left
    uint32_t cut = 0;             // pmax, made even for strip parity
    uint32_t step = 0, extra = 0; // fetch_count = primitives * step + extra
    // The open run's, set by open() once its first segment is out:
    uint32_t k = 0, prims = 0;         // next primitive of the run, where the chunk's part ends
    uint8_t last_flags = SPLIT_BEFORE; // of the last segment: SPLIT_AFTER when the run goes on
    uint32_t begin = 0, prim_id_base = 0, instance_first = 0, instance_count = 1;
    uint64_t sequence = 0;
    const Segment* written = nullptr; // holds every field but those that move along a run

    static LinearRun for_draw(const SplitParams& p) {
        LinearRun r;
        if (p.shape != Shape::list && p.shape != Shape::strip) return r;
        r.prim = p.prim;
        r.pmax = prims_fitting(p.shape, p.ps, p.fetch_limit);
        r.cut = has_strip_parity(p.prim) && r.pmax > 1 ? r.pmax & ~1u : r.pmax;
        r.step = p.shape == Shape::list ? p.ps.first : p.ps.incr;
        r.extra = p.shape == Shape::list ? 0 : p.ps.first - p.ps.incr;
        return r;
    }

    // The vertices of primitives [k0, k1) of a run starting at `first`.
    void place(Segment& seg, uint32_t first, uint32_t k0, uint32_t k1) const {
        const uint32_t count = (k1 - k0) * step + extra;
        seg.fetch_start = first + k0 * step;
        seg.fetch_count = count;
        seg.draw_count = count;
    }

    // The rest of `run`'s chunk after its first segment `seg`, which ended at primitive k1:
    // counted in `stats` now, written by next() or drain().
    void open(const Run& run, uint32_t k1, const Segment& seg, uint32_t prim_id,
              uint64_t next_sequence, FrontEndStats& stats) {
        active = pending = true;
        k = k1;
        prims = run.stop;
        last_flags = SPLIT_BEFORE | (run.stop < run.prims ? SPLIT_AFTER : 0);
        begin = run.begin;
        prim_id_base = prim_id;
        instance_first = seg.instance_first;
        instance_count = seg.instance_count;
        sequence = next_sequence;
        written = seg.linear_fetch() && seg.linear_draw() ? &seg : nullptr;
        const uint32_t left = prims - k;
        const uint64_t n = left <= pmax ? 1 : (left - pmax + cut - 1) / cut + 1;
        const uint64_t vertices = uint64_t(left) * step + n * extra;
        stats.segments += n;
        stats.indices += vertices;
        stats.fetched += vertices;
        stats.shaded += vertices * instance_count;
    }

    void write_fixed(Segment& seg) {
        seg.prim = prim;
        seg.instance_first = instance_first;
        seg.instance_count = instance_count;
        seg.fetch_elts = {};
        seg.draw_elts = {};
        seg.fetch_bias = 0;
        written = &seg;
    }

    // The fields that move along a run, for its primitives [k0, k1).
    void write_moving(Segment& seg, uint32_t k0, uint32_t k1, uint8_t flags, uint64_t seq) const {
        seg.flags = flags;
        seg.prim_id_first = prim_id_base + k0;
        place(seg, begin, k0, k1);
        seg.sequence = seq;
    }

    // The next segment; rewrites only the moving fields when `seg` is the one written last.
    void next(Segment& seg) {
        const uint32_t k0 = k;
        uint32_t k1 = k0 + cut;
        uint8_t flags = SPLIT_BEFORE | SPLIT_AFTER;
        if (prims - k0 <= pmax) {
            k1 = prims;
            flags = last_flags;
            active = false;
        }
        if (&seg != written) [[unlikely]]
            write_fixed(seg);
        write_moving(seg, k0, k1, flags, sequence++);
        k = k1;
    }

    // The rest of the run, with the loop's state in locals that live across `consume`.
    template <class Consume> void drain(Segment& seg, Consume& consume) {
        write_fixed(seg);
        const LinearRun form = *this;
        uint32_t k0 = k;
        uint64_t seq = sequence;
        for (; prims - k0 > pmax; k0 += cut) {
            form.write_moving(seg, k0, k0 + cut, SPLIT_BEFORE | SPLIT_AFTER, seq++);
            consume(static_cast<const Segment&>(seg));
        }
        k = prims;
        sequence = seq + 1;
        active = false;
        form.write_moving(seg, k0, prims, last_flags, seq);
        consume(static_cast<const Segment&>(seg));
    }
};

class LinearSplitter final : public Splitter {
  public:
    // Primitives per segment are fixed for the draw: worked out once, not per segment.
    explicit LinearSplitter(const SplitParams& p)
        : p_(p), pmax_(prims_fitting(p.shape, p.ps,
                                     p.shape == Shape::loop ? p.fetch_limit - 1 : p.fetch_limit)),
          form_(LinearRun::for_draw(p)) {}

    // The closed form of this draw's runs (cut 0 for fans and loops).
    const LinearRun& closed_form() const { return form_; }

    // Inline and final: FrontEnd::next calls it without a virtual call.
    [[gnu::always_inline]] uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st,
                                          Segment& seg) override {
        uint32_t k1 = std::min(run.stop, k0 + pmax_);
        if (has_strip_parity(p_.prim) && k1 < run.prims && ((k1 - k0) & 1)) --k1;
        seg.prim = p_.prim;
        seg.fetch_elts = {};
        seg.draw_elts = {};
        switch (p_.shape) {
        case Shape::list:
        case Shape::strip:
            form_.place(seg, run.begin, k0, k1);
            return k1;
        case Shape::fan:
            fan_piece(run, k0, k1, st, seg);
            break;
        case Shape::loop:
            loop_piece(run, k0, k1, st, seg);
            break;
        case Shape::assembled:
            assert(false);
            break;
        }
        seg.draw_count = seg.fetch_count;
        return k1;
    }

  private:
    // The first piece is a plain range; later ones list the centre, then the rim from k0 + 1.
    static void fan_piece(const Run& run, uint32_t k0, uint32_t k1, SegmentStorage& st,
                          Segment& seg) {
        const uint32_t n = k1 - k0 + 2;
        seg.fetch_count = n;
        if (k0 == 0) {
            seg.fetch_start = run.begin;
            return;
        }
        st.fetch.resize(std::max<size_t>(st.fetch.size(), n));
        st.fetch[0] = run.begin;
        for (uint32_t i = 1; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
        seg.fetch_elts = {st.fetch.data(), n};
    }

    // A whole loop stays a line loop (closed downstream); pieces are line strips, the last
    // one listed with the loop's first vertex appended.
    static void loop_piece(const Run& run, uint32_t k0, uint32_t k1, SegmentStorage& st,
                           Segment& seg) {
        const uint32_t n = k1 - k0 + 1;
        seg.fetch_start = run.begin + k0;
        seg.fetch_count = n;
        if (k0 == 0 && k1 == run.prims) {
            seg.prim = Prim::line_loop;
            return;
        }
        seg.prim = Prim::line_strip;
        if (k1 < run.prims) return;
        st.fetch.resize(std::max<size_t>(st.fetch.size(), n + 1));
        for (uint32_t i = 0; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
        st.fetch[n] = run.begin;
        seg.fetch_elts = {st.fetch.data(), n + 1};
        seg.fetch_count = n + 1;
    }

    SplitParams p_;
    uint32_t pmax_;
    LinearRun form_;
};

} // namespace drawpipe::detail
