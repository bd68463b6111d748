// What the fuzz targets share: a cost bound on descriptions (one execution must stay cheap,
// thousands a second), tracing a bound description, and trace comparison helpers.
#pragma once

#include "drawpipe/backends/trace.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/common/vs_library.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe::fuzz {

// The description `text` holds, or nothing when it does not parse (bad text is expected).
inline std::optional<DrawDesc> parse_or_nothing(std::string_view text) {
    try {
        return parse_draw_text(text);
    } catch (const Error&) {
        return std::nullopt;
    }
}

// Rejects descriptions that would cost more than `max_work` vertices (count x instances) or
// make bind_draw fill more than `max_elements` attribute elements. Rejected inputs are not
// bugs; they are just too slow to be worth an execution.
inline bool cheap_enough(const DrawDesc& d, uint64_t max_work, uint64_t max_elements) {
    // The draw, or each sub-draw of a multi-draw or indirect draw (drawn or not).
    const std::vector<DrawRange> ranges = draw_ranges(d);
    uint64_t work = 0;
    for (const DrawRange& r : ranges)
        work += uint64_t(r.count) * std::max<uint32_t>(r.instances, 1);
    if (work > max_work) return false;
    if (d.attrib_divisors.empty()) return true;
    // The same bound bind_draw computes for its attribute buffer.
    uint64_t last = 0;
    for (const DrawRange& r : ranges) {
        if (d.index_type == IndexType::none) {
            last = std::max<uint64_t>(last, r.count ? uint64_t(r.start) + r.count - 1 : 0);
        } else {
            const uint64_t end = std::min<uint64_t>(d.indices.size(), uint64_t(r.start) + r.count);
            for (uint64_t i = r.start; i < end; ++i)
                last = std::max<int64_t>(int64_t(last), int64_t(d.indices[i]) + r.base_vertex);
        }
        for (uint32_t div : d.attrib_divisors)
            if (div != 0)
                last = std::max<uint64_t>(last, uint64_t(r.base_instance) + r.instances / div);
    }
    return last < max_elements;
}

// The geometry shader a description names (Error(not_found) for an unknown name), or null.
inline const GeometryShader* gs_of(const DrawDesc& d) {
    return d.gs.empty() ? nullptr : &find_gs(d.gs);
}

// The vertex shader a description names (Error(not_found) for an unknown name), or null.
inline const VertexShader* vs_of(const DrawDesc& d) {
    return d.vs.empty() ? nullptr : &find_vs(d.vs);
}

// One-thread trace of a bound description through `middle`.
inline std::string trace_serial(const BoundDraw& b, const VertexShader* vs,
                                const GeometryShader* gs, const MiddleEnd& middle,
                                const DrawOptions& options = {}) {
    TraceBackend trace;
    if (b.multi.indirect_given) { // the records drawn, each keeping its record's draw id
        for (const DrawInfo& d : described_draws(b))
            draw_serial({d, b.input(), vs, gs}, middle, trace, options);
    } else if (!b.multi.draws.empty()) { // a multi-draw: its draws in order
        draw_serial({b.info, b.input(), vs, gs}, b.multi.draws, middle, trace, options);
    } else {
        draw_serial({b.info, b.input(), vs, gs}, middle, trace, options);
    }
    return trace.take();
}

// A trace's lines in sorted order: what a strategy that reorders independent primitives
// must preserve.
inline std::string sorted_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    }
    std::sort(lines.begin(), lines.end());
    std::string out;
    for (std::string_view l : lines) (out += l) += '\n';
    return out;
}

// Prints what differed and aborts, so libFuzzer keeps the input as a crash. Long traces are
// cut: the description reproduces them.
[[noreturn]] inline void report_mismatch(const DrawDesc& d, const std::string& variant,
                                         const std::string& expected, const std::string& got) {
    constexpr size_t kShow = 2000;
    std::fprintf(stderr,
                 "\n=== split invariant broken: %s ===\n--- description ---\n%s"
                 "--- expected (unsplit, %zu bytes) ---\n%.*s\n--- got (%zu bytes) ---\n%.*s\n",
                 variant.c_str(), format_draw_text(d).c_str(), expected.size(),
                 int(std::min(expected.size(), kShow)), expected.c_str(), got.size(),
                 int(std::min(got.size(), kShow)), got.c_str());
    std::abort();
}

} // namespace drawpipe::fuzz
