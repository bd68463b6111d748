// An independent model of what OpenGL draws with one of drawpipe's library geometry shaders
// bound, written from docs/gl-order.md ("With a geometry shader") and the library's
// definitions in the issue text. It shares no code with drawpipe's input assembler, executor
// or decomposer: input primitives come from GL's tables (triangle strips with adjacency from
// the GL specification's 1-based formulas), each shader is re-stated as the sequence of
// emit/cut events it performs, and strips are decomposed here.
#pragma once

#include "tools/common/draw_text.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace drawpipe::test {

// Input primitives (vertex ids in GS order) of one restart-free run `v`, or throws when
// GL rejects `prim` for a GS of input type `gs_in`.
inline std::vector<std::vector<uint32_t>> oracle_gs_inputs(Prim prim, Prim gs_in, bool last,
                                                           const std::vector<uint32_t>& v) {
    std::vector<std::vector<uint32_t>> out;
    const size_t n = v.size();
    auto add = [&](std::initializer_list<size_t> pos) {
        std::vector<uint32_t> p;
        for (size_t i : pos) p.push_back(v[i]);
        out.push_back(p);
    };
    auto want = [&](Prim in) {
        if (gs_in != in) throw std::invalid_argument("prim does not feed this gs");
    };
    switch (prim) {
    case Prim::points:
        want(Prim::points);
        for (size_t i = 0; i < n; ++i) add({i});
        break;
    case Prim::lines:
        want(Prim::lines);
        for (size_t i = 0; i + 1 < n; i += 2) add({i, i + 1});
        break;
    case Prim::line_strip:
        want(Prim::lines);
        for (size_t i = 0; i + 1 < n; ++i) add({i, i + 1});
        break;
    case Prim::line_loop:
        want(Prim::lines);
        if (n < 2) break;
        for (size_t i = 0; i + 1 < n; ++i) add({i, i + 1});
        add({n - 1, 0});
        break;
    case Prim::triangles:
        want(Prim::triangles);
        for (size_t i = 0; i + 2 < n; i += 3) add({i, i + 1, i + 2});
        break;
    case Prim::triangle_strip:
        want(Prim::triangles);
        for (size_t i = 0; i + 2 < n; ++i) {
            if (i % 2 == 0)
                add({i, i + 1, i + 2});
            else if (last)
                add({i + 1, i, i + 2});
            else
                add({i, i + 2, i + 1});
        }
        break;
    case Prim::triangle_fan:
        want(Prim::triangles);
        for (size_t i = 0; i + 2 < n; ++i) last ? add({0, i + 1, i + 2}) : add({i + 1, i + 2, 0});
        break;
    case Prim::lines_adjacency:
        want(Prim::lines_adjacency);
        for (size_t i = 0; i + 3 < n; i += 4) add({i, i + 1, i + 2, i + 3});
        break;
    case Prim::line_strip_adjacency:
        want(Prim::lines_adjacency);
        for (size_t i = 0; i + 3 < n; ++i) add({i, i + 1, i + 2, i + 3});
        break;
    case Prim::triangles_adjacency:
        want(Prim::triangles_adjacency);
        for (size_t i = 0; i + 5 < n; i += 6) add({i, i + 1, i + 2, i + 3, i + 4, i + 5});
        break;
    case Prim::triangle_strip_adjacency: {
        want(Prim::triangles_adjacency);
        // GL's table in 1-based vertex numbers j, for the last-vertex convention.
        const size_t tris = n >= 6 ? (n - 4) / 2 : 0;
        for (size_t i = 0; i < tris; ++i) {
            std::vector<size_t> j;
            const bool is_last = i + 1 == tris;
            if (tris == 1)
                j = {1, 2, 3, 6, 5, 4};
            else if (i == 0)
                j = {1, 2, 3, 7, 5, 4};
            else if (i % 2 == 1)
                j = {2 * i + 3, 2 * i - 1, 2 * i + 1,
                     2 * i + 4, 2 * i + 5, 2 * i + (is_last ? 6 : 7)};
            else
                j = {2 * i + 1, 2 * i - 1, 2 * i + 3, 2 * i + (is_last ? 6 : 7),
                     2 * i + 5, 2 * i + 4};
            // Under the first-vertex convention odd triangles start two places later.
            if (!last && i % 2 == 1) j = {j[2], j[3], j[4], j[5], j[0], j[1]};
            std::vector<uint32_t> p;
            for (size_t x : j) p.push_back(v[x - 1]);
            out.push_back(p);
        }
        break;
    }
    default:
        throw std::invalid_argument("prim does not feed any gs");
    }
    return out;
}

