// An independent, deliberately plain model of what OpenGL draws, written from
// docs/gl-order.md: the oracle the front end, middle ends and backends are checked
// against. It shares no code with drawpipe's splitter or decomposer.
#pragma once

#include "tools/common/draw_text.hpp"

#include <string>
#include <vector>

namespace drawpipe::test {

inline std::string oracle_trace(const DrawDesc& d) {
    std::string out;
    const bool indexed = d.index_type != IndexType::none;
    const bool last = d.provoking == Provoking::last;
    auto vertex = [&](uint32_t vid, uint32_t inst) {
        std::string s = std::to_string(vid) + "/" + std::to_string(inst);
        if (!d.attrib_divisors.empty()) {
            s += "[";
            for (size_t a = 0; a < d.attrib_divisors.size(); ++a) {
                const uint32_t div = d.attrib_divisors[a];
                const uint64_t elt = div == 0 ? vid : uint64_t(d.base_instance) + inst / div;
                s += (a ? "," : "") + std::to_string(elt < (1u << 24) ? elt : 0);
            }
            s += "]";
        }
        return s;
    };
    if (d.prim == Prim::patches) { // support/tess_util.hpp's shader; GL: restart off for patches
        const uint32_t pv = d.patch_vertices;
        static constexpr const char* kCorners[3] = {"(0,1,0)", "(0,0,1)", "(1,0,0)"};
        for (uint32_t inst = 0; inst < d.instances; ++inst)
            for (uint32_t p = 0; p + 1 <= d.count / pv; ++p) {
                std::string ids = "[";
                for (uint32_t k = 0; k < pv; ++k) {
                    const uint32_t at = d.start + p * pv + k;
                    const uint32_t id =
                        indexed ? uint32_t(int64_t(d.indices[at]) + d.base_vertex) : at;
                    ids += (k ? "," : "") + std::to_string(id);
                }
                ids += "]";
                for (const char* c : kCorners)
                    out +=
                        "point p" + std::to_string(p) + "/" + std::to_string(inst) + c + ids + "\n";
            }
        return out;
    }
    for (uint32_t inst = 0; inst < d.instances; ++inst) {
        std::vector<std::vector<uint32_t>> runs(1);
        for (uint32_t i = 0; i < d.count; ++i) {
            if (!indexed) {
                runs.back().push_back(d.start + i);
                continue;
            }
            const uint32_t raw = d.indices[d.start + i];
            if (d.restart && raw == d.restart_index) {
                runs.emplace_back();
                continue;
            }
            runs.back().push_back(uint32_t(int64_t(raw) + d.base_vertex));
        }
        for (const auto& v : runs) {
            const size_t n = v.size();
            auto P = [&](size_t i) { out += "point " + vertex(v[i], inst) + "\n"; };
            auto L = [&](size_t a, size_t b) {
                out += "line " + vertex(v[a], inst) + " " + vertex(v[b], inst) + "\n";
            };
            auto T = [&](size_t a, size_t b, size_t c) {
                out += "tri " + vertex(v[a], inst) + " " + vertex(v[b], inst) + " " +
                       vertex(v[c], inst) + "\n";
            };
            switch (d.prim) {
            case Prim::points:
                for (size_t i = 0; i < n; ++i) P(i);
                break;
            case Prim::lines:
                for (size_t i = 0; i + 1 < n; i += 2) L(i, i + 1);
                break;
            case Prim::line_strip:
                for (size_t i = 0; i + 1 < n; ++i) L(i, i + 1);
                break;
            case Prim::line_loop:
                if (n < 2) break;
                for (size_t i = 0; i + 1 < n; ++i) L(i, i + 1);
                L(n - 1, 0);
                break;
            case Prim::triangles:
                for (size_t i = 0; i + 2 < n; i += 3) T(i, i + 1, i + 2);
                break;
            case Prim::triangle_strip:
                for (size_t i = 0; i + 2 < n; ++i) {
                    if (i % 2 == 0)
                        T(i, i + 1, i + 2);
                    else if (last)
                        T(i + 1, i, i + 2);
                    else
                        T(i, i + 2, i + 1);
                }
                break;
            case Prim::triangle_fan:
                for (size_t i = 0; i + 2 < n; ++i) last ? T(0, i + 1, i + 2) : T(i + 1, i + 2, 0);
                break;
            case Prim::polygon:
                for (size_t i = 0; i + 2 < n; ++i) last ? T(i + 1, i + 2, 0) : T(0, i + 1, i + 2);
                break;
            case Prim::quads:
                for (size_t q = 0; q + 3 < n; q += 4) {
                    if (last)
                        T(q, q + 1, q + 3), T(q + 1, q + 2, q + 3);
                    else
                        T(q, q + 1, q + 2), T(q, q + 2, q + 3);
                }
                break;
            case Prim::quad_strip:
                for (size_t k = 0; 2 * k + 3 < n; ++k) {
                    const size_t a = 2 * k, b = a + 1, c = a + 2, e = a + 3;
                    if (last)
                        T(c, a, e), T(a, b, e);
                    else
                        T(a, e, c), T(a, b, e);
                }
                break;
            case Prim::lines_adjacency:
                for (size_t i = 0; i + 3 < n; i += 4) L(i + 1, i + 2);
                break;
            case Prim::line_strip_adjacency:
                for (size_t i = 0; i + 3 < n; ++i) L(i + 1, i + 2);
                break;
            case Prim::triangles_adjacency:
                for (size_t i = 0; i + 5 < n; i += 6) T(i, i + 2, i + 4);
                break;
            case Prim::patches:
                break; // above
            case Prim::triangle_strip_adjacency: {
                const size_t tris = n >= 6 ? (n - 4) / 2 : 0;
                for (size_t i = 0; i < tris; ++i) {
                    const size_t a = 2 * i, b = a + 2, c = a + 4;
                    if (i % 2 == 0)
                        T(a, b, c);
                    else if (last)
                        T(b, a, c);
                    else
                        T(a, c, b);
                }
                break;
            }
            }
        }
    }
    return out;
}

} // namespace drawpipe::test