struct OracleGsVertex {
    uint32_t id;
    uint32_t layer;
};

// What the library shader `name` does for one input primitive and invocation, as events:
// a vertex, or a cut (end_primitive), stream-0 only.
struct OracleGsEvent {
    bool cut;
    OracleGsVertex v;
};

struct OracleGsShader {
    Prim in, out;
    uint32_t max_vertices, invocations;
    bool layer;
};

inline OracleGsShader oracle_gs_shader(const std::string& name) {
    const Prim T = Prim::triangles, S = Prim::triangle_strip;
    if (name == "passthrough_tri") return {T, S, 3, 1, false};
    if (name == "amplify3_layer") return {T, S, 9, 1, true};
    if (name == "strip_cut_middle") return {T, S, 9, 1, false};
    if (name == "endprim_before_emit") return {T, S, 5, 1, false};
    if (name == "cull_odd") return {T, S, 3, 1, false};
    if (name == "many_cuts64") return {T, S, 64, 1, false};
    if (name == "points_out") return {T, Prim::points, 3, 1, false};
    if (name == "line_strip_out") return {T, Prim::line_strip, 4, 1, false};
    if (name == "lines_in") return {Prim::lines, Prim::line_strip, 2, 1, false};
    if (name == "lines_adj_in") return {Prim::lines_adjacency, Prim::line_strip, 4, 1, false};
    if (name == "tris_adj_in") return {Prim::triangles_adjacency, S, 6, 1, false};
    if (name == "points_in_quad") return {Prim::points, S, 4, 1, false};
    if (name == "invocations4") return {T, S, 3, 4, true};
    if (name == "streams2") return {Prim::points, Prim::points, 2, 1, false};
    if (name == "streams4") return {T, Prim::points, 8, 1, false};
    throw std::invalid_argument("unknown gs " + name);
}

inline std::vector<OracleGsEvent> oracle_gs_events(const std::string& name, uint32_t inst,
                                                   uint32_t prim_id, uint32_t inv,
                                                   const std::vector<uint32_t>& vid) {
    std::vector<OracleGsEvent> e;
    const uint32_t base = 1000000u * inst + 1000u * prim_id;
    auto V = [&](uint32_t id, uint32_t layer = 0) { e.push_back({false, {id, layer}}); };
    auto cut = [&] { e.push_back({true, {0, 0}}); };
    if (name == "passthrough_tri" || (name == "cull_odd" && prim_id % 2 == 0)) {
        V(base + vid[0]), V(base + vid[1]), V(base + vid[2]), cut();
    } else if (name == "amplify3_layer") {
        for (uint32_t c = 0; c < 3; ++c)
            V(base + vid[0], c), V(base + vid[1], c), V(base + vid[2], c), cut();
    } else if (name == "strip_cut_middle") {
        V(base + 0), V(base + 1), V(base + 2), V(base + 3), cut();
        V(base + 4), V(base + 5), cut();
        V(base + 6), V(base + 7), V(base + 8);
    } else if (name == "endprim_before_emit") {
        cut(), cut();
        for (uint32_t n = 0; n < 5; ++n) V(base + n);
        cut(), cut();
    } else if (name == "many_cuts64") {
        for (uint32_t n = 0; n <= 42; ++n) {
            V(base + n);
            if (n % 5 == 4) cut();
        }
    } else if (name == "points_out") {
        V(base + vid[2]), V(base + vid[1]), V(base + vid[0]);
    } else if (name == "line_strip_out") {
        V(base + vid[0]), V(base + vid[1]), V(base + vid[2]), V(base + vid[0]), cut();
    } else if (name == "lines_in") {
        V(base + vid[0]), V(base + vid[1]);
    } else if (name == "lines_adj_in") {
        for (uint32_t i = 0; i < 4; ++i) V(base + vid[i]);
    } else if (name == "tris_adj_in") {
        V(base + vid[0]), V(base + vid[2]), V(base + vid[4]), cut();
        V(base + vid[1]), V(base + vid[3]), V(base + vid[5]);
    } else if (name == "points_in_quad") {
        for (uint32_t c = 0; c < 4; ++c) V(base + 10u * vid[0] + c);
    } else if (name == "invocations4") {
        for (uint32_t i = 0; i < 3; ++i) V(base + vid[i] + 100u * inv, inv);
    } else if (name == "streams2") {
        V(base + vid[0]); // the stream-1 copy never reaches the backend
    } else if (name == "streams4") {
        V(base + vid[0]), V(base + vid[1]), V(base + vid[2]); // stream 0's three
    }
    return e;
}

// The expected trace of a draw description with `gs` set to a library shader.
inline std::string oracle_gs_trace(const DrawDesc& d) {
    const OracleGsShader sh = oracle_gs_shader(d.gs);
    const bool indexed = d.index_type != IndexType::none;
    const bool last = d.provoking == Provoking::last;
    std::string out;
    auto vtx = [&](const OracleGsVertex& v) {
        return std::to_string(v.id) + (sh.layer ? "@" + std::to_string(v.layer) : "");
    };
    auto draw_strip = [&](const std::vector<OracleGsVertex>& s) {
        const size_t n = s.size();
        if (sh.out == Prim::points) {
            for (const auto& v : s) out += "point " + vtx(v) + "\n";
        } else if (sh.out == Prim::line_strip) {
            for (size_t i = 0; i + 1 < n; ++i)
                out += "line " + vtx(s[i]) + " " + vtx(s[i + 1]) + "\n";
        } else {
            for (size_t i = 0; i + 2 < n; ++i) {
                size_t a = i, b = i + 1, c = i + 2;
                if (i % 2 == 1) {
                    if (last)
                        a = i + 1, b = i, c = i + 2;
                    else
                        a = i, b = i + 2, c = i + 1;
                }
                out += "tri " + vtx(s[a]) + " " + vtx(s[b]) + " " + vtx(s[c]) + "\n";
            }
        }
    };
    for (uint32_t inst = 0; inst < d.instances; ++inst) {
        std::vector<std::vector<uint32_t>> runs(1);
        for (uint32_t i = 0; i < d.count; ++i) {
            if (!indexed) {
                runs.back().push_back(d.start + i);
                continue;
            }
            const uint32_t raw = d.indices[d.start + i];
            if (d.restart && raw == d.restart_index)
                runs.emplace_back();
            else
                runs.back().push_back(uint32_t(int64_t(raw) + d.base_vertex));
        }
        uint32_t prim_id = 0;
        for (const auto& run : runs) {
            for (const auto& vid : oracle_gs_inputs(d.prim, sh.in, last, run)) {
                for (uint32_t inv = 0; inv < sh.invocations; ++inv) {
                    std::vector<OracleGsVertex> strip;
                    uint32_t emitted = 0;
                    auto close = [&] {
                        const size_t need = sh.out == Prim::points       ? 1
                                            : sh.out == Prim::line_strip ? 2
                                                                         : 3;
                        if (strip.size() >= need) draw_strip(strip);
                        strip.clear();
                    };
                    for (const OracleGsEvent& ev :
                         oracle_gs_events(d.gs, inst, prim_id, inv, vid)) {
                        if (ev.cut)
                            close();
                        else if (emitted++ < sh.max_vertices)
                            strip.push_back(ev.v);
                    }
                    close();
                }
                ++prim_id;
            }
        }
    }
    return out;
}

} // namespace drawpipe::test
